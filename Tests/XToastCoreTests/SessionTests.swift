import Testing

@testable import XToastCore

/// A session machine on a virtual clock, with a stand-in for the X side: it answers `show` with
/// `shown` and `lookAtTurn` with the queue's answer, as `ToastSession` does, and records every
/// effect. Nothing sleeps: time is a number the test moves.
struct VirtualSession {
    var session: Session
    var now = 0.0
    var effects: [Session.Effect] = []
    /// What the queue says when asked.
    var turn = QueueProtocol.Turn.mine
    /// Whether a fullscreen window covers the toast's monitors; the user's idle time.
    var covered = false
    var idleSeconds: Double? = 0
    /// Whether a compositor runs (the timeline of a toast shown without one has no motion).
    var composited = true
    var motion = Motion.fade(in: 0.2, out: 0.2, curve: .linear)

    init(_ plan: Session.Plan) { session = Session(plan, frameInterval: 0.01) }

    /// Handles `event` at the current time, carries out what the X side would answer, and
    /// returns the effects of this event alone.
    @discardableResult
    mutating func send(_ event: Session.Event) -> [Session.Effect] {
        var produced: [Session.Effect] = []
        var pending = [event]
        while !pending.isEmpty {
            let effects = session.handle(pending.removeFirst(), at: now)
            produced += effects
            for effect in effects {
                switch effect {
                case .show(let content, let duration, _):
                    let timeline = Timeline(motion: motion, hold: duration.hold(for: content.message))
                    pending.append(.shown(composited ? timeline : timeline.withoutMotion, composited: composited))
                case .lookAtTurn: pending.append(.turn(turn))
                case .lookAtFullscreen: pending.append(.fullscreen(covered: covered))
                case .lookAtIdle: pending.append(.idle(seconds: idleSeconds))
                default: break
                }
            }
        }
        effects += produced
        return produced
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
        compactMap { if case .show(let content, _, _) = $0 { content } else { nil } }
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
        v.composited = false
        v.send(.start)
        #expect(v.effects.presents == [.shown])
        #expect(v.session.deadline.map { abs($0 - 1.39) < 1e-9 } == true)
        #expect(v.runToEnd() == .expired)
        #expect(v.effects.presents.count == 1)
    }

    @Test("A toast whose time is up at once is still drawn once and announced")
    func zeroDuration() {
        var v = VirtualSession(Self.plan(hold: 0))
        v.motion = .none
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
        #expect(v.session.phase == .showing)
        // New content while the pointer is there (a `--stdin` line) stays held too.
        v.send(.lines(["Updated"]))
        v.advance(to: 30)
        #expect(v.session.phase == .showing)
        // Before the first frame, or after the end, the pointer changes nothing.
        var waiting = VirtualSession(Self.plan())
        waiting.turn = .waitFor(4)
        waiting.send(.start)
        #expect(waiting.send(.hover(.entered)).isEmpty)
    }

    // MARK: Fullscreen and idle

    @Test("Over a film: show at once, drop, or delay until it ends (and nothing is asked for show)")
    func fullscreenPolicies() {
        var plan = Self.plan()
        var shown = VirtualSession(plan)
        shown.covered = true
        #expect(!shown.send(.start).contains(.lookAtFullscreen))
        #expect(shown.session.phase == .showing)

        plan.fullscreen = .drop
        var dropped = VirtualSession(plan)
        dropped.covered = true
        #expect(dropped.send(.start).suffix(2) == [.lookAtFullscreen, .finish(.dropped)])
        #expect(dropped.effects.shows.isEmpty)

        plan.fullscreen = .delay
        var delayed = VirtualSession(plan)
        delayed.covered = true
        // It waits out of the queue, so that the toasts behind it are not held too.
        #expect(delayed.send(.start).suffix(3) == [.lookAtFullscreen, .leaveQueue, .watchFullscreen])
        delayed.advance(to: 600)
        #expect(delayed.session.phase == .waiting)
        #expect(delayed.send(.fullscreenChanged) == [.lookAtFullscreen, .watchFullscreen])
        #expect(delayed.send(.queueChanged).isEmpty, "out of the queue, it does not look at its turn")
        delayed.covered = false
        // The film is over: back at the end of the queue, and shown at its turn.
        let back = delayed.send(.fullscreenChanged)
        #expect(back.prefix(3) == [.lookAtFullscreen, .join, .lookAtTurn])
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
        #expect(away.session.phase == .showing)
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

    @Test("The pointer and the user's return both let go before the time runs again")
    func holdsTogether() {
        var plan = Self.plan(hold: 1)
        plan.idleThreshold = 60
        var v = VirtualSession(plan)
        v.idleSeconds = 100
        v.send(.start)
        v.send(.hover(.entered))
        v.send(.userReturned)
        v.advance(to: 100)
        #expect(v.session.phase == .showing, "the pointer still holds it")
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
        #expect(v.session.phase == .waiting)
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
        #expect(v.session.phase == .waiting)
    }

    @Test("Events for a phase it is not in change nothing")
    func strayEvents() {
        var v = VirtualSession(Self.plan())
        v.turn = .waitFor(7)
        v.send(.start)
        for event in [Session.Event.due, .zoneChanged, .stackChanged, .click(.clicked), .covered, .exposed, .tick] {
            #expect(v.send(event).isEmpty, "\(event)")
        }
        #expect(v.session.phase == .waiting)
    }

    @Test(
        "A command from another xtoast ends a toast wherever it waits or shows",
        arguments: [(Command.dismiss, Outcome.dismissed), (.replaced, .replaced)])
    func remoteCommands(command: Command, outcome: Outcome) {
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

    @Test("A stacked toast shows at once and follows the stack")
    func stacked() {
        var v = VirtualSession(Self.plan(stack: true))
        let effects = v.send(.start)
        #expect(effects.prefix(2) == [.join, .queued])
        #expect(effects.shows == [Self.message])
        #expect(!effects.contains(.lookAtTurn))
        #expect(v.send(.stackChanged) == [.restack])
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
        #expect(effects.first == .show(effects.shows[0], .seconds(2), morph: true))
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
            (.waiting, false, .dismiss, .process, .end(.dismissed)),
            (.waiting, true, .terminate(1), .process, .forwardToCommand),
            (.showing, false, .terminate(3), .process, .end(.signalled(3))),
            (.showing, true, .dismiss, .process, .end(.dismissed)),
            (.showing, true, .terminate(2), .terminal, .awaitCommand),
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
