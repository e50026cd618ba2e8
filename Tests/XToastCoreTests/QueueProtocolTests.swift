import Testing

@testable import XToastCore

@Suite("Queue protocol")
struct QueueProtocolTests {
    @Test(
        "The entries ahead, nearest first; nil when not in the queue",
        arguments: [
            ([1, 2, 3, 4], 3, [2, 1] as [UInt]?), ([1, 2, 3], 1, []), ([1, 2], 9, nil), ([], 1, nil),
        ] as [([UInt], UInt, [UInt]?)])
    func ahead(queue: [UInt], me: UInt, expected: [UInt]?) {
        #expect(QueueProtocol.ahead(of: me, in: queue) == expected)
    }

    @Test("A process waits for the nearest live ticket ahead, shows when none is, joins again when missing")
    func turns() {
        let live: Set<UInt> = [1, 3, 5]
        let turn = { (queue: [UInt], me: UInt) in
            QueueProtocol.turn(ahead: QueueProtocol.ahead(of: me, in: queue)) { live.contains($0) ? Ticket(pid: 1, tag: nil) : nil }
        }
        #expect(turn([1, 2, 3, 4, 5], 5) == .waitFor(3))
        #expect(turn([1, 2, 4], 4) == .waitFor(1))
        #expect(turn([2, 4, 6, 5], 5) == .mine)
        #expect(turn([5], 5) == .mine)
        #expect(turn([1, 3], 5) == .missing)
    }

    @Test("Liveness is asked nearest first and no further than the first live ticket")
    func asksLittle() {
        var asked: [UInt] = []
        let turn = QueueProtocol.turn(ahead: QueueProtocol.ahead(of: 9, in: [1, 2, 3, 4, 9])) { entry in
            asked.append(entry)
            return entry == 3 ? Ticket(pid: 3, tag: nil) : nil
        }
        #expect(turn == .waitFor(3))
        #expect(asked == [4, 3])
    }

    static let tickets: [UInt: Ticket] = [
        1: Ticket(pid: 1, tag: nil), 2: Ticket(pid: 2, tag: "vol"), 3: Ticket(pid: 3, tag: "other"), 4: Ticket(pid: 4, tag: "vol"),
        6: Ticket(pid: 6, tag: nil), 8: Ticket(pid: 8, tag: "vol"),
    ]

    static func placement(_ queue: [UInt], tag: String? = "vol", shown: Set<UInt> = [], inherited: [UInt: [UInt]] = [:])
        -> QueueProtocol.Placement
    {
        QueueProtocol.placement(
            of: 7, tag: tag, in: queue, ticket: { tickets[$0] }, isShown: shown.contains, inherited: { inherited[$0] ?? [] })
    }

    @Test("A tagged toast takes the place of the waiting tickets with its tag, and inherits only tickets with the tag")
    func tagPlacement() {
        // 2 still had to replace 4 (still "vol"), 5 (gone) and 6 (an unrelated toast that got
        // a dead ticket's id).
        let plan = Self.placement([1, 2, 3, 8], inherited: [2: [4, 5, 6, 7, 2]])
        #expect(plan.queue == [1, 7, 3])
        #expect(plan.replaces == [2, 8, 4])
    }

    @Test("A shown ticket with the tag keeps its place until the new toast is drawn: the new one goes behind it")
    func behindTheShownOne() {
        let plan = Self.placement([2, 1, 8, 3], shown: [2])
        #expect(plan.queue == [2, 7, 1, 3])
        #expect(plan.replaces == [2, 8])
        // Its turn does not wait for the one it is to be drawn over.
        let turn = QueueProtocol.turn(
            ahead: QueueProtocol.ahead(of: 7, in: plan.queue), tag: "vol", replacing: Set(plan.replaces), ticket: { Self.tickets[$0] })
        #expect(turn == .mine)
        // Unless the id went to an unrelated toast meanwhile.
        let reused = QueueProtocol.turn(ahead: [2], tag: "vol", replacing: [2]) { _ in Ticket(pid: 9, tag: nil) }
        #expect(reused == .waitFor(2))
    }

    @Test("Without a live ticket with its tag, or without a tag, a toast goes at the end")
    func tagPlacementAtTheEnd() {
        for tag in ["new", nil] as [String?] {
            let plan = Self.placement([1, 5, 3], tag: tag, inherited: [1: [2]])
            #expect(plan.queue == [1, 5, 3, 7])
            #expect(plan.replaces.isEmpty)
        }
        // A dead ticket with the tag is no one to replace.
        #expect(Self.placement([5, 3]).replaces.isEmpty)
    }
}
