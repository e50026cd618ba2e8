import Testing

@testable import XToastCore

/// Do not disturb against the queue protocol: many processes on a fake X server, each driving
/// the shipped `QueueMember` (see `QueueWorld`), one server request a step, so that another
/// client can act between any two of its requests: the pause set, changed, ended by its clock or
/// by `--resume`; urgent toasts that go through it; tags, kills and reused ids. Checked: never
/// two queued toasts on screen at once, toasts that are not urgent shown in start order,
/// nothing lost or wedged.
@Suite("Pauses, simulated")
struct PauseSimulationTests {
    @Test("Thousands of random schedules with pauses keep every rule", arguments: 0..<40)
    func randomSchedules(seed: UInt64) throws {
        for round in 0..<60 {
            var world = QueueWorld(seed: seed * 1000 + UInt64(round))
            try world.run(.init(processes: 10, pauses: true))
        }
    }

    @Test("Random schedules without faults: pauses alone")
    func withoutFaults() throws {
        for seed in 0..<400 {
            var world = QueueWorld(seed: 90_000 + UInt64(seed))
            try world.run(.init(processes: 8, faults: false, pauses: true))
        }
    }

    @Test("Paused: the queue stands aside, an urgent toast shows, the rest follow in order after the pause")
    func scenario() throws {
        var simulation = QueueWorld(seed: 1)
        simulation.setPause([0])
        let held = (0..<3).map { _ in simulation.spawn(tag: nil) }
        try simulation.settle()
        #expect(held.allSatisfy { simulation.processes[$0].member.ticket.pause == .held })
        #expect(simulation.processes.allSatisfy { $0.state == .waiting })

        let urgent = simulation.spawn(tag: nil, urgent: true)
        try simulation.settle()
        #expect(simulation.processes[urgent].state == .showing)
        #expect(simulation.processes[urgent].member.ticket.pause == .through)

        simulation.setPause(nil)
        try simulation.settle()
        // The head waits for the urgent one, which it let pass.
        #expect(held.allSatisfy { simulation.processes[$0].state == .waiting })
        simulation.finish(urgent)
        for index in held {
            try simulation.settle()
            #expect(simulation.processes.filter { $0.state == .showing }.map(\.index) == [index])
            simulation.finish(index)
        }
        #expect(simulation.showOrder == held)
    }

    @Test("A toast that stood aside and then showed is not passed when a new pause begins")
    func pausedAgain() throws {
        var simulation = QueueWorld(seed: 4)
        simulation.setPause([0])
        let first = simulation.spawn(tag: nil)
        try simulation.settle()
        simulation.setPause(nil)
        try simulation.settle()
        #expect(simulation.processes[first].state == .showing)
        #expect(simulation.processes[first].member.ticket.pause == nil)
        simulation.setPause([0])
        let urgent = simulation.spawn(tag: nil, urgent: true)
        try simulation.settle()
        #expect(simulation.processes[urgent].state == .waiting)
        simulation.finish(first)
        try simulation.settle()
        #expect(simulation.processes[urgent].state == .showing)
    }

    @Test("A timed pause ends by its clock, with nobody told")
    func timedPause() throws {
        var simulation = QueueWorld(seed: 2)
        simulation.setPause([UInt(simulation.clock + 3)])
        let toast = simulation.spawn(tag: nil)
        try simulation.settle()
        #expect(simulation.processes[toast].state == .waiting)
        simulation.tick()
        simulation.tick()
        try simulation.settle()
        #expect(simulation.processes[toast].state == .waiting)
        simulation.tick()
        try simulation.settle()
        #expect(simulation.processes[toast].state == .showing)
    }

    @Test("Garbage in _XTOAST_PAUSED pauses nothing")
    func garbage() throws {
        for value: [UInt]? in [[1, 2], [], [UInt(UInt32.max) + 5], [UInt(1_000_000 + 400 * 86_400)], [999_999]] {
            var simulation = QueueWorld(seed: 3)
            simulation.setPause(value)
            let toast = simulation.spawn(tag: nil)
            try simulation.settle()
            #expect(simulation.processes[toast].state == .showing, "\(String(describing: value))")
        }
    }
}
