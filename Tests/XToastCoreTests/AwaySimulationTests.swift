import Testing

@testable import XToastCore

/// No flood after quiet (issue #30), for toasts that wait in the queue: on the fake X server of
/// `QueueWorld`, each process running the shipped `Session` and `QueueMember`. When a pause, a
/// lock or a film ends with enough toasts that may be summarised waiting (an `away=` name), the
/// first of them whose turn comes shows one summary and tells the others, which end
/// `summarised` without showing; tagged and urgent toasts still show as themselves, in order.
@Suite("Summaries after quiet, simulated")
struct AwaySimulationTests {
    func showing(_ world: QueueWorld) -> [Int] { world.processes.filter { $0.state == .showing }.map(\.index) }

    func isSummarised(_ world: QueueWorld, _ index: Int) -> Bool {
        if case .summarised = world.processes[index].session.outcome { return true }
        return false
    }

    @Test("Five toasts held by a pause end as one summary; an OSD and a toast without a name show as themselves, in order")
    func pause() throws {
        var world = QueueWorld(seed: 21)
        world.setPause([0])
        let first = (0..<3).map { _ in world.spawn(tag: nil, away: "Signal") }
        let plain = world.spawn(tag: nil)
        let osd = world.spawn(tag: "vol")
        let last = (0..<2).map { _ in world.spawn(tag: nil, away: "Mail") }
        try world.settle()
        #expect(world.processes.allSatisfy { $0.member.ticket.pause == .held })
        world.setPause(nil)
        try world.settle()
        #expect(showing(world) == [first[0]])
        let summary = try #require(world.processes[first[0]].session.summary)
        #expect(summary.count == 5)
        #expect(summary.title == "While you were away: 5")
        #expect(summary.body == "Signal 3, Mail 2")
        #expect(world.processes[first[0]].session.content == summary.content)
        #expect(world.processes[first[0]].session.duration == AwaySummary.hold, "its own 5 s are not the summary's")
        for index in first.dropFirst() + last { #expect(isSummarised(world, index) && !world.processes[index].shown) }
        for index in [first[0], plain, osd] {
            try world.settle()
            #expect(showing(world) == [index])
            world.finish(index)
        }
        try world.settle()
        #expect(world.processes[first[0]].session.outcome == .summarised(opensCenter: true), "its click opens the centre")
        try world.checkEnd()
    }

    @Test("A burst's toast counts for each of its notifications in the summary")
    func burst() throws {
        var world = QueueWorld(seed: 22)
        world.setPause([0])
        let first = world.spawn(tag: nil, away: "Mail")
        _ = world.spawn(tag: nil, away: "Signal", awayCount: 4)
        _ = world.spawn(tag: nil, away: "Mail")
        try world.settle()
        world.setPause(nil)
        try world.settle()
        let summary = try #require(world.processes[first].session.summary)
        #expect(summary.title == "While you were away: 6")
        #expect(summary.body == "Signal 4, Mail 2")
    }

    @Test("Two toasts held show as themselves: fewer than the threshold are no flood")
    func fewShowThemselves() throws {
        var world = QueueWorld(seed: 22)
        world.setPause([0])
        let toasts = (0..<(AwaySummary.threshold - 1)).map { _ in world.spawn(tag: nil, away: "Signal") }
        try world.settle()
        world.setPause(nil)
        for index in toasts {
            try world.settle()
            #expect(showing(world) == [index])
            #expect(world.processes[index].session.summary == nil)
            world.finish(index)
        }
        try world.settle()
        #expect(world.showOrder == toasts)
        try world.checkEnd()
    }

    @Test("Toasts that stood aside for a lock end as one summary after the unlock")
    func lock() throws {
        var world = QueueWorld(seed: 23)
        world.setLock(true)
        let toasts = (0..<4).map { _ in world.spawn(tag: nil, away: "Mail") }
        try world.settle()
        #expect(world.processes.allSatisfy { $0.member.ticket.pause == .aside && !$0.shown })
        world.setLock(false)
        try world.settle()
        #expect(showing(world) == [toasts[0]])
        #expect(world.processes[toasts[0]].session.summary?.count == 4)
        for index in toasts.dropFirst() { #expect(isSummarised(world, index)) }
        world.finish(toasts[0])
        try world.settle()
        try world.checkEnd()
    }

    @Test("A toast shown before the pause is no returner: the held ones behind it are summarised after it")
    func shownBeforeIsNotCounted() throws {
        var world = QueueWorld(seed: 24)
        let up = world.spawn(tag: nil, away: "Signal")
        try world.settle()
        #expect(showing(world) == [up])
        world.setPause([0])
        let held = (0..<3).map { _ in world.spawn(tag: nil, away: "Signal") }
        try world.settle()
        world.finish(up)
        try world.settle()
        world.setPause(nil)
        try world.settle()
        #expect(world.processes[up].session.summary == nil)
        #expect(showing(world) == [held[0]])
        #expect(world.processes[held[0]].session.summary?.count == 3)
        world.finish(held[0])
        try world.settle()
        try world.checkEnd()
    }

    /// Quiet (a pause, or a lock) while 4 to 9 toasts of every kind start and settle, then its
    /// end and a random schedule to the end: the returners' looks, the summary's telling, late
    /// toasts, kills and ids given again, in an order the seed picks.
    func quietThenRandom(seed: UInt64, lock: Bool, faults: Bool) throws -> Int {
        var world = QueueWorld(seed: seed)
        if lock { world.setLock(true) } else { world.setPause([0]) }
        for _ in 0..<(4 + world.random.below(6)) {
            let kind = world.random.below(6)
            let tag: String? = kind == 4 ? "vol" : nil
            let urgent = !lock && kind == 5
            world.spawn(tag: tag, urgent: urgent, away: kind < 3 ? ["Signal", "Mail"][world.random.below(2)] : nil)
        }
        try world.settle()
        // Those that stood aside for it: toasts waiting behind an urgent one on screen never did.
        let away = world.processes.filter { $0.member.ticket.mayBeSummarised }.map(\.index)
        if lock { world.setLock(false) } else { world.setPause(nil) }
        try world.run(.init(processes: world.processes.count + 2, faults: faults))
        let summaries = world.processes.filter { $0.session.summary != nil }
        guard !faults else { return summaries.count }
        // Nobody killed: in any order of their looks, all of them in one summary, or none.
        let counts = summaries.map { $0.session.summary!.count }
        #expect(counts == (away.count >= AwaySummary.threshold ? [away.count] : []), "seed \(seed)")
        let summarised = away.filter { isSummarised(world, $0) && world.processes[$0].session.summary == nil }
        #expect(summarised.count == max(0, (counts.first ?? 1) - 1), "seed \(seed)")
        return summaries.count
    }

    @Test("Random ends of a pause or a lock with summaries keep every rule", arguments: [false, true], 0..<20)
    func randomEnds(lock: Bool, seed: UInt64) throws {
        var summaries = 0
        for round in 0..<30 {
            let base: UInt64 = lock ? 80_000 : 70_000
            summaries += try quietThenRandom(seed: base + seed * 1000 + UInt64(round), lock: lock, faults: round % 2 == 0)
        }
        #expect(summaries > 0, "the schedules made no summary to check")
    }

    @Test("Random schedules with locks, films, pauses and summaries keep every rule", arguments: 0..<10)
    func randomQuiet(seed: UInt64) throws {
        for round in 0..<40 {
            var world = QueueWorld(seed: 90_000 + seed * 1000 + UInt64(round))
            try world.run(.init(processes: 10, pauses: true, fullscreen: true, lock: true, away: true))
        }
    }
}

extension AwaySimulationTests {
    @Test("A summary that stands aside again before it shows takes in those that came back with it then")
    func lockedAgainBeforeTheSummaryShows() throws {
        var world = QueueWorld(seed: 25)
        world.setPause([0])
        let toasts = (0..<3).map { _ in world.spawn(tag: nil, away: "Signal") }
        try world.settle()
        // The screen locks as the pause ends: the summary finds the lock and stands aside.
        world.setLock(true)
        world.setPause(nil)
        try world.settle()
        let head = try #require(world.processes.first { $0.session.summary != nil })
        #expect(head.session.summary?.count == 3 && !head.shown)
        // Two more come under the lock, stand aside behind it, and come back with it.
        let late = (0..<2).map { _ in world.spawn(tag: nil, away: "Mail") }
        try world.settle()
        world.setLock(false)
        try world.settle()
        #expect(showing(world) == [head.index])
        #expect(head.session.summary?.count == 5, "\(String(describing: head.session.summary))")
        #expect(head.session.summary?.body == "Signal 3, Mail 2")
        for index in toasts.dropFirst() + late { #expect(isSummarised(world, index)) }
        world.finish(head.index)
        try world.settle()
        try world.checkEnd()
    }
}
