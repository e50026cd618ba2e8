import Testing

@testable import XToastCore

/// `xtoast --press [LABEL]`: which toast a press goes to, and what the toast makes of it.
@Suite("Press")
struct PressTests {
    static func ticket(_ pid: Int, buttons: [String] = [], pause: Ticket.PauseMark? = nil) -> Ticket {
        var ticket = Ticket(pid: pid, tag: nil, pause: pause)
        ticket.buttons = buttons
        return ticket
    }

    @Test func aPressGoesToTheToastOnScreenNotToOneWaitingBehindIt() {
        let queue = [(UInt(10), Self.ticket(1)), (UInt(11), Self.ticket(2))]
        #expect(Press.target(label: nil, queue: queue, stack: []) == Press.Target(entry: 10, argument: 0))
    }

    @Test func aToastStandingAsideForAPauseIsNotOnScreen() {
        let queue = [(UInt(10), Self.ticket(1, pause: .held)), (UInt(11), Self.ticket(2, pause: .through))]
        #expect(Press.target(label: nil, queue: queue, stack: []) == Press.Target(entry: 11, argument: 0))
    }

    @Test func aLabelPicksTheFirstToastOnScreenWithThatButtonAndItsPlaceFromOne() {
        let queue = [(UInt(10), Self.ticket(1, buttons: ["OK"])), (UInt(11), Self.ticket(2, buttons: ["Yes", "No"]))]
        let stack = [(UInt(20), Self.ticket(3, buttons: ["Snooze"])), (UInt(21), Self.ticket(4, buttons: ["Yes", "No"]))]
        #expect(Press.target(label: "OK", queue: queue, stack: stack) == Press.Target(entry: 10, argument: 1))
        // The second in the queue waits: not on screen.
        #expect(Press.target(label: "No", queue: queue, stack: stack) == Press.Target(entry: 21, argument: 2))
        #expect(Press.target(label: "Snooze", queue: [], stack: stack) == Press.Target(entry: 20, argument: 1))
        #expect(Press.target(label: "Maybe", queue: queue, stack: stack) == nil)
        #expect(Press.target(label: nil, queue: [], stack: []) == nil)
    }

    // MARK: --dismiss, --dismiss-all, --cancel-scheduled

    @Test func dismissClosesTheOldestToastOnScreenNotOneStandingAsideOrWaitingBehindIt() {
        let queue = [
            (UInt(10), Self.ticket(1, pause: .held)), (UInt(11), Self.ticket(2, pause: .aside)),
            (UInt(12), Self.ticket(3, pause: .through)),
            (UInt(13), Self.ticket(4)),
        ]
        #expect(Dismissal.onScreen.targets(in: queue, tag: nil) == [12])
        #expect(Dismissal.onScreen.targets(in: Array(queue.suffix(1)), tag: nil) == [13])
        #expect(Dismissal.onScreen.targets(in: Array(queue.prefix(2)), tag: nil) == [], "nothing on screen")
    }

    @Test func aTagClosesEveryToastWithItWhereverItIsAndNothingElse() {
        var tagged = Self.ticket(2, pause: .held)
        tagged.tag = "vol"
        var late = Self.ticket(4)
        late.tag = "vol"
        let tickets = [(UInt(10), Self.ticket(1)), (UInt(11), tagged), (UInt(12), Self.ticket(3)), (UInt(13), late)]
        for dismissal in [Dismissal.onScreen, .all, .scheduled] {
            #expect(dismissal.targets(in: tickets, tag: "vol") == [11, 13], "\(dismissal)")
            #expect(dismissal.targets(in: tickets, tag: "other") == [], "\(dismissal)")
        }
    }

    @Test func dismissAllAndCancelScheduledCloseEveryToastInTheirLists() {
        let tickets = [(UInt(10), Self.ticket(1, pause: .held)), (UInt(11), Self.ticket(2)), (UInt(12), Self.ticket(3))]
        #expect(Dismissal.all.targets(in: tickets, tag: nil) == [10, 11, 12])
        #expect(Dismissal.scheduled.targets(in: tickets, tag: nil) == [10, 11, 12])
    }

    @Test(arguments: [
        (Configuration.Mode.dismiss, Dismissal?.some(.onScreen), [QueueMember.List.queue, .stack]),
        (.dismissAll, .all, [.queue, .stack]), (.cancelScheduled, .scheduled, [.scheduled]), (.show, nil, []), (.press, nil, []),
    ])
    func eachModeLooksInItsLists(mode: Configuration.Mode, dismissal: Dismissal?, lists: [QueueMember.List]) {
        #expect(Dismissal(mode) == dismissal)
        #expect((dismissal?.lists ?? []) == lists)
    }

    @Test(arguments: [
        (0, 0, Outcome?.some(.clicked)), (0, 2, .clicked), (1, 2, .button(0)), (2, 2, .button(1)),
        (3, 2, nil), (1, 0, nil), (-1, 2, nil), (Int.max, 8, nil),
    ])
    func aPressIsTheClickItStandsForAndAButtonTheToastLacksIsIgnored(argument: Int, buttons: Int, outcome: Outcome?) {
        #expect(Press.click(argument: argument, buttons: buttons) == outcome)
        #expect(Press.event(.press, argument: argument, buttons: buttons) == outcome.map { .click($0) })
    }

    @Test func otherCommandsAreUnchanged() {
        #expect(Press.event(.dismiss, argument: 5, buttons: 0) == .remote(.dismiss))
        #expect(Press.event(.replaced, argument: 0, buttons: 0) == .remote(.replaced))
    }

    @Test func aPressedToastEndsAsAClickWouldAndOneWaitingIgnoresIt() throws {
        let content = ToastContent(message: "Delete?", buttons: ["Yes", "No"])
        var waiting = VirtualSession(SessionTests.plan(content: content))
        waiting.turn = .waitFor(3)
        waiting.send(.start)
        #expect(waiting.send(try #require(Press.event(.press, argument: 0, buttons: 2))).isEmpty, "nothing on screen to click")
        var showing = VirtualSession(SessionTests.plan(content: content))
        showing.send(.start)
        #expect(showing.send(try #require(Press.event(.press, argument: 2, buttons: 2))).contains(.finish(.button(1))))
        var body = VirtualSession(SessionTests.plan(content: content))
        body.send(.start)
        #expect(body.send(try #require(Press.event(.press, argument: 0, buttons: 2))).contains(.finish(.clicked)))
    }

    @Test func buttonsTravelOnTheTicketAndOnlyWhenAllCanBeReadBack() {
        var ticket = Ticket(pid: 5, tag: "t")
        ticket.buttons = Press.publishable(["Yes", "Not now"])
        #expect(Ticket(decoding: ticket.encoded) == ticket)
        #expect(Press.publishable(["Yes", String(repeating: "é", count: 200)]).isEmpty, "a label past the ticket's bound")
        #expect(Press.publishable(Array(repeating: "x", count: 9)).isEmpty)
        // Forged: more buttons than a toast can have, or a label with a control character.
        let forged = "v=1\npid=5\n" + String(repeating: "button=x\n", count: 9)
        #expect(Ticket(decoding: Array(forged.utf8)) == nil)
        #expect(Ticket(decoding: Array("v=1\npid=5\nbutton=a\u{7}b\n".utf8)) == nil)
    }
}
