import Testing

@testable import XToastCore

/// Do not disturb against the queue protocol: many processes on a fake X server, each running
/// the shipped `Session` and `QueueMember` (see `QueueWorld`), one server request a step, so
/// that another client can act between any two of its requests: the pause set, changed, ended by
/// its clock or by `--resume`; urgent toasts that go through it; tags, kills and reused ids.
/// Checked: never two queued toasts on screen at once, toasts that are not urgent shown in start
/// order, nothing lost or wedged.
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

extension PauseSimulationTests {
    @Test("A forged ticket marked through, behind a held toast, holds it no longer than the grace")
    func forgedPasser() throws {
        var world = QueueWorld(seed: 5)
        world.setPause([0])
        let held = world.spawn(tag: nil)
        try world.settle()
        #expect(world.processes[held].member.ticket.pause == .held)
        // Another client: a ticket that says it goes through, behind the held toast, and never
        // shows, ends or changes.
        let forged: UInt = 0x7e00_0000
        world.windows[forged] = QueueWorld.Window(owner: -1, ticket: Ticket(pid: 4242, tag: nil, pause: .through))
        world.lists[.queue, default: []].append(forged)
        world.setPause(nil)
        try world.settle()
        #expect(world.processes[held].state == .waiting, "a real passer would be drawn soon: it is waited for")
        for _ in 0..<Int(QueueProtocol.passerGrace) { world.tick() }
        try world.settle()
        #expect(world.processes[held].state == .showing)
    }

    @Test("A real passer not yet drawn is waited for, past the grace as long as it is drawn meanwhile")
    func realPasser() throws {
        var world = QueueWorld(seed: 6)
        world.setPause([0])
        let held = world.spawn(tag: nil)
        try world.settle()
        let urgent = world.spawn(tag: nil, urgent: true)
        // The urgent toast decides it may show, and is not drawn yet when the pause ends.
        try world.step(urgent) { $0.processes[urgent].state == .showing }
        world.setPause(nil)
        try world.settle()
        #expect(world.processes[urgent].state == .showing)
        #expect(world.processes[held].state == .waiting)
        for _ in 0..<10 { world.tick() }
        try world.settle()
        #expect(world.processes[held].state == .waiting, "it waits for the passer on screen to end")
        world.finish(urgent)
        try world.settle()
        #expect(world.processes[held].state == .showing)
    }
}
