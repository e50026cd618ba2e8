import CX11
import XToastCore
import XToastRender
import XToastSystem

/// Shows one toast on an X display: waits for its turn, then runs it to its end.
///
/// It decides nothing: every source of news (X events, the pointer's watch, signals, timers,
/// standard input, the `--run` command) becomes one of the session's events and goes through
/// one funnel, `feed(_:)`, which hands it to the session and carries out the effects it
/// returns. The only timer it arms is the session's `deadline`.
public final class ToastSession {
    let request: ToastRequest
    let display: XDisplay
    let wakeups: Wakeups
    let queue: QueueStore
    let warn: (String) -> Void
    /// The machine this carries out, and the order it is run in.
    var driver: SessionDriver
    var session: Session { driver.session }
    /// What the server said of the screen at start, until something makes it stale (a wait, a
    /// watch, the first show); what `lookAtScreen` looked at, for the `show` that follows.
    var view: Freshness<StartingView>
    var compositorEvent: Int32?
    /// What it follows, each started once: the compositor (after the first frame), the
    /// pointer (pause on hover), the windows on top (`watchFullscreen`).
    var watches: Set<Watch> = []
    /// Seconds between frames on each monitor, once asked (the session hears the toast's).
    var frameIntervals: [Rect: Double] = [:]
    /// Where the pointer is, for pause on hover; started after the first frame.
    let pointer: PointerWatch
    /// The windows on top of each monitor (`--fullscreen`), asked only when the policy is not
    /// `show`; and the user's idle time (`--idle`), asked after the first frame.
    let fullscreenWatch: FullscreenWatch
    let idleWatch: IdleWatch
    /// Whether a locker or blanker covers the toast's monitors (asked before every show).
    let lockWatch: LockWatch
    /// Standard input, with `--stdin`.
    var input: LineReader?
    /// Called once our place is on the server (`--detach`).
    var queued: (() -> Void)?
    /// The windows on screen.
    var showing: WindowSet?
    /// The toast being replaced by a new one, kept until the new one is drawn over it.
    var retiring: WindowSet?
    /// The keyboard, while the reply entry is open.
    var replyKeyboard: ReplyKeyboard?
    /// Work asked for by a batch of events, done once after it (`finishBatch`).
    var pending: Set<Pending> = []

    enum Watch: Hashable { case compositor, pointer, fullscreen }
    enum Pending: Hashable { case lookAtTurn, restack }

    /// How the `--run` command ended, once it has.
    public var commandStatus: Int32? { session.commandStatus }
    /// The X server time of the last click on the toast (the one that ended it, when a click
    /// did): an application a notification's action activates gets it (`NotificationChild`).
    public private(set) var clickTime: UInt32?
    /// When its first frame went out (wall clock, seconds since 1970); nil if it never showed.
    public internal(set) var shownAt: Double?
    /// What it says now (after `--stdin` lines and a `--run` command's end): the history's entry.
    public var content: ToastContent { session.content }
    /// What the command line asked to show (a summary after quiet shows something else).
    public var plannedContent: ToastContent { session.plan.content }

    /// Connects and checks what can be checked before waiting (the monitor choice); nothing is
    /// queued or shown until `run`.
    public init(_ request: ToastRequest, display: XDisplay, wakeups: Wakeups, warn: @escaping (String) -> Void) throws(X11Error) {
        var request = request
        self.wakeups = wakeups
        self.warn = warn
        self.display = display
        // Checked now, so that an unknown monitor is an error at once; kept for a toast whose turn
        // comes at once, so that the start-up path asks the server only once. The compositor and
        // the XSETTINGS manager are asked first, so that their answers come with the monitors.
        let compositor = display.askOwner(of: display.atoms.compositorSelection)
        let settingsManager = request.followsReducedMotion ? display.askOwner(of: display.atoms.xsettingsSelection) : nil
        fullscreenWatch = FullscreenWatch(display: display)
        // Whether a film covers the monitor, when that matters, travels with the monitors too.
        let rootQuestions = request.fullscreen != .show ? fullscreenWatch.askRoot() : nil
        let targets: [Monitor]
        let panels: PendingPanels
        do throws(X11Error) {
            (targets, panels) = try Self.monitors(for: request.monitor, on: display)
        } catch {
            // Core decides (`UnknownMonitorError.fallback`): an error, or the default monitor.
            guard case .unknownMonitor(let missing) = error, let fallback = missing.fallback(from: request.monitorOrigin) else {
                throw error
            }
            request.monitor = fallback.monitor
            warn(fallback.warning)
            (targets, panels) = try Self.monitors(for: request.monitor, on: display)
        }
        self.request = request
        driver = SessionDriver(Self.makeSession(for: request))
        pointer = PointerWatch(display: display, clickThrough: request.clickThrough)
        idleWatch = IdleWatch(display: display)
        lockWatch = LockWatch(display: display)
        view = Freshness(
            asked: StartingView(
                targets: targets, panels: panels, composited: display.owner(compositor) != 0,
                settingsManager: settingsManager.map(display.owner), fullscreen: rootQuestions))
        let at: Int?
        switch request.delivery {
        case .at(let instant): at = Int(instant)
        case .after(let seconds): at = Int(Clock.wall() + seconds)
        case .now: at = nil
        }
        queue = QueueStore(
            display: display, tag: request.tag, at: at, stack: request.stack ? request.style.position : nil,
            buttons: request.content.buttons, urgent: request.urgent, away: request.away,
            said: Listing.Said(title: request.content.title, message: request.content.message, markup: request.content.markup), warn: warn)
    }

    /// Frames per second when RandR does not know the monitor's refresh rate.
    static let fallbackRefreshRate = 60.0

    /// The session machine this interpreter carries out, for the plan the request makes.
    private static func makeSession(for request: ToastRequest) -> Session {
        let command = request.command.map {
            Session.CommandPlan(commandLine: $0.commandLine, grace: $0.grace, resultHold: $0.resultHold)
        }
        let style = request.style
        let plan = Session.Plan(
            content: request.content, duration: request.duration, delivery: request.delivery, stack: request.stack, command: command,
            spinnerInterval: 1 / style.spinnerFrameRate, spinnerPeriod: style.spinnerPeriod, speaks: request.announce,
            hoverMinimumHold: style.hoverMinimumHold, fullscreen: request.fullscreen, idleThreshold: request.idleThreshold,
            motion: style.motion, replacement: style.replacementMotion)
        return Session(plan, frameInterval: 1 / Self.fallbackRefreshRate)
    }

    /// Joins the queue, calls `queued` (where `--detach` detaches), waits for the turn,
    /// shows the toast and returns how it ended.
    public func run(queued: (() -> Void)? = nil) throws(X11Error) -> Outcome {
        // Nobody follows the root's lists: a queued toast waits for the ticket ahead of it
        // (`QueueStore.turn`), a stacked one for the boxes placed before it
        // (`QueueStore.affectsStack`).
        defer { queue.leave() }
        self.queued = queued
        input = request.followStandardInput ? LineReader(descriptor: 0) : nil
        try feed(.start)
        while session.outcome == nil {
            if let showing { pointer.boxes = showing.windows.map(\.currentBox) }
            try drainEvents()
            try feed(.tick)
            try finishBatch()
            guard session.outcome == nil else { break }
            showing?.followPanels { box in announceMove(of: box) }
            // The one timer: everything the session waits for is in its deadline.
            wakeups.arm(at: session.deadline)
            XFlush(display.pointer)
            if XEventsQueued(display.pointer, QueuedAlready) > 0 { continue }
            try sleep()
        }
        // The windows go before the ticket leaves the queue: the next toast never overlaps.
        replyKeyboard?.release()
        showing = nil
        retiring = nil
        XFlush(display.pointer)
        return session.outcome!
    }

    /// The one way into the machine: hands `event` to the session, now, and carries out the
    /// effects it returns, with the answers to its questions, in the driver's order.
    func feed(_ event: Session.Event) throws(X11Error) {
        driver.handle(event, at: Clock.monotonic())
        while let effect = driver.next(at: Clock.monotonic()) {
            driver.answer(try carryOut(effect), at: Clock.monotonic())
        }
    }

    /// Feeds everything Xlib has queued or can read, before deciding anything: a reply read by
    /// some other call may have brought events along that poll would not see.
    private func drainEvents() throws(X11Error) {
        var event = XEvent()
        while XPending(display.pointer) > 0 && session.outcome == nil {
            XNextEvent(display.pointer, &event)
            // The pointer's crossings (or raw motion) are not the windows' own business.
            let wasFollowing = pointer.isFollowing
            if let change = pointer.handle(&event) { try feed(.hover(change)) }
            if pointer.isFollowing != wasFollowing { try feed(.pointerMoves(pointer.isFollowing)) }
            guard let translated = translate(&event) else { continue }
            // A change a watch reports is newer than any view asked before it, even one read
            // before the process could sleep: the look it brings asks again. (Kept, the view of
            // a locker's last look said "locked" after the unlock, and the toast waited for ever.)
            if translated == .lockChanged || translated == .fullscreenChanged { view.expire() }
            try feed(translated)
        }
    }

    /// What a batch of events asked for once: the turn looked at however many asked, the stack
    /// read once. A look waits while events are queued: one that came in during the last look
    /// (a `replaced` command, the end of the ticket waited for) is read before looking again,
    /// as `QueueWorld` runs it.
    private func finishBatch() throws(X11Error) {
        while pending.contains(.lookAtTurn) && session.outcome == nil && XEventsQueued(display.pointer, QueuedAlready) == 0 {
            pending.remove(.lookAtTurn)
            let turn = queue.turn()
            for command in commandsQueued() { try feed(command) }
            if session.outcome == nil { try feed(.turn(turn)) }
        }
        if let showing, pending.remove(.restack) != nil {
            try feed(.sliding(until: showing.restack(shifts: showing.monitors.map(stackShift), now: Clock.monotonic())))
        }
    }

    /// Sleeps until a wake-up (the X connection, a signal, the timer, standard input, the
    /// schedule, the pause's end, the zone) and feeds what woke it.
    private func sleep() throws(X11Error) {
        // The pointer may move, monitors may change, while we sleep before showing.
        view.expire()
        let inputDescriptor = input.map { $0.ended ? -1 : $0.descriptor } ?? -1
        // Asleep, the watchdog is off: a frozen toast or a wait for the turn takes as long as it
        // takes.
        let wakes = display.idle { wakeups.wait(connection: display.fileDescriptor, input: inputDescriptor) }
        for wake in Self.ordered(wakes) {
            guard session.outcome == nil, let translated = translate(wake) else { continue }
            try feed(translated)
        }
        // The command is looked at after every wake, not only on SIGCHLD: that one signal
        // stands for any number of changes (the command stopped, went on, ended), and a
        // stopped xtoast wakes to all of them at once.
        if request.command != nil, session.commandStatus == nil, session.outcome == nil, let status = request.command?.reap() {
            try feed(.commandEnded(status: status))
        }
    }

    /// Signals first: a command's end or a signal that came in the same batch as the timer or
    /// the due time is not lost behind them.
    private static func ordered(_ wakes: [Wakeups.Event]) -> [Wakeups.Event] {
        wakes.filter(\.isSignal) + wakes.filter { !$0.isSignal }
    }

    /// An X event in the session's terms, if it means anything to it.
    /// The commands to our ticket that came in during a look at the turn, taken ahead of the
    /// other events: they were sent before the look's answer, and are heard before it (a toast
    /// told it is summarised does not show because its turn came meanwhile, as `QueueWorld`
    /// runs it).
    func commandsQueued() -> [Session.Event] {
        var events: [Session.Event] = []
        var event = XEvent()
        while XCheckTypedWindowEvent(display.pointer, queue.ticket, ClientMessage, &event) != 0 {
            if let translated = translate(&event) { events.append(translated) }
        }
        return events
    }

    private func translate(_ event: inout XEvent) -> Session.Event? {
        if let (command, argument) = queue.command(in: &event) {
            let buttons = request.content.buttons.count
            guard let translated = Press.event(command, argument: argument, buttons: buttons) else {
                warn("ignored a press of button \(argument): this toast has \(buttons)")
                return nil
            }
            return translated
        }
        if request.stack && queue.affectsStack(&event) { return .stackChanged }
        if queue.affectsTurn(&event) { return .queueChanged }
        if queue.affectsPause(&event) { return .pauseChanged }
        if watches.contains(.fullscreen) && fullscreenWatch.affects(event) { return .fullscreenChanged }
        if lockWatch.affects(event) { return .lockChanged }
        if let key = replyKeyboard?.translate(&event) { return .key(key) }
        if idleWatch.handle(event) { return .userReturned }
        if let showing, let translated = showing.handle(&event) {
            if case .click = translated { clickTime = UInt32(truncatingIfNeeded: event.xbutton.time) }
            return translated
        }
        _ = retiring?.handle(&event)
        return nil
    }

    /// A wake-up in the session's terms (the timer's is the next `.tick`).
    private func translate(_ wake: Wakeups.Event) -> Session.Event? {
        switch wake {
        case .signal(SIGCHLD), .terminalSignal(SIGCHLD):
            // Reaped here: the status is the event.
            guard let command = request.command, let status = command.reap() else { return nil }
            return .commandEnded(status: status)
        case .signal(SIGUSR1), .terminalSignal(SIGUSR1): return .signal(.dismiss, from: .process)
        case .signal(let number): return .signal(.terminate(number), from: .process)
        case .terminalSignal(let number): return .signal(.terminate(number), from: .terminal)
        case .input:
            guard let input else { return nil }
            return .lines(input.readLines())
        case .due: return .due
        case .zoneChanged: return .zoneChanged
        case .pauseEnded: return .pauseChanged
        case .connection, .timer: return nil
        }
    }

    /// Publishes a box that moved, once the toast's first frame is out (stacked toasts and
    /// replacements read where we are).
    func announceMove(of box: Rect) {
        guard session.isAnnounced else { return }
        queue.announceShown(at: box, progress: session.content.progress?.percent)
    }
}
