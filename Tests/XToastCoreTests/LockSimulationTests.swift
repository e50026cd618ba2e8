import Testing

@testable import XToastCore

/// A locked screen against the queue protocol (issues #22, #28), on the fake X server of
/// `QueueWorld`, each process running the shipped `Session` and `QueueMember`: a toast up when
/// the locker comes is withdrawn and waits, the ones whose turn comes under the lock stand aside
/// in their place, and after the unlock each shows once, in start order. Checked besides the
/// protocol's promises: nothing is drawn over a lock the toast has looked at, and once everyone
/// has done what they can under the lock, nothing is on screen.
@Suite("Locks, simulated")
struct LockSimulationTests {
    func showing(_ world: QueueWorld) -> [Int] { world.processes.filter { $0.state == .showing }.map(\.index) }

    /// Ends the toasts one at a time, checking that each is alone on screen in its turn.
    func drain(_ world: inout QueueWorld, expecting order: [Int]) throws {
        for index in order {
            try world.settle()
            #expect(showing(world) == [index])
            world.finish(index)
        }
        try world.settle()
        #expect(world.showOrder == order.filter { world.processes[$0].tag == nil })
        try world.checkEnd()
    }

    @Test("Locked while one shows and others wait: it is withdrawn, nothing else shows, all follow in order after the unlock")
    func lockedWhileShowing() throws {
        var world = QueueWorld(seed: 11)
        let toasts = (0..<3).map { _ in world.spawn(tag: nil) }
        try world.settle()
        #expect(showing(world) == [toasts[0]])
        world.setLock(true)
        try world.settle()
        #expect(world.processes[toasts[0]].session.showing?.underLock == true)
        // A toast that starts under the lock waits as well.
        let late = world.spawn(tag: nil)
        try world.settle()
        #expect(world.processes.allSatisfy { !$0.mapped })
        #expect(showing(world) == [toasts[0]], "only the withdrawn one")
        world.setLock(false)
        try world.settle()
        #expect(world.processes[toasts[0]].mapped, "back on screen, not shown again")
        try drain(&world, expecting: toasts + [late])
    }

    @Test("Locked before their turn: each stands aside in its place, an OSD too, and they show in start order after the unlock")
    func lockedBeforeTurn() throws {
        var world = QueueWorld(seed: 12)
        world.setLock(true)
        let toasts = (0..<4).map { _ in world.spawn(tag: nil) }
        try world.settle()
        let osd = world.spawn(tag: "vol")
        try world.settle()
        #expect(world.processes.allSatisfy { $0.session.waiting == .locked && $0.member.ticket.pause == .aside })
        #expect(world.processes.allSatisfy { !$0.shown })
        world.setLock(false)
        try drain(&world, expecting: toasts + [osd])
    }

    @Test("Locked and unlocked again and again while toasts come and show", arguments: 0..<20)
    func lockedAgain(seed: UInt64) throws {
        var world = QueueWorld(seed: 30_000 + seed)
        var started: [Int] = []
        for round in 0..<6 {
            started += (0..<2).map { _ in world.spawn(tag: nil) }
            try FullscreenSimulationTests.settleRandomly(&world)
            world.setLock(round % 2 == 0)
            try FullscreenSimulationTests.settleRandomly(&world)
            try world.checkSettled()
            if let up = showing(world).first { world.finish(up) }
        }
        world.setLock(false)
        try FullscreenSimulationTests.settleRandomly(&world)
        for _ in started {
            guard let up = showing(world).first else { break }
            #expect(showing(world).count == 1)
            world.finish(up)
            try FullscreenSimulationTests.settleRandomly(&world)
        }
        #expect(world.showOrder.count == Set(world.showOrder).count, "none shown twice")
        #expect(Set(world.showOrder) == Set(started), "none lost")
        try world.checkEnd()
    }

    @Test("Random schedules with locks, tags, kills and reused ids keep every rule", arguments: 0..<20)
    func randomSchedules(seed: UInt64) throws {
        for round in 0..<40 {
            var world = QueueWorld(seed: 40_000 + seed * 1000 + UInt64(round))
            try world.run(.init(processes: 10, lock: true))
        }
    }

    @Test("Random schedules with locks, pauses and films together", arguments: 0..<10)
    func withPausesAndFilms(seed: UInt64) throws {
        for round in 0..<40 {
            var world = QueueWorld(seed: 50_000 + seed * 1000 + UInt64(round))
            try world.run(.init(processes: 10, pauses: true, fullscreen: true, lock: true))
        }
    }

    @Test("Random schedules with locks alone, without faults")
    func withoutFaults() throws {
        for seed in 0..<300 {
            var world = QueueWorld(seed: 45_000 + UInt64(seed))
            try world.run(.init(processes: 8, faults: false, lock: true))
        }
    }
}
