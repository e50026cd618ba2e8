import Testing

@testable import XToastCore

/// A stacked toast (`--stack`) takes no turn in the queue, but a pause holds it as it holds the
/// queue: its look reads only the pause.
@Suite("Stacked toasts and pauses")
struct StackPauseTests {
    static func stacked(urgent: Bool = false) -> QueueMember {
        var member = QueueMember(me: 7, ticket: Ticket(pid: 1, tag: nil, stack: .bottom), urgent: urgent)
        _ = member.join(.stack)
        _ = member.answer(.appended(failed: false))
        return member
    }

    @Test("Without a pause it shows at once, listening to nothing")
    func noPause() {
        var member = Self.stacked()
        #expect(member.lookAtTurn(now: 1000) == QueueMember.Step([], .ask(.queueAndPause)))
        #expect(member.answer(.queueAndPause(queue: [3], pause: nil)) == QueueMember.Step([], .turn(.mine)))
    }

    @Test("Paused: it listens for the pause to change, reads it again, and stands aside")
    func paused() {
        var member = Self.stacked()
        _ = member.lookAtTurn(now: 1000)
        #expect(member.answer(.queueAndPause(queue: [], pause: [0])) == QueueMember.Step([.listenToPause], .ask(.queueAndPause)))
        #expect(member.answer(.queueAndPause(queue: [], pause: [0])) == QueueMember.Step([], .turn(.paused(until: nil))))
        let held = member.standAside()
        #expect(member.ticket.pause == .held && held == [.ticket(member.ticket)])
        // Resumed: the mark goes before it looks, and it shows.
        let look = member.lookAtTurn(now: 1001)
        #expect(look.writes.count == 1 && member.ticket.pause == nil)
        #expect(member.answer(.queueAndPause(queue: [], pause: nil)) == QueueMember.Step([], .turn(.mine)))
    }

    @Test("Urgent, it goes through the pause")
    func urgent() {
        var member = Self.stacked(urgent: true)
        _ = member.lookAtTurn(now: 1000)
        #expect(member.answer(.queueAndPause(queue: [], pause: [0])) == QueueMember.Step([], .turn(.mine)))
    }
}
