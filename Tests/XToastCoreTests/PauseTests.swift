import Testing

@testable import XToastCore

/// Do not disturb: the root's `_XTOAST_PAUSED` as read and written, the ticket's mark, the
/// queue's rule, and the session machine standing aside on a virtual clock.
@Suite("Pause")
struct PauseTests {
    static let now = 1_800_000_000.0

    @Test(
        "What _XTOAST_PAUSED says",
        arguments: [
            (nil, nil), ([0], Pause(end: nil)), ([1_800_000_060], Pause(end: 1_800_000_060)),
            // Over, garbage, or further ahead than any --pause sets: not paused.
            ([1_800_000_000], nil), ([1_799_999_000], nil), ([], nil), ([0, 0], nil), ([1_800_000_060, 5], nil),
            ([UInt(UInt32.max) + 1], nil), ([UInt.max], nil), ([1_800_000_000 + 367 * 86_400 + 86_400], nil),
        ] as [([UInt]?, Pause?)])
    func reading(values: [UInt]?, expected: Pause?) {
        #expect(Pause.reading(values, now: Self.now) == expected)
    }

    @Test func writtenAndReadBack() {
        let timed = Pause(length: 90, from: Self.now + 0.25)
        #expect(timed.end == 1_800_000_091)
        #expect(Pause.reading(timed.encoded, now: Self.now) == timed)
        #expect(Pause.reading(Pause(length: nil, from: Self.now).encoded, now: Self.now) == Pause(end: nil))
        // A year is the longest, and still reads as paused.
        let year = Pause(length: Pause.maximumLength, from: Self.now)
        #expect(Pause.reading(year.encoded, now: Self.now) == year)
    }

    @Test(
        "The length after --pause",
        arguments: [([], nil), (["1h"], 3600), (["1h", "30m"], 5400), (["90"], 90), (["1500ms"], 1.5)]
            as [([String], Double?)])
    func length(words: [String], expected: Double?) throws {
        #expect(try Pause.length(words: words) == expected)
    }

    @Test(arguments: [["0"], ["soon"], ["-5m"], ["400d"], ["1h", "later"]])
    func badLength(words: [String]) {
        #expect(throws: OptionError.self) { try Pause.length(words: words) }
    }

    @Test func ticketMarks() throws {
        for mark in [Ticket.PauseMark.held, .through] {
            let ticket = Ticket(pid: 7, tag: "vol", pause: mark)
            #expect(Ticket(decoding: ticket.encoded) == ticket)
        }
        // A ticket without the key (an older xtoast) has no mark; an unknown word is none.
        #expect(try #require(Ticket(decoding: Array("v=1\npid=3\n".utf8))).pause == nil)
        #expect(try #require(Ticket(decoding: Array("v=1\npid=3\npause=napping\n".utf8))).pause == nil)
    }

    static let paused = Pause(end: nil)

    static func info(_ mark: Ticket.PauseMark? = nil, tag: String? = nil) -> Ticket { Ticket(pid: 1, tag: tag, pause: mark) }

    @Test func heldTicketsArePassedOnlyWhilePaused() {
        let held: (UInt) -> Ticket? = { _ in Self.info(.held) }
        // Paused: everyone passes the held ones; an urgent toast shows, the others stand aside.
        #expect(QueueProtocol.turn(ahead: [2, 1], pause: Self.paused, through: true, ticket: held) == .mine)
        #expect(QueueProtocol.turn(ahead: [2, 1], pause: Self.paused, ticket: held) == .paused(until: nil))
        #expect(QueueProtocol.turn(ahead: [], pause: Pause(end: 99), ticket: held) == .paused(until: 99))
        // Not paused (any more): a held mark blocks as any live ticket, so the held go in order.
        #expect(QueueProtocol.turn(ahead: [2, 1], ticket: held) == .waitFor(2))
        #expect(QueueProtocol.turn(ahead: [2, 1], through: true, ticket: held) == .waitFor(2))
        // A ticket that is not held blocks, paused or not, urgent or not.
        let plain: (UInt) -> Ticket? = { $0 == 2 ? Self.info(.held) : Self.info(nil) }
        #expect(QueueProtocol.turn(ahead: [2, 1], pause: Self.paused, through: true, ticket: plain) == .waitFor(1))
        let through: (UInt) -> Ticket? = { _ in Self.info(.through) }
        #expect(QueueProtocol.turn(ahead: [2], pause: Self.paused, through: true, ticket: through) == .waitFor(2))
    }

    @Test func lookingBehind() {
        let marks: [UInt: Ticket.PauseMark?] = [4: nil, 5: .held, 6: .through, 7: .through]
        #expect(QueueProtocol.behind(of: 3, in: [1, 3, 4, 5, 6, 7]) == [4, 5, 6, 7])
        #expect(QueueProtocol.behind(of: 9, in: [1, 3]) == [])
        #expect(QueueProtocol.firstThrough(behind: [4, 5, 6, 7]) { marks[$0].map { Self.info($0) } } == 6)
        #expect(QueueProtocol.firstThrough(behind: [4, 5]) { marks[$0].map { Self.info($0) } } == nil)
        // A dead ticket is no one to wait for.
        #expect(QueueProtocol.firstThrough(behind: [6]) { _ in nil } == nil)
    }

    @Test func aTurnReadOnAStaleQueueIsLookedAtAgain() {
        #expect(QueueProtocol.stillHolds(.mine, ahead: [1, 2], latest: [2]))
        // A toast with a tag went ahead of us meanwhile.
        #expect(!QueueProtocol.stillHolds(.mine, ahead: [1, 2], latest: [9, 2]))
        #expect(!QueueProtocol.stillHolds(.paused(until: nil), ahead: [1], latest: [9]))
        #expect(QueueProtocol.stillHolds(.waitFor(2), ahead: [1, 2], latest: [2]))
        // The id we would wait for is a new client's now, behind us.
        #expect(!QueueProtocol.stillHolds(.waitFor(2), ahead: [2], latest: []))
        #expect(!QueueProtocol.stillHolds(.mine, ahead: [], latest: nil))
    }

    @Test func placementAheadOfOthersLooksBehind() {
        let tags: [UInt: Ticket] = [1: Self.info(.through, tag: "vol"), 2: Self.info(), 3: Self.info(.held, tag: "vol"), 4: Self.info()]
        // Behind a shown toast with the tag, ahead of the others: it looks behind, and takes
        // over the shown one's way through the pause.
        let shown = QueueProtocol.placement(
            of: 9, tag: "vol", in: [1, 2], ticket: { tags[$0] }, isShown: { $0 == 1 }, inherited: { _ in [] })
        #expect(shown.queue == [1, 9, 2])
        #expect(shown.checksBehind && shown.inheritsThrough)
        // In the place of a held one, with one behind.
        let held = QueueProtocol.placement(
            of: 9, tag: "vol", in: [3, 4], ticket: { tags[$0] }, isShown: { _ in false }, inherited: { _ in [] })
        #expect(held.queue == [9, 4])
        #expect(held.checksBehind && !held.inheritsThrough)
        // At the end: nobody behind.
        let last = QueueProtocol.placement(
            of: 9, tag: "vol", in: [2, 4], ticket: { tags[$0] }, isShown: { _ in false }, inherited: { _ in [] })
        #expect(!last.checksBehind)
    }

    @Test(
        "Who goes through a pause",
        arguments: [
            ([], false), (["--progress", "40"], true), (["--tag", "volume"], true), (["--preset", "critical"], true),
            (["--preset", "hud"], true), (["--preset", "alert"], false), (["--urgent"], true), (["--tag", "v", "--urgent=false"], false),
        ])
    func goesThrough(arguments: [String], expected: Bool) throws {
        var builder = ConfigurationBuilder()
        let parsed = try CommandLineParser.parse(arguments)
        builder.apply(builtInPreset: parsed.options.first { $0.definition.name == "preset" }?.value ?? "toast")
        try builder.apply(commandLine: parsed.options)
        #expect(builder.configuration.goesThroughPause == expected)
    }

    @Test func pauseAndResumeAreCommands() throws {
        #expect(try CommandLineParser.parse(["--pause"]).options.count == 1)
        var config = Configuration()
        #expect(throws: OptionError.self) {
            try OptionTable.setMode(&config, .pause)
            try OptionTable.setMode(&config, .resume)
        }
        config = Configuration()
        #expect(throws: OptionError.self) {
            try OptionTable.setMode(&config, .dismissAll)
            try OptionTable.setMode(&config, .pause)
        }
    }
}

/// The session machine meets a pause.
@Suite("Session machine, paused")
struct SessionPauseTests {
    static let plan = Session.Plan(content: ToastContent(message: "Later"), duration: .seconds(1))

    @Test func standsAsideThenShowsWhenThePauseEnds() {
        var toast = VirtualSession(Self.plan)
        toast.turn = .paused(until: 1_800_000_060)
        let effects = toast.send(.start)
        #expect(effects == [.join, .queued, .lookAtTurn, .standAside(until: 1_800_000_060)])
        // Standing aside costs no ticks.
        #expect(toast.session.deadline == nil)
        #expect(toast.session.phase == .waiting(.standingAside(until: 1_800_000_060)))
        // The pause changes but still holds: it looks, and stands aside again.
        toast.now = 30
        toast.turn = .paused(until: nil)
        #expect(toast.send(.pauseChanged) == [.lookAtTurn, .standAside(until: nil)])
        toast.now = 60
        toast.turn = .mine
        let shown = toast.send(.pauseChanged)
        #expect(shown.first == .lookAtTurn)
        #expect(shown.shows == [ToastContent(message: "Later")])
        #expect(toast.runToEnd() == .expired)
    }

    @Test func aPauseChangeMeansNothingUnlessStandingAside() {
        var toast = VirtualSession(Self.plan)
        toast.turn = .waitFor(5)
        toast.send(.start)
        #expect(toast.send(.pauseChanged) == [])
        toast.turn = .mine
        toast.send(.queueChanged)
        #expect(toast.session.showing != nil)
        #expect(toast.send(.pauseChanged) == [])
        // Once it waits for another ticket again, a pause change is not its business.
        var other = VirtualSession(Self.plan)
        other.turn = .paused(until: nil)
        other.send(.start)
        other.turn = .waitFor(9)
        #expect(other.send(.pauseChanged) == [.lookAtTurn, .watch(9)])
        #expect(other.send(.pauseChanged) == [])
    }

    /// A ticket behind that went past it, not drawn yet: watched, and looked at again at the
    /// grace's end, by the clock, whatever it does.
    @Test func aPasserNotYetDrawnIsWaitedForUntilTheGraceEnds() {
        var toast = VirtualSession(Self.plan)
        toast.turn = .paused(until: nil)
        toast.send(.start)
        toast.turn = .waitForPasser(7, until: 1005)
        #expect(toast.send(.pauseChanged) == [.lookAtTurn, .watch(7), .lookAgain(at: 1005)])
        #expect(toast.session.phase == .waiting(.forPasser(until: 1005)))
        toast.turn = .mine
        let shown = toast.send(.pauseChanged)
        #expect(shown.first == .lookAtTurn)
        #expect(shown.shows == [ToastContent(message: "Later")])
    }

    @Test(
        "Standing aside, it still answers signals and commands",
        arguments: [
            (Session.Event.signal(.dismiss, from: .process), Outcome.dismissed),
            (.signal(.terminate(15), from: .process), .signalled(15)), (.remote(.replaced), .replaced), (.remote(.dismiss), .dismissed),
        ])
    func endsWhileStandingAside(event: Session.Event, outcome: Outcome) {
        var toast = VirtualSession(Self.plan)
        toast.turn = .paused(until: nil)
        toast.send(.start)
        #expect(toast.send(event) == [.finish(outcome)])
        #expect(toast.send(.pauseChanged) == [])
    }

    @Test func aScheduledToastDueDuringAPauseStandsAside() {
        var toast = VirtualSession(Session.Plan(content: ToastContent(message: "Tea"), duration: .seconds(1), delivery: .after(60)))
        toast.turn = .paused(until: 1_800_000_600)
        toast.send(.start)
        #expect(toast.session.phase == .scheduled)
        #expect(toast.send(.due) == [.leaveSchedule, .join, .lookAtTurn, .standAside(until: 1_800_000_600)])
    }

    @Test("An inhibition holds as a pause until it ends; a pause of its own says when to look again")
    func inhibitionIsAPause() {
        let now = 1_000_000.0
        #expect(Pause.values(nil, inhibited: false, now: now) == nil)
        #expect(Pause.reading(Pause.values(nil, inhibited: true, now: now), now: now) == Pause(end: nil))
        #expect(Pause.values([1_000_600], inhibited: true, now: now) == [1_000_600])
        // Garbage or a pause that ended: the inhibition still holds.
        #expect(Pause.values([7, 8], inhibited: true, now: now) == [0])
        #expect(Pause.values([999_000], inhibited: true, now: now) == [0])
        #expect(Pause.values([999_000], inhibited: false, now: now) == [999_000])
    }
}
