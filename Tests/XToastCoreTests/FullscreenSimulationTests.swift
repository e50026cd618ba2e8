import Testing

@testable import XToastCore

/// Toasts delayed by a fullscreen window (`--fullscreen delay`) against the queue protocol, on the
/// fake X server of `QueueWorld`: each stands aside in its place while the film plays, the toasts
/// behind it pass it, and when the film ends the delayed ones show in their start order.
@Suite("Fullscreen delays, simulated")
struct FullscreenSimulationTests {
    /// Runs every process until nobody has anything to do, in a random order of steps.
    static func settleRandomly(_ world: inout QueueWorld) throws {
        var steps = 0
        while true {
            let busy = world.processes.indices.filter { world.isBusy($0) && world.mayAct($0) }
            guard !busy.isEmpty else { return }
            steps += 1
            guard steps < 200_000 else { throw world.failure("does not settle") }
            try world.step(world.random.pick(busy))
        }
    }

    @Test("Twenty toasts delayed by a film show in start order when it ends", arguments: 0..<20)
    func twentyInOrder(seed: UInt64) throws {
        var world = QueueWorld(seed: 500 + seed)
        world.setFullscreen(true)
        var delayed: [Int] = []
        for _ in 0..<20 {
            delayed.append(world.spawn(tag: nil, delays: true))
            // Its ticket in the queue before the next one starts; the rest in any order.
            let last = delayed.last ?? 0
            try world.step(last) { !$0.processes[last].member.lists.isEmpty && $0.processes[last].conversation == nil }
            try Self.settleRandomly(&world)
        }
        #expect(
            delayed.allSatisfy {
                world.processes[$0].session.waiting == .asideForFullscreen && world.processes[$0].member.ticket.pause == .aside
            })
        #expect(world.readList(.queue) == delayed.map { world.processes[$0].ticket }, "each in its place")
        world.setFullscreen(false)
        for _ in delayed {
            try Self.settleRandomly(&world)
            let showing = world.processes.filter { $0.state == .showing }
            #expect(showing.count == 1)
            guard let first = showing.first else { break }
            world.finish(first.index)
        }
        try Self.settleRandomly(&world)
        #expect(world.showOrder == delayed)
        try world.checkEnd()
    }

    @Test("An OSD passes the toasts that wait for the film, and they still come back in order")
    func osdPasses() throws {
        var world = QueueWorld(seed: 9)
        world.setFullscreen(true)
        let delayed = (0..<3).map { _ in world.spawn(tag: nil, delays: true) }
        try world.settle()
        let osd = world.spawn(tag: "vol")
        try world.settle()
        #expect(world.processes[osd].state == .showing)
        #expect(world.processes[osd].member.ticket.pause == .through)
        // The film ends while the OSD shows: the first delayed toast waits for it.
        world.setFullscreen(false)
        try Self.settleRandomly(&world)
        #expect(delayed.allSatisfy { world.processes[$0].state == .waiting })
        world.finish(osd)
        for index in delayed {
            try Self.settleRandomly(&world)
            #expect(world.processes.filter { $0.state == .showing }.map(\.index) == [index])
            world.finish(index)
        }
    }

    @Test("Random schedules with films, tags, kills and reused ids keep every rule", arguments: 0..<30)
    func randomSchedules(seed: UInt64) throws {
        for round in 0..<40 {
            var world = QueueWorld(seed: 70_000 + seed * 1000 + UInt64(round))
            try world.run(.init(processes: 12, fullscreen: true))
        }
    }

    @Test("Random schedules with films and pauses together", arguments: 0..<20)
    func withPauses(seed: UInt64) throws {
        for round in 0..<40 {
            var world = QueueWorld(seed: 80_000 + seed * 1000 + UInt64(round))
            try world.run(.init(processes: 10, pauses: true, fullscreen: true))
        }
    }

    @Test("Random schedules with films alone, without faults")
    func withoutFaults() throws {
        for seed in 0..<400 {
            var world = QueueWorld(seed: 60_000 + UInt64(seed))
            try world.run(.init(processes: 10, faults: false, fullscreen: true))
        }
    }
}
