import Testing

@testable import XToastCore

/// Many xtoast processes on a fake X server, each running the shipped `Session` and its
/// `QueueMember` as the program does (see `QueueWorld`), under seeded random interleavings with
/// kills, ids reused by new clients, dead ids written into the queue by another client, and tags
/// that replace each other.
@Suite("Queue protocol, simulated")
struct QueueSimulationTests {
    @Test("Thousands of random schedules keep every rule", arguments: 0..<40)
    func randomSchedules(seed: UInt64) throws {
        for round in 0..<50 {
            var world = QueueWorld(seed: seed * 1000 + UInt64(round))
            try world.run(.init(processes: 12))
        }
    }

    @Test("The work of waiting does not grow with the queue")
    func boundedWork() throws {
        func looksPerToast(_ count: Int) throws -> Double {
            var world = QueueWorld(seed: 7)
            try world.run(.init(processes: count, faults: false, joinFirst: true))
            return Double(world.looksStarted) / Double(count)
        }
        let small = try looksPerToast(20)
        let large = try looksPerToast(400)
        #expect(large <= 1.5 * small, "\(small) looks a toast with 20 waiting, \(large) with 400")
    }

    @Test("A tagged toast takes a waiting one's place, and the one it replaces is told")
    func tagTakesThePlace() throws {
        var world = QueueWorld(seed: 1)
        let first = world.spawn(tag: nil)
        try world.settle()
        let waiting = world.spawn(tag: "vol")
        let other = world.spawn(tag: nil)
        try world.settle()
        let update = world.spawn(tag: "vol")
        try world.settle()
        #expect(world.processes[waiting].state == .done)
        #expect(world.processes[waiting].replacedBy == .some("vol"))
        #expect(world.readList(.queue) == [world.processes[first].ticket, world.processes[update].ticket, world.processes[other].ticket])
        world.finish(first)
        try world.settle()
        #expect(world.processes[update].state == .showing)
    }

    @Test("Garbage past the part of the queue anyone reads is cleared, and the toast still shows")
    func overflow() throws {
        var world = QueueWorld(seed: 2)
        world.lists[.queue] = (0..<UInt(TicketQueue.entryLimit + 10)).map { 0x7f00_0000 + $0 }
        let toast = world.spawn(tag: nil)
        try world.settle()
        #expect(world.processes[toast].state == .showing)
        #expect(world.readList(.queue).count < TicketQueue.entryLimit)
    }

    @Test("A ticket ahead whose id a new client behind us got meanwhile is not waited for")
    func idReusedBehind() throws {
        var world = QueueWorld(seed: 4)
        let first = world.spawn(tag: nil)
        try world.settle()
        let toast = world.spawn(tag: nil)
        // The toast has read the queue and is about to ask the ticket ahead of it...
        try world.step(toast) {
            guard let talk = $0.processes[toast].conversation, case .ask(.tickets) = talk.next else { return false }
            return !talk.writes.isEmpty
        }
        // ...when that one dies, and a new client gets its id, joins behind the toast, and waits
        // for it (touching its ticket before the toast listens to it).
        let id = world.processes[first].ticket
        world.kill(first)
        let late = world.spawn(tag: nil, reusing: id)
        #expect(world.processes[late].ticket == id)
        try world.step(late) { !$0.isBusy(late) }
        try world.settle()
        // Waiting for it would be a circle: it waits for the toast.
        #expect(world.processes[toast].state == .showing)
        #expect(world.processes[late].state == .waiting)
        world.finish(toast)
        try world.settle()
        #expect(world.processes[late].state == .showing)
    }

    @Test("A toast missing from the queue joins again")
    func missing() throws {
        var world = QueueWorld(seed: 3)
        let toast = world.spawn(tag: nil)
        // Someone rewrites the queue without us once our append is in.
        try world.step(toast) { $0.queue.contains($0.processes[toast].ticket) }
        world.lists[.queue] = []
        try world.settle()
        #expect(world.processes[toast].state == .showing)
        #expect(world.readList(.queue) == [world.processes[toast].ticket])
    }
}
