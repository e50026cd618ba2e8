import Testing

@testable import XToastCore

/// `xtoast --list`: which state each ticket is in, and what is printed of it.
@Suite("Listing")
struct ListingTests {
    static func found(_ entry: UInt, pid: Int, tag: String? = nil, at: Int? = nil, pause: Ticket.PauseMark? = nil, shown: Bool = false)
        -> Listing.Found
    {
        let box = Rect(x: 10, y: 20, width: 30, height: 40)
        return (entry, Ticket(pid: pid, tag: tag, at: at, pause: pause), shown ? QueueMember.Shown(box: box, progress: nil) : nil)
    }

    @Test func everyLiveTicketIsListedOnceInItsState() {
        let tickets = [
            Self.found(1, pid: 101, shown: true), Self.found(2, pid: 102), Self.found(3, pid: 103, pause: .held),
            Self.found(4, pid: 104, shown: true), Self.found(5, pid: 105, at: 1_800_000_000), Self.found(6, pid: 106),
        ]
        // 9 names nothing live (a dead entry); 6 is in no list: a toast out of the queue.
        let toasts = Listing.toasts(queue: [9, 1, 2, 3, 1], stack: [4], scheduled: [5], tickets: tickets, paused: true)
        #expect(toasts.map(\.pid) == [101, 104, 102, 103, 106, 105])
        #expect(toasts.map(\.state) == [.showing, .showing, .waiting, .paused, .delayed, .scheduled])
        #expect(toasts[0].box == Rect(x: 10, y: 20, width: 30, height: 40))
        // A held mark read when no pause holds blocks as any ticket: it waits.
        let unpaused = Listing.toasts(queue: [1, 2, 3], stack: [], scheduled: [], tickets: tickets, paused: false)
        #expect(unpaused.filter { $0.state == .waiting }.map(\.pid) == [102, 103])
        #expect(Listing.counts(toasts).map(\.1) == [2, 1, 1, 1, 1])
    }

    @Test func aToastStandingAsideInItsPlaceIsDelayedPausedOrNot() {
        let tickets = [Self.found(1, pid: 101, shown: true), Self.found(2, pid: 102, pause: .aside), Self.found(3, pid: 103)]
        for paused in [false, true] {
            let toasts = Listing.toasts(queue: [1, 2, 3], stack: [], scheduled: [], tickets: tickets, paused: paused)
            #expect(toasts.map(\.state) == [.showing, .waiting, .delayed], "paused: \(paused)")
            #expect(toasts.map(\.pid) == [101, 103, 102])
        }
    }

    @Test func linesSayThePauseFirstAndOneToastEach() {
        var ticket = Ticket(pid: 7, tag: "volume")
        ticket.buttons = ["Yes", "No"]
        let toasts = Listing.toasts(
            queue: [1], stack: [], scheduled: [2],
            tickets: [
                (1, ticket, QueueMember.Shown(box: Rect(x: 0, y: 0, width: 9, height: 9), progress: nil)), Self.found(2, pid: 8, at: 60),
            ],
            paused: false)
        let time = { (seconds: Int) in "T\(seconds)" }
        #expect(
            Listing.lines(toasts, pause: Pause(end: 99), time: time) == [
                "paused until T99", "showing    pid 7  [volume]  buttons: Yes, No", "scheduled  pid 8  at T60",
            ])
        #expect(Listing.lines([], pause: Pause(end: nil), time: time) == ["paused until --resume"])
        #expect(Listing.lines([], pause: nil, time: time).isEmpty)
    }

    @Test func jsonStartsWithThePauseAndEscapesWhatTicketsSay() {
        let toasts = Listing.toasts(
            queue: [1], stack: [], scheduled: [], tickets: [Self.found(1, pid: 3, tag: "a\"b\\c\u{2028}")], paused: false)
        #expect(
            Listing.json(toasts, pause: nil) == [
                #"{"paused":false,"inhibited":false}"#,
                #"{"state":"waiting","pid":3,"tag":"a\"b\\c\u2028","due":null,"buttons":[],"x":null,"y":null,"width":null,"height":null,"title":null,"text":null}"#,
            ])
        #expect(Listing.json([], pause: Pause(end: nil)) == [#"{"paused":true,"until":null,"inhibited":false}"#])
        #expect(Listing.json([], pause: Pause(end: 5)) == [#"{"paused":true,"until":5,"inhibited":false}"#])
    }

    @Test func whatEachSaysFollowsItsTagEscapedAndCut() {
        let said = Listing.Said(title: "<b>Build</b>", message: "done &amp; \u{1E}green\nall", markup: true)
        #expect(said.title == "Build" && said.text == "done & green\nall")
        #expect(Listing.Said(decoding: said.encoded) == said)
        let toasts = Listing.toasts(
            queue: [1], stack: [], scheduled: [], tickets: [Self.found(1, pid: 3, tag: "ci")], paused: false, said: [1: said])
        #expect(Listing.lines(toasts, pause: nil) { "\($0)" } == ["waiting    pid 3  [ci]  Build: done & green all"])
        #expect(Listing.json(toasts, pause: nil).last?.hasSuffix(#""title":"Build","text":"done & green\nall"}"#) == true)
        // What another client wrote: read bounded, or not at all.
        #expect(Listing.Said(decoding: Array("no separator".utf8)) == nil)
        #expect(Listing.Said(decoding: [UInt8](repeating: 0x41, count: Listing.Said.byteLimit + 1)) == nil)
        #expect(Listing.Said(decoding: [0x1E, 0xFF]) == nil)
        let long = Listing.Said(title: nil, message: String(repeating: "x", count: 10_000), markup: false)
        #expect(long.text.count == 400 && long.title == nil)
    }
}
