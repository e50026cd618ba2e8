import Testing

@testable import XToastCore

/// A session machine on a virtual clock, with a stand-in for the X side: it answers each
/// question (`lookAtScreen`, `show`, `lookAtTurn`, `lookAtLock`, `lookAtFullscreen`, `lookAtIdle`,
/// `watchReturn`, `restack`) as `ToastSession` does, and records every effect. Nothing sleeps:
/// time is a number the test moves.
struct VirtualSession {
    /// The session, run in the interpreter's own order (`SessionDriver`).
    var driver: SessionDriver
    var session: Session {
        get { driver.session }
        // A test that hands events to the machine by hand, past the driver.
        set { driver = SessionDriver(newValue) }
    }
    var now = 0.0
    var effects: [Session.Effect] = []
    /// What the queue says when asked.
    var turn = QueueProtocol.Turn.mine
    /// Whether a fullscreen window covers the toast's monitors; the user's idle time, and
    /// whether the server has an idle alarm.
    var covered = false
    /// Whether a locker or the screen saver covers them (issue #22).
    var locked = false
    /// Set: the screen locks once this many looks at the lock have found it clear (a locker
    /// that maps between two looks).
    var lockAfterLooks: Int?
    /// A window that may be a locker's is up, with nobody holding the input (unless `locked`).
    var lockUndecided = false
    var idleSeconds: Double? = 0
    var idleAlarm = true
    /// What the screen is like when the toast shows.
    var screen = Session.Screen()
    /// How long a slide in the stack takes when asked to restack (nil: nothing moves).
    var slideDuration: Double? = 0.25
    /// Whether the keyboard can be had for a reply entry.
    var keyboardFree = true

    /// `motion`: the toast's, a linear 0.2 s fade unless said.
    init(_ plan: Session.Plan, motion: Motion = .fade(in: 0.2, out: 0.2, curve: .linear)) {
        var plan = plan
        plan.motion = motion
        driver = SessionDriver(Session(plan, frameInterval: 0.01))
    }

    /// Handles `event` at the current time, carries out what the X side would answer, in the
    /// interpreter's order, and returns the effects of this event alone.
    @discardableResult
    mutating func send(_ event: Session.Event) -> [Session.Effect] {
        var produced: [Session.Effect] = []
        driver.handle(event, at: now)
        while let effect = driver.next(at: now) {
            produced.append(effect)
            if effect == .lookAtLock, let looks = lockAfterLooks {
                if looks == 0 { locked = true } else { lockAfterLooks = looks - 1 }
            }
            driver.answer(answer(effect).map { [$0] } ?? [], at: now)
        }
        effects += produced
        return produced
    }

    /// The X side's answer to an effect, if it has one.
    private func answer(_ effect: Session.Effect) -> Session.Event? {
        switch effect {
        case .lookAtScreen: .screen(screen)
        case .show: .shown
        case .lookAtTurn: .turn(turn)
        case .lookAtFullscreen: .fullscreen(covered: covered)
        case .lookAtLock: .lock(locked ? .locked : lockUndecided ? .undecided : .clear)
        case .lookAtIdle: .idle(seconds: idleSeconds)
        case .watchReturn: idleAlarm ? nil : .noReturnAlarm
        case .restack: .sliding(until: slideDuration.map { now + $0 })
        case .takeKeyboard: .keyboard(taken: keyboardFree)
        default: nil
        }
    }

    /// Moves the clock to each deadline up to `time`, ticking there, then to `time` itself.
    @discardableResult
    mutating func advance(to time: Double) -> [Session.Effect] {
        var produced: [Session.Effect] = []
        var steps = 0
        while let deadline = session.deadline, deadline <= time, session.outcome == nil {
            steps += 1
            precondition(steps < 100_000, "the machine asks for ticks without end")
            now = max(now, deadline)
            produced += send(.tick)
        }
        guard session.outcome == nil else { return produced }
        now = max(now, time)
        produced += send(.tick)
        return produced
    }

    /// Runs until the session finishes or `limit` seconds have passed.
    mutating func runToEnd(limit: Double = 1000) -> Outcome? {
        advance(to: limit)
        return session.outcome
    }
}

extension Array where Element == Session.Effect {
    var shows: [ToastContent] {
        compactMap { if case .show(let content, _, _, _) = $0 { content } else { nil } }
    }
    /// The timelines the toasts were shown on.
    var timelines: [Timeline] {
        compactMap { if case .show(_, let timeline, _, _) = $0 { timeline } else { nil } }
    }
    var presents: [Appearance] {
        compactMap { if case .present(let appearance, _) = $0 { appearance } else { nil } }
    }
    var announces: Int { filter { if case .announce = $0 { true } else { false } }.count }
}

@Suite("Session machine")
struct SessionTests {
    static let message = ToastContent(message: "Tagged")
    static func plan(
        hold: Double = 1, delivery: Delivery = .now, stack: Bool = false, command: Session.CommandPlan? = nil,
        content: ToastContent = message
    ) -> Session.Plan {
        Session.Plan(
            // As the command line makes it: a `--run` toast stays until its command ends.
            content: content, duration: command == nil ? .seconds(hold) : .sticky, delivery: delivery, stack: stack, command: command,
            spinnerInterval: 0.05, spinnerPeriod: 1)
    }
    static let run = Session.CommandPlan(commandLine: "make -j4", grace: 0.5, resultHold: 2)

    // MARK: A plain toast

    @Test("Joins, shows at its turn, fades in, holds, fades out and expires on time")
    func plainToast() {
        var v = VirtualSession(Self.plan(hold: 1))
        let started = v.send(.start)
        #expect(started.prefix(3) == [.join, .queued, .lookAtTurn])
        #expect(started.shows == [Self.message])
        // The first frame is one frame in (opacity 0.05 of a linear 0.2 s fade), and announced.
        #expect(abs((started.presents.first?.opacity ?? 0) - 0.05) < 1e-9)
        #expect(started.announces == 1)
        #expect(v.session.deadline == 0.01)
        // Halfway through the fade, then fully shown while holding: no frames until the exit.
        v.advance(to: 0.1)
        #expect(abs((v.session.appearance(at: 0.1)?.opacity ?? 0) - 0.55) < 1e-9)
        v.advance(to: 0.3)
        #expect(v.session.deadline.map { abs($0 - 1.19) < 1e-9 } == true)
        let outcome = v.runToEnd()
        #expect(outcome == .expired)
        // 1.4 s of life at 100 frames a second while moving: 20 frames in, 20 out, none while
        // holding, and it ends at the end of its fade-out (1.4 s after time -0.01).
        #expect(v.effects.presents.count == 40)
        #expect(v.effects.announces == 1)
        #expect(abs(v.now - 1.39) < 1e-6)
        #expect(v.effects.last == .finish(.expired))
    }

    @Test("Without a compositor nothing fades: one frame, and the end when its time is up")
    func withoutACompositor() {
        var v = VirtualSession(Self.plan(hold: 1))
        v.screen.composited = false
        v.send(.start)
        #expect(v.effects.presents == [.shown])
        #expect(v.session.deadline.map { abs($0 - 1.39) < 1e-9 } == true)
        #expect(v.runToEnd() == .expired)
        #expect(v.effects.presents.count == 1)
    }

    @Test("A toast whose time is up at once is still drawn once and announced")
    func zeroDuration() {
        var v = VirtualSession(Self.plan(hold: 0), motion: .none)
        let effects = v.send(.start)
        #expect(effects.presents.count == 1)
        #expect(effects.announces == 1)
        #expect(effects.last == .finish(.expired))
    }

    @Test("A sticky toast sleeps after its entrance until something happens")
    func sticky() {
        var plan = Self.plan()
        plan.duration = .sticky
        var v = VirtualSession(plan)
        v.send(.start)
        v.advance(to: 5)
        #expect(v.session.deadline == nil)
        #expect(v.session.outcome == nil)
        #expect(v.send(.click(.clicked)) == [.finish(.clicked)])
    }

    @Test("Expose and a compositor's change draw a frame at once; covered raises")
    func redraws() {
        var v = VirtualSession(Self.plan(hold: 5))
        v.send(.start)
        v.advance(to: 1)
        #expect(v.session.deadline.map { $0 > 5 } == true)
        #expect(v.send(.exposed).presents == [.shown])
        #expect(v.send(.compositorChanged(composited: false)).presents == [.shown])
        #expect(v.send(.covered) == [.raise])
    }

    @Test("A screen reader hears the toast once, after its first frame, and not its updates")
    func speaksOnce() {
        var plan = Self.plan(hold: 3, content: ToastContent(message: "Volume", progress: Progress(percent: 10)))
        plan.speaks = true
        var v = VirtualSession(plan)
        let first = v.send(.start)
        let announce = first.firstIndex { if case .announce = $0 { true } else { false } }
        #expect(first.last == .speak(plan.content))
        #expect(announce.map { $0 < first.count - 1 } == true)
        v.advance(to: 1)
        v.send(.lines(["50"]))
        v.runToEnd()
        #expect(v.effects.filter { if case .speak = $0 { true } else { false } }.count == 1)
        // Off (`--no-announce`), never.
        var quiet = VirtualSession(Self.plan())
        quiet.send(.start)
        #expect(quiet.runToEnd() == .expired)
        #expect(!quiet.effects.contains { if case .speak = $0 { true } else { false } })
    }

    @Test("The pointer over the toast holds it, asleep; after it leaves, the rest of the hold but at least a second")
    func hover() {
        var v = VirtualSession(Self.plan(hold: 1))
        v.send(.start)
        v.advance(to: 0.5)
        v.send(.hover(.entered))
        v.advance(to: 60)
        #expect(v.session.outcome == nil)
        #expect(v.session.deadline == nil, "held, nothing is due")
        #expect(v.session.appearance(at: 60) == .shown)
        v.send(.hover(.left))
        // 0.29 s of hold were left: the minimum, 1 s, then the 0.2 s fade.
        #expect(v.runToEnd() == .expired)
        #expect(abs(v.now - 61.2) < 0.02)
    }

    @Test("A toast fading out comes back under the pointer, and a queued one behind it waits")
    func hoverComesBack() {
        var v = VirtualSession(Self.plan(hold: 1))
        v.send(.start)
        v.advance(to: 1.3)
        let fading = v.session.appearance(at: 1.3)?.opacity ?? 1
        #expect(fading < 0.6)
        v.send(.hover(.entered))
        v.advance(to: 5)
        #expect(v.session.appearance(at: 5) == .shown)
        #expect(v.session.showing != nil)
        // New content while the pointer is there (a `--stdin` line) stays held too.
        v.send(.lines(["Updated"]))
        v.advance(to: 30)
        #expect(v.session.showing != nil)
        // Before the first frame, or after the end, the pointer changes nothing.
        var waiting = VirtualSession(Self.plan())
        waiting.turn = .waitFor(4)
        waiting.send(.start)
        #expect(waiting.send(.hover(.entered)).isEmpty)
    }

    // MARK: The timeline the machine picks

    @Test(
        "The screen picks the timeline: no compositor or reduce motion, none; a tag taken over, the replacement",
        arguments: [
            (Session.Screen(composited: true), false, false),
            (Session.Screen(composited: false), true, false),
            (Session.Screen(composited: true, reducesMotion: true), true, false),
            (Session.Screen(composited: true, replacing: true), false, true),
            (Session.Screen(composited: false, replacing: true), true, true),
        ])
    func timelineFromTheScreen(screen: Session.Screen, motionless: Bool, replacing: Bool) {
        var v = VirtualSession(Self.plan(hold: 1))
        v.screen = screen
        let started = v.send(.start)
        let motion = replacing ? v.session.plan.replacement : v.session.plan.motion
        let expected = Timeline(motion: motion, hold: 1)
        #expect(started.timelines == [motionless ? expected.withoutMotion : expected])
        #expect(started.contains(.show(Self.message, started.timelines[0], composited: screen.composited, morph: false)))
        #expect(v.session.showing?.screen == screen)
    }

    @Test("An update shows as the toast did: moving from its box, and without motion where it had none")
    func updateKeepsTheScreen() {
        var v = VirtualSession(Self.plan(hold: 3, content: ToastContent(message: "Volume", progress: Progress(percent: 10))))
        v.screen.reducesMotion = true
        v.send(.start)
        v.advance(to: 1)
        let update = v.send(.lines(["50"]))
        #expect(!update.contains(.lookAtScreen), "an update asks the screen nothing")
        #expect(update.timelines == [Timeline(motion: v.session.plan.replacement, hold: 3).withoutMotion])
        // A compositor that stops is drawn without blending at once, and the next update too.
        var blended = VirtualSession(Self.plan(hold: 3, content: ToastContent(message: "Volume", progress: Progress(percent: 10))))
        blended.send(.start)
        #expect(blended.send(.compositorChanged(composited: false)).first == .blend(false))
        #expect(blended.send(.compositorChanged(composited: false)).isEmpty)
        #expect(blended.send(.lines(["60"])).contains { if case .show(_, _, false, true) = $0 { true } else { false } })
    }

    // MARK: Every timer is the machine's

    @Test("Without an idle alarm the machine looks at the idle time every second, and decides the user is back")
    func idlePolled() {
        var plan = Self.plan(hold: 2)
        plan.idleThreshold = 120
        var away = VirtualSession(plan)
        away.idleSeconds = 300
        away.idleAlarm = false
        away.send(.start)
        #expect(away.effects.contains(.watchReturn))
        #expect(away.session.showing?.away?.nextLook.map { abs($0 - 1) < 1e-9 } == true)
        // Still idle, longer: it looks again a second later, frozen.
        away.idleSeconds = 301
        away.advance(to: 0.99)
        #expect(away.advance(to: 1) == [.lookAtIdle])
        #expect(away.session.deadline.map { abs($0 - 2) < 1e-9 } == true)
        away.idleSeconds = 302
        away.advance(to: 2)
        #expect(away.session.appearance(at: 2) == .shown)
        // Input came: the idle time went down. Back: its whole 2 s hold, then the 0.2 s fade.
        away.idleSeconds = 0.4
        away.advance(to: 3)
        #expect(away.session.showing?.away == nil)
        #expect(away.runToEnd() == .expired)
        #expect(abs(away.now - 5.2) < 0.02)
        #expect(away.effects.filter { $0 == .lookAtIdle }.count == 4)
    }

    @Test("A stacked toast's slide is stepped on the machine's deadline, every frame until it ends")
    func slideDeadline() {
        var v = VirtualSession(Self.plan(hold: 5, stack: true))
        v.send(.start)
        v.advance(to: 1)
        #expect(v.session.deadline.map { $0 > 5 } == true, "holding: nothing due")
        #expect(v.send(.stackChanged) == [.restack, .slide])
        #expect(v.session.deadline.map { abs($0 - 1.01) < 1e-9 } == true)
        v.advance(to: 1.3)
        #expect(v.session.showing?.slide == nil)
        // One step at the start, then one a frame (0.01 s) for 0.25 s.
        #expect((26...27).contains(v.effects.filter { $0 == .slide }.count))
        #expect(v.session.deadline.map { $0 > 5 } == true)
        // Nothing moves: no steps.
        v.slideDuration = nil
        #expect(v.send(.stackChanged) == [.restack])
    }

    @Test("Click-through: the pointer's next look is on the machine's deadline while it moves")
    func pointerLookDeadline() {
        var v = VirtualSession(Self.plan(hold: 5))
        v.send(.start)
        v.advance(to: 1)
        #expect(v.send(.pointerMoves(true)).isEmpty)
        #expect(v.session.deadline.map { abs($0 - 1.1) < 1e-9 } == true)
        #expect(v.advance(to: 1.1) == [.lookAtPointer])
        #expect(v.session.deadline.map { $0 > 5 } == true, "looked: the answer says whether to look again")
        v.send(.pointerMoves(true))
        v.send(.pointerMoves(false))
        #expect(v.session.deadline.map { $0 > 5 } == true)
        // Before the toast shows, or after it ends, nothing is looked at.
        var waiting = VirtualSession(Self.plan())
        waiting.turn = .waitFor(2)
        waiting.send(.start)
        waiting.send(.pointerMoves(true))
        #expect(waiting.session.deadline == nil)
    }

    @Test("The deadline is the earliest of every timer: a spinner's frame, a slide's step, the pointer's and the idle time's looks")
    func deadlineCoversEveryTimer() {
        var plan = Self.plan(stack: true, command: Self.run, content: ToastContent(message: "Build", spinner: true))
        plan.idleThreshold = 60
        var v = VirtualSession(plan)
        v.idleSeconds = 100
        v.idleAlarm = false
        v.send(.start)
        v.advance(to: 0.5)
        v.advance(to: 2)
        // Only the spinner (every 0.05 s) and the idle look (a second after the first frame).
        let spinner = v.session.showing?.presentation.flatMap { p in p.nextFrame.map { p.start + $0 } }
        #expect(spinner.map { $0 > 2 && $0 <= 2.05 + 1e-9 } == true)
        #expect(v.session.deadline == spinner)
        // The pointer moves: its look at 2.1 is later than the spinner's next frame.
        v.now = 2.001
        v.send(.pointerMoves(true))
        #expect(v.session.deadline == spinner)
        // A slide: its first step at once, then at 2.011, before the spinner.
        v.send(.stackChanged)
        #expect(v.session.deadline.map { abs($0 - 2.011) < 1e-9 } == true)
        v.advance(to: 2.3)
        // Slid: the spinner and the looks again, each counted.
        let idleLook = v.session.showing?.away?.nextLook
        let pointerLook = v.session.showing?.nextPointerLook
        let frame = v.session.showing?.presentation.flatMap { p in p.nextFrame.map { p.start + $0 } }
        #expect(v.session.deadline == [idleLook, pointerLook, frame].compactMap { $0 }.min())
        #expect(v.effects.contains(.lookAtPointer))
        #expect(v.effects.contains(.lookAtIdle))
    }

    // MARK: Fullscreen and idle

    @Test("Over a film: show at once, drop, or delay until it ends (and nothing is asked for show)")
    func fullscreenPolicies() {
        var plan = Self.plan()
        var shown = VirtualSession(plan)
        shown.covered = true
        #expect(!shown.send(.start).contains(.lookAtFullscreen))
        #expect(shown.session.showing != nil)

        plan.fullscreen = .drop
        var dropped = VirtualSession(plan)
        dropped.covered = true
        #expect(dropped.send(.start).suffix(2) == [.lookAtFullscreen, .finish(.dropped)])
        #expect(dropped.effects.shows.isEmpty)

        plan.fullscreen = .delay
        var delayed = VirtualSession(plan)
        delayed.covered = true
        // It waits aside in its place, so that the toasts behind it are not held too.
        #expect(delayed.send(.start).suffix(3) == [.lookAtFullscreen, .standAsideInPlace, .watchFullscreen])
        delayed.advance(to: 600)
        #expect(delayed.session.phase == .waiting(.asideForFullscreen))
        #expect(delayed.send(.fullscreenChanged) == [.lookAtFullscreen, .watchFullscreen])
        #expect(delayed.send(.queueChanged).isEmpty, "standing aside, it does not look at its turn")
        delayed.covered = false
        // The film is over: it looks at its turn from its place (not joining again at the end).
        let back = delayed.send(.fullscreenChanged)
        #expect(back.prefix(2) == [.lookAtFullscreen, .lookAtTurn])
        #expect(!back.contains(.join))
        #expect(back.shows == [Self.message])
        #expect(delayed.runToEnd() == .expired)
        // A monitor that is not covered: shown without waiting.
        var clear = VirtualSession(plan)
        #expect(clear.send(.start).shows == [Self.message])
    }

    @Test("Away when it appears: held until the user is back, then what was left of its time")
    func idle() {
        var plan = Self.plan(hold: 2)
        plan.idleThreshold = 120
        var away = VirtualSession(plan)
        away.idleSeconds = 300
        let first = away.send(.start)
        #expect(first.contains(.lookAtIdle))
        #expect(first.contains(.watchReturn))
        away.advance(to: 3600)
        #expect(away.session.showing?.away != nil)
        #expect(away.session.deadline == nil)
        away.send(.userReturned)
        // Its whole 2 s hold was left, then the fade.
        #expect(away.runToEnd(limit: 10_000) == .expired)
        #expect(abs(away.now - 3602.2) < 0.02)

        var here = VirtualSession(plan)
        here.idleSeconds = 5
        here.send(.start)
        #expect(!here.effects.contains(.watchReturn))
        #expect(here.runToEnd() == .expired)
        #expect(here.now < 2.5)
        // The server cannot tell (no MIT-SCREEN-SAVER), or --idle 0: nothing waits.
        var unknown = VirtualSession(plan)
        unknown.idleSeconds = nil
        unknown.send(.start)
        #expect(unknown.runToEnd() == .expired)
        plan.idleThreshold = 0
        var off = VirtualSession(plan)
        off.idleSeconds = 300
        #expect(!off.send(.start).contains(.lookAtIdle))
    }

    @Test("The pointer and the away user both let go before the time runs again")
    func freezesTogether() {
        var plan = Self.plan(hold: 1)
        plan.idleThreshold = 60
        var v = VirtualSession(plan)
        v.idleSeconds = 100
        v.send(.start)
        v.send(.hover(.entered))
        v.send(.userReturned)
        v.advance(to: 100)
        #expect(v.session.showing?.pointerOver == true, "the pointer still freezes it")
        v.send(.hover(.left))
        #expect(v.runToEnd() == .expired)
        #expect(abs(v.now - 101.2) < 0.02)
    }

    // MARK: The queue

    @Test("Waiting: watches the ticket ahead, looks again when it changes, shows when it is its turn")
    func waitsForItsTurn() {
        var v = VirtualSession(Self.plan())
        v.turn = .waitFor(42)
        #expect(v.send(.start) == [.join, .queued, .lookAtTurn, .watch(42)])
        v.advance(to: 60)
        #expect(v.session.phase == .waiting(.forTurn))
        #expect(v.session.deadline == nil, "a waiter wakes only for events")
        v.turn = .waitFor(41)
        #expect(v.send(.queueChanged) == [.lookAtTurn, .watch(41)])
        v.turn = .mine
        #expect(v.send(.queueChanged).shows == [Self.message])
        #expect(v.runToEnd() == .expired)
    }

    @Test("Missing from the queue: joins again and looks at once")
    func missing() {
        var v = VirtualSession(Self.plan())
        v.turn = .missing
        let effects = v.session.handle(.start, at: 0) + v.session.handle(.turn(.missing), at: 0)
        #expect(effects == [.join, .queued, .lookAtTurn, .rejoin, .lookAtTurn])
        #expect(v.session.phase == .waiting(.forTurn))
    }

    @Test("Events for a phase it is not in change nothing")
    func strayEvents() {
        var v = VirtualSession(Self.plan())
        v.turn = .waitFor(7)
        v.send(.start)
        for event in [Session.Event.due, .zoneChanged, .stackChanged, .click(.clicked), .covered, .exposed, .tick] {
            #expect(v.send(event).isEmpty, "\(event)")
        }
        #expect(v.session.phase == .waiting(.forTurn))
    }

    @Test(
        "A command from another xtoast ends a toast wherever it waits or shows",
        arguments: [(RemoteCommand.dismiss, Outcome.dismissed), (.replaced, .replaced)])
    func remoteCommands(command: RemoteCommand, outcome: Outcome) {
        var waiting = VirtualSession(Self.plan())
        waiting.turn = .waitFor(3)
        waiting.send(.start)
        #expect(waiting.send(.remote(command)) == [.finish(outcome)])
        var showing = VirtualSession(Self.plan())
        showing.send(.start)
        #expect(showing.send(.remote(command)) == [.finish(outcome)])
        // Scheduled, anything sent to it cancels it (`--cancel-scheduled`).
        var scheduled = VirtualSession(Self.plan(delivery: .after(60)))
        scheduled.send(.start)
        #expect(scheduled.send(.remote(command)) == [.finish(.dismissed)])
    }

    @Test("A stacked toast shows at once (its look reads only the pause) and follows the stack")
    func stacked() {
        var v = VirtualSession(Self.plan(stack: true))
        let effects = v.send(.start)
        #expect(effects.prefix(3) == [.join, .queued, .lookAtTurn])
        #expect(effects.shows == [Self.message])
        #expect(v.send(.stackChanged) == [.restack, .slide])
    }

    @Test("A stacked toast stands aside while the toasts are paused, and shows when the pause ends")
    func stackedPaused() {
        var v = VirtualSession(Self.plan(stack: true))
        v.turn = .paused(until: nil)
        let effects = v.send(.start)
        #expect(effects.suffix(2) == [.lookAtTurn, .standAside(until: nil)])
        #expect(effects.shows.isEmpty)
        v.turn = .mine
        #expect(v.send(.pauseChanged).shows == [Self.message])
    }

    // MARK: Scheduling

    @Test("Scheduled: listed, told queued once, joins the queue when due")
    func scheduled() {
        var v = VirtualSession(Self.plan(delivery: .after(30)))
        #expect(v.send(.start) == [.schedule(.after(30)), .joinSchedule, .queued])
        v.advance(to: 29)
        #expect(v.session.phase == .scheduled)
        #expect(v.send(.zoneChanged) == [.reschedule])
        v.turn = .waitFor(5)
        #expect(v.send(.due) == [.leaveSchedule, .join, .lookAtTurn, .watch(5)])
    }

    @Test("A signal that comes with the due time wins: it never shows")
    func signalWithDue() {
        var v = VirtualSession(Self.plan(delivery: .after(1)))
        v.send(.start)
        // The X side hands signals over first in a batch.
        #expect(v.send(.signal(.terminate(15), from: .process)) == [.finish(.signalled(15))])
        #expect(v.send(.due).isEmpty)
        #expect(v.effects.shows.isEmpty)
    }

    // MARK: Standard input

    @Test("A burst of lines makes one update, to the newest value")
    func stdinBurst() {
        var v = VirtualSession(Self.plan(hold: 3, content: ToastContent(message: "Volume", progress: Progress(percent: 10))))
        v.send(.start)
        v.advance(to: 1)
        let effects = v.send(.lines(["20", "30", "", "40", "Muted"]))
        #expect(effects.shows.count == 1)
        #expect(effects.shows.first?.progress == Progress(percent: 40))
        #expect(effects.shows.first?.message == "Muted")
        // The update starts a new timeline: it holds its full time again from now.
        #expect(v.runToEnd() == .expired)
        #expect(v.now > 4.3)
        // Lines that change nothing make nothing.
        var same = VirtualSession(Self.plan(content: ToastContent(message: "Volume", progress: Progress(percent: 10))))
        same.send(.start)
        #expect(same.send(.lines(["10", "  "])).isEmpty)
    }

    @Test("Lines read while waiting change what will show, without showing it")
    func stdinWhileWaiting() {
        var v = VirtualSession(Self.plan(content: ToastContent(message: "Volume", progress: Progress(percent: 10))))
        v.turn = .waitFor(9)
        v.send(.start)
        #expect(v.send(.lines(["70"])).isEmpty)
        v.turn = .mine
        #expect(v.send(.queueChanged).shows.first?.progress == Progress(percent: 70))
    }

    // MARK: --run

    @Test("A quick success shows nothing at all")
    func runQuickSuccess() {
        var v = VirtualSession(Self.plan(command: Self.run))
        #expect(v.send(.start).isEmpty)
        #expect(v.session.deadline == 0.5)
        v.now = 0.2
        #expect(v.send(.commandEnded(status: 0)) == [.finish(.expired)])
        #expect(v.session.commandStatus == 0)
    }

    @Test("A quick failure shows its result, for the result's time")
    func runQuickFailure() {
        var v = VirtualSession(Self.plan(command: Self.run, content: ToastContent(message: "Build", spinner: true)))
        v.send(.start)
        v.now = 0.1
        let effects = v.send(.commandEnded(status: 2))
        #expect(effects.prefix(3) == [.join, .queued, .lookAtTurn])
        #expect(effects.shows.first?.icon == .error)
        #expect(effects.shows.first?.spinner == false)
        #expect(effects.shows.first?.message == "Build\nmake failed (exit 2)")
        #expect(v.runToEnd() == .expired)
        #expect(v.now > 2.4 && v.now < 2.6)
    }

    @Test("A long run shows the spinner after the grace, then its result in place")
    func runLong() {
        var v = VirtualSession(Self.plan(command: Self.run, content: ToastContent(message: "Build", spinner: true)))
        v.send(.start)
        v.advance(to: 0.49)
        #expect(v.effects.shows.isEmpty)
        v.advance(to: 0.5)
        #expect(v.effects.shows.map(\.spinner) == [true])
        // The spinner turns: frames keep coming while it holds.
        v.advance(to: 3)
        let framesWhileHolding = v.effects.presents.count
        #expect(framesWhileHolding > 40)
        #expect(v.session.deadline.map { $0 <= 3.05 } == true)
        let effects = v.send(.commandEnded(status: 0))
        #expect(effects.first == .show(effects.shows[0], effects.timelines[0], composited: true, morph: true))
        #expect(effects.timelines.first?.hold == 2)
        #expect(effects.shows.first?.icon == .success)
        #expect(v.runToEnd() == .expired)
    }

    @Test("SIGUSR1 in the grace: no toast for this run, and the command's end ends us")
    func dismissInGrace() {
        var v = VirtualSession(Self.plan(command: Self.run))
        v.send(.start)
        #expect(v.send(.signal(.dismiss, from: .process)) == [.hide, .leave])
        #expect(v.session.phase == .closedEarly(.dismissed))
        v.advance(to: 100)
        #expect(v.effects.shows.isEmpty)
        #expect(v.send(.commandEnded(status: 3)) == [.finish(.dismissed)])
        #expect(v.session.commandStatus == 3)
    }

    @Test("Closed while the command runs: the windows go at once, the end waits for the command")
    func closedEarly() {
        var v = VirtualSession(Self.plan(command: Self.run))
        v.send(.start)
        v.advance(to: 1)
        #expect(v.send(.click(.clicked)) == [.hide, .leave])
        #expect(v.session.deadline == nil)
        #expect(v.send(.click(.clicked)).isEmpty)
        #expect(v.send(.commandEnded(status: 0)) == [.finish(.clicked)])
    }

    @Test("kill to xtoast alone goes on to the command; its end ends us with the signal")
    func forwardedSignal() {
        var v = VirtualSession(Self.plan(command: Self.run))
        v.send(.start)
        v.advance(to: 1)
        #expect(v.send(.signal(.terminate(15), from: .process)) == [.forward(15)])
        #expect(v.session.outcome == nil)
        #expect(v.send(.commandEnded(status: 143)) == [.finish(.signalled(15))])
    }

    @Test("Ctrl-C reached the command too: not sent again, and no \"failed\" toast after it")
    func terminalSignal() {
        var v = VirtualSession(Self.plan(command: Self.run))
        v.send(.start)
        #expect(v.send(.signal(.terminate(2), from: .terminal)).isEmpty)
        #expect(v.send(.commandEnded(status: 130)) == [.finish(.signalled(2))])
        #expect(v.effects.shows.isEmpty)
    }

    // MARK: Signals, phase by phase

    /// The whole table: what each signal does in each phase, with and without a command running.
    @Test(
        "One table decides what a signal does",
        arguments: [
            (
                Session.Phase.grace(until: 1), true, Session.Signal.dismiss, Session.SignalSource.process,
                Session.SignalResponse.end(.dismissed)
            ),
            (.grace(until: 1), true, .terminate(15), .process, .forwardToCommand),
            (.grace(until: 1), true, .terminate(2), .terminal, .awaitCommand),
            (.scheduled, false, .dismiss, .process, .end(.dismissed)),
            (.scheduled, false, .terminate(15), .process, .end(.signalled(15))),
            (.scheduled, false, .terminate(2), .terminal, .end(.signalled(2))),
            (.waiting(.forTurn), false, .dismiss, .process, .end(.dismissed)),
            (.waiting(.standingAside(until: nil)), true, .terminate(1), .process, .forwardToCommand),
            (.showing(.init()), false, .terminate(3), .process, .end(.signalled(3))),
            (.showing(.init()), true, .dismiss, .process, .end(.dismissed)),
            (.showing(.init()), true, .terminate(2), .terminal, .awaitCommand),
            (.closedEarly(.clicked), true, .dismiss, .process, .ignore),
            (.closedEarly(.clicked), true, .terminate(15), .process, .forwardToCommand),
            (.finished(.expired), false, .terminate(15), .process, .ignore),
        ] as [(Session.Phase, Bool, Session.Signal, Session.SignalSource, Session.SignalResponse)])
    func signalTable(
        phase: Session.Phase, commandRunning: Bool, signal: Session.Signal, source: Session.SignalSource,
        expected: Session.SignalResponse
    ) {
        #expect(Session.response(to: signal, from: source, in: phase, commandRunning: commandRunning) == expected)
    }

    enum LifePhase: CaseIterable { case grace, scheduled, waiting, fadingIn, holding, fadingOut }

    /// The phase × fault matrix that once took a minute under Xvfb: each phase reached on the
    /// virtual clock, each signal sent there, and the outcome and what showed checked.
    @Test("Every signal in every phase ends as the table says", arguments: LifePhase.allCases)
    func signalMatrix(phase: LifePhase) {
        let signals: [(Session.Signal, Session.SignalSource)] = [
            (.dismiss, .process), (.terminate(15), .process), (.terminate(2), .terminal), (.terminate(1), .process),
        ]
        for (signal, source) in signals {
            var v = VirtualSession(
                Self.plan(
                    hold: 0.6, delivery: phase == .scheduled ? .after(1) : .now, command: phase == .grace ? Self.run : nil))
            if phase == .waiting { v.turn = .waitFor(8) }
            v.send(.start)
            let time: Double =
                switch phase {
                case .grace, .scheduled, .waiting: 0.1
                case .fadingIn: 0.1
                case .holding: 0.5
                case .fadingOut: 0.9
                }
            v.advance(to: time)
            let before = v.effects.shows.count
            v.send(.signal(signal, from: source))
            if phase == .grace, case .terminate(let number) = signal {
                // The command has it (sent on, or from the terminal); its end ends us.
                #expect(v.session.outcome == nil)
                #expect(v.effects.contains(.forward(number)) == (source == .process))
                v.send(.commandEnded(status: 128 + number))
            } else if phase == .grace {
                v.send(.commandEnded(status: 0))
            }
            let expected: Outcome
            if case .terminate(let number) = signal { expected = .signalled(number) } else { expected = .dismissed }
            #expect(v.session.outcome == expected, "\(phase) \(signal)")
            // Nothing shows after a signal, and a toast that had not shown never does.
            v.advance(to: 10)
            #expect(v.effects.shows.count == before)
        }
    }
}
