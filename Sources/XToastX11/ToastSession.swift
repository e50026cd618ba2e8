import CX11
import XToastCore
import XToastRender

/// Everything needed to show one toast.
public struct ToastRequest: Sendable {
    public var content: ToastContent
    public var style: Style
    public var duration: DisplayDuration
    public var monitor: MonitorChoice
    /// Where `monitor` was set when it came from a config file or X resources (for a warning),
    /// nil when it came from the command line or the defaults.
    public var monitorOrigin: String?
    /// Logical-to-device pixel factor; nil reads `Xft.dpi` from the server's resources.
    public var scale: Double?
    /// nil uses `$DISPLAY`.
    public var displayName: String?
    /// A toast with the same tag replaces this one in place instead of queueing (`--tag`).
    public var tag: String?
    /// Now, or later (`--in`, `--at`).
    public var delivery: Delivery
    /// Show alongside the toasts on screen, stacked from the edge, instead of waiting (`--stack`).
    public var stack: Bool
    /// For `--at` in the local zone: the instant worked out again after the zone changed.
    public var rescheduleAfterZoneChange: (@Sendable () -> Double?)?
    /// Lines from standard input update the toast (`--stdin`).
    public var followStandardInput = false
    /// The command `--run` started: the toast follows it.
    public var command: RunningCommand?
    /// Follow the desktop's "reduce motion" (XSETTINGS `Net/EnableAnimations`); false when
    /// `--animation` was given on the command line.
    public var followsReducedMotion = true
    /// Clicks go to the window below (`--click-through`).
    public var clickThrough = false
    /// What it does while its monitor shows a fullscreen window (`--fullscreen`, resolved).
    public var fullscreen = FullscreenPolicy.show
    /// Seconds without input after which the user counts as away (`--idle`); 0: off.
    public var idleThreshold = 0.0
    /// Tell a running screen reader what the toast says as it appears (`announce`).
    public var announce = true
    /// Show even while toasts are paused (`--urgent`; see `Configuration.goesThroughPause`).
    public var urgent = false

    public init(
        content: ToastContent, style: Style, duration: DisplayDuration, monitor: MonitorChoice, scale: Double?,
        displayName: String?, tag: String?, delivery: Delivery = .now, stack: Bool = false
    ) {
        self.delivery = delivery
        self.stack = stack
        self.content = content
        self.style = style
        self.duration = duration
        self.monitor = monitor
        self.scale = scale
        self.displayName = displayName
        self.tag = tag
    }
}

/// Shows one toast on an X display: waits for its turn, then runs it to its end.
public final class ToastSession {
    private let request: ToastRequest
    private let display: XDisplay
    private let wakeups: Wakeups
    private let coordinator: Coordinator
    private let warn: (String) -> Void
    /// What shows at first, and for how long (the session changes both later).
    private let content: ToastContent
    private let duration: DisplayDuration
    /// What the server said at start, until something makes it stale (a wait, a first show).
    private var fresh: StartingView?
    /// How the `--run` command ended, once it has.
    public private(set) var commandStatus: Int32?
    private var compositorEvent: Int32?
    private var watchesCompositor = false
    /// Seconds between frames on each monitor, once asked.
    private var frameIntervals: [Rect: Double] = [:]
    /// Where the pointer is, for pause on hover; started after the first frame.
    private let pointer: PointerWatch
    private var pointerStarted = false
    /// The windows on top of each monitor (`--fullscreen`), asked only when the policy is not
    /// `show`; and the user's idle time (`--idle`), asked after the first frame.
    private let fullscreenWatch: FullscreenWatch
    private var watchesFullscreen = false
    private let idleWatch: IdleWatch
    /// Without SYNC's idle alarm: when to ask the idle time again, and what it was.
    private var idlePoll: (due: Double, idle: Double)?
    /// The toast's text went to the screen reader (if one runs): once per session.

    /// Connects and checks what can be checked before waiting (the monitor choice); nothing is
    /// queued or shown until `run`.
    public init(_ request: ToastRequest, display: XDisplay, wakeups: Wakeups, warn: @escaping (String) -> Void) throws(X11Error) {
        var request = request
        self.wakeups = wakeups
        self.warn = warn
        self.display = display
        content = request.content
        duration = request.duration
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
            // A monitor named in a file may be unplugged today (a laptop off its dock): asked for
            // in this call it is an error, from a file or the resources it must not silence toasts.
            guard case .unknownMonitor = error, let origin = request.monitorOrigin else { throw error }
            request.monitor = Configuration().monitor
            warn("\(origin): monitor: \(error.description); showing it on the default monitor, \(request.monitor)")
            (targets, panels) = try Self.monitors(for: request.monitor, on: display)
        }
        self.request = request
        pointer = PointerWatch(display: display, clickThrough: request.clickThrough)
        idleWatch = IdleWatch(display: display)
        fresh = StartingView(
            targets: targets, panels: panels, composited: display.owner(compositor) != 0,
            settingsManager: settingsManager.map(display.owner), fullscreen: rootQuestions)
        let at: Int?
        switch request.delivery {
        case .at(let instant): at = Int(instant)
        case .after(let seconds): at = Int(Wakeups.wallClock() + seconds)
        case .now: at = nil
        }
        coordinator = Coordinator(
            display: display, tag: request.tag, at: at, stack: request.stack ? request.style.position : nil, urgent: request.urgent,
            warn: warn)
    }

    /// Frames per second when RandR does not know the monitor's refresh rate.
    static let fallbackRefreshRate = 60.0

    /// The session machine this interpreter carries out, for the plan the request makes.
    private func makeSession() -> Session {
        let command = request.command.map {
            Session.CommandPlan(commandLine: $0.commandLine, grace: $0.grace, resultHold: $0.resultHold)
        }
        let plan = Session.Plan(
            content: content, duration: duration, delivery: request.delivery, stack: request.stack, command: command,
            spinnerInterval: 1 / request.style.spinnerFrameRate, spinnerPeriod: request.style.spinnerPeriod,
            speaks: request.announce, hoverMinimumHold: request.style.hoverMinimumHold, fullscreen: request.fullscreen,
            idleThreshold: request.idleThreshold)
        return Session(plan, frameInterval: 1 / Self.fallbackRefreshRate)
    }

    /// Joins the queue, calls `queued` (where `--detach` detaches), waits for the turn,
    /// shows the toast and returns how it ended. This loop decides nothing: it turns what
    /// happens into the session's events and carries out the effects it returns.
    public func run(queued: (() -> Void)? = nil) throws(X11Error) -> Outcome {
        let dpy = display.pointer
        // A stacked toast follows the stack's list on the root; a queued one waits for the
        // ticket ahead of it (`Coordinator.turn`), and every other waiter sleeps through
        // changes to the queue.
        XSelectInput(dpy, display.root, request.stack ? PropertyChangeMask : NoEventMask)
        defer { coordinator.leave() }
        var session = makeSession()
        let input = request.followStandardInput ? LineReader(descriptor: 0) : nil
        var interpreter = Interpreter(queued: queued)
        try carryOut(session.handle(.start, at: Wakeups.now()), in: &session, &interpreter)
        var event = XEvent()
        while session.outcome == nil {
            if let showing = interpreter.showing { pointer.boxes = showing.windows.map(\.currentBox) }
            // Drain everything Xlib has queued or can read before deciding anything: a reply
            // read by some other call may have brought events along that poll would not see.
            while XPending(dpy) > 0 && session.outcome == nil {
                XNextEvent(dpy, &event)
                // The pointer's crossings (or raw motion) are not the windows' own business.
                if let change = pointer.handle(&event, now: Wakeups.now()) {
                    try carryOut(session.handle(.hover(change), at: Wakeups.now()), in: &session, &interpreter)
                }
                guard let translated = translate(&event, interpreter) else { continue }
                try carryOut(session.handle(translated, at: Wakeups.now()), in: &session, &interpreter)
            }
            if let change = pointer.poll(now: Wakeups.now()) {
                try carryOut(session.handle(.hover(change), at: Wakeups.now()), in: &session, &interpreter)
            }
            if let poll = idlePoll, Wakeups.now() >= poll.due {
                // No idle alarm on this server: the idle time going down means the user is back.
                let idle = idleWatch.idleSeconds() ?? 0
                idlePoll = idle < poll.idle ? nil : (Wakeups.now() + IdleWatch.pollInterval, idle)
                if idlePoll == nil { try carryOut(session.handle(.userReturned, at: Wakeups.now()), in: &session, &interpreter) }
            }
            try carryOut(session.handle(.tick, at: Wakeups.now()), in: &session, &interpreter)
            // Looked at once per batch of events, however many asked.
            while interpreter.looksAtTurn && session.outcome == nil {
                interpreter.looksAtTurn = false
                try carryOut(session.handle(.turn(coordinator.turn()), at: Wakeups.now()), in: &session, &interpreter)
            }
            guard session.outcome == nil else { break }
            if interpreter.restacks, let showing = interpreter.showing {
                interpreter.restacks = false
                showing.restack(shifts: showing.monitors.map(stackShift), now: Wakeups.now())
            }
            let now = Wakeups.now()
            interpreter.showing?.move(now: now) { box in
                coordinator.announceShown(at: box, progress: session.content.progress?.percent)
            }
            wakeups.arm(
                at: [session.deadline, interpreter.showing?.nextMove(now: now), pointer.nextPoll, idlePoll?.due].compactMap { $0 }.min())
            XFlush(dpy)
            if XEventsQueued(dpy, QueuedAlready) > 0 { continue }
            // The pointer may move, monitors may change, while we sleep before showing.
            if interpreter.showing == nil { fresh = nil }
            let inputDescriptor = input.map { $0.ended ? -1 : $0.descriptor } ?? -1
            // Asleep, the watchdog is off: holding or waiting for the turn takes as long as it takes.
            let wakes = display.idle { wakeups.wait(connection: display.fileDescriptor, input: inputDescriptor) }
            for wake in Self.ordered(wakes) {
                guard session.outcome == nil, let translated = translate(wake, input: input) else { continue }
                try carryOut(session.handle(translated, at: Wakeups.now()), in: &session, &interpreter)
            }
            // The command is looked at after every wake, not only on SIGCHLD: that one signal
            // stands for any number of changes (the command stopped, went on, ended), and a
            // stopped xtoast wakes to all of them at once.
            if request.command != nil, session.commandStatus == nil, session.outcome == nil, let status = request.command?.reap() {
                try carryOut(session.handle(.commandEnded(status: status), at: Wakeups.now()), in: &session, &interpreter)
            }
        }
        commandStatus = session.commandStatus
        // The windows go before the ticket leaves the queue: the next toast never overlaps.
        interpreter.showing = nil
        interpreter.retiring = nil
        XFlush(dpy)
        return session.outcome!
    }

    /// What the interpreter holds between effects: the windows on screen, and work asked for
    /// by a batch of events, done once after it.
    private struct Interpreter {
        var queued: (() -> Void)?
        var showing: Showing?
        /// The toast being replaced by a new one, kept until the new one is drawn over it.
        var retiring: Showing?
        var looksAtTurn = false
        var restacks = false
    }

    /// Signals first: a command's end or a signal that came in the same batch as the timer or
    /// the due time is not lost behind them.
    private static func ordered(_ wakes: [Wakeups.Event]) -> [Wakeups.Event] {
        wakes.filter(\.isSignal) + wakes.filter { !$0.isSignal }
    }

    /// An X event in the session's terms, if it means anything to it.
    private func translate(_ event: inout XEvent, _ interpreter: Interpreter) -> Session.Event? {
        if let command = coordinator.command(in: &event) { return .remote(command) }
        if request.stack && coordinator.affectsStack(&event) { return .stackChanged }
        if coordinator.affectsTurn(&event) { return .queueChanged }
        if coordinator.affectsPause(&event) { return .pauseChanged }
        if watchesFullscreen && fullscreenWatch.affects(event) { return .fullscreenChanged }
        if idleWatch.handle(event) { return .userReturned }
        if let showing = interpreter.showing, let translated = showing.handle(&event) { return translated }
        _ = interpreter.retiring?.handle(&event)
        return nil
    }

    /// A wake-up in the session's terms.
    private func translate(_ wake: Wakeups.Event, input: LineReader?) -> Session.Event? {
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

    /// Carries out effects in order; effects that ask the server something feed the answer
    /// back at once.
    private func carryOut(_ effects: [Session.Effect], in session: inout Session, _ interpreter: inout Interpreter)
        throws(X11Error)
    {
        for effect in effects {
            switch effect {
            case .schedule(let delivery):
                try wakeups.schedule(delivery)
                if request.rescheduleAfterZoneChange != nil { wakeups.watchTimeZone() }
            case .reschedule:
                // "09:00" now means 09:00 in the new zone.
                if let instant = request.rescheduleAfterZoneChange?() { try? wakeups.schedule(.at(instant)) }
            case .joinSchedule: coordinator.joinSchedule()
            case .leaveSchedule: coordinator.leaveSchedule()
            case .join:
                if request.stack { coordinator.joinStack() } else { coordinator.register() }
                XFlush(display.pointer)
            case .queued: tell(interpreter.queued)
            case .lookAtTurn: interpreter.looksAtTurn = true
            case .rejoin: coordinator.rejoin()
            case .watch(let ticket): coordinator.watch(Window(ticket))
            case .leaveQueue: coordinator.leaveQueue()
            case .hold(let until):
                coordinator.standAside()
                wakeups.armPauseEnd(at: until.map(Double.init))
            case .show(let next, let hold, let morph):
                // What is on screen stays until the newest is drawn over it: in a burst of
                // updates the one not drawn yet simply goes.
                let onScreen = morph ? interpreter.retiring ?? interpreter.showing : nil
                if morph { interpreter.retiring = onScreen }
                let (showing, timeline) = try show(
                    next, for: hold, morphingFrom: onScreen?.windows.first?.currentBox, progress: onScreen?.windows.first?.progress)
                interpreter.showing = showing
                try carryOut(
                    session.handle(.shown(timeline, composited: showing.composited), at: Wakeups.now()), in: &session, &interpreter)
            case .present(let appearance, let turn):
                interpreter.showing?.present(appearance, turn: turn)
            case .raise: interpreter.showing?.raise()
            case .restack: interpreter.restacks = true
            case .announce(let progress):
                guard let showing = interpreter.showing else { break }
                if !showing.isSetUp {
                    finishSetUp(showing)
                    try carryOut(session.handle(.frameInterval(showing.frameInterval), at: Wakeups.now()), in: &session, &interpreter)
                    // A compositor that came or went before the watch began: drawn again, the other way.
                    try carryOut(
                        session.handle(.compositorChanged(composited: showing.composited), at: Wakeups.now()), in: &session, &interpreter)
                }
                showing.announced = true
                coordinator.announceShown(at: showing.windows[0].currentBox, progress: progress)
                // Drawn over the old one: now the old one can go.
                interpreter.retiring = nil
            case .lookAtFullscreen:
                try carryOut(session.handle(.fullscreen(covered: try isCovered()), at: Wakeups.now()), in: &session, &interpreter)
            case .watchFullscreen:
                watchesFullscreen = true
                // Watched from this read on: should it have cleared in between, look again.
                if try !isCovered() { try carryOut(session.handle(.fullscreenChanged, at: Wakeups.now()), in: &session, &interpreter) }
            case .lookAtIdle:
                try carryOut(session.handle(.idle(seconds: idleWatch.idleSeconds()), at: Wakeups.now()), in: &session, &interpreter)
            case .watchReturn:
                if !idleWatch.armReturn(), let idle = idleWatch.idleSeconds() {
                    idlePoll = (Wakeups.now() + IdleWatch.pollInterval, idle)
                }
            case .speak(let content):
                // After the first frame, so that a toast's first paint never waits for it.
                ScreenReader.announceIfRunning(text: Announcement.text(for: content), display: display)
            case .forward(let number):
                if let command = request.command { kill(command.pid, number) }
            case .hide:
                interpreter.showing = nil
                interpreter.retiring = nil
            case .leave: coordinator.leave()
            case .finish: break
            }
        }
    }

    /// Whether every monitor the toast goes on shows a fullscreen window on top. Once watched,
    /// each read selects the events of the windows it read.
    private func isCovered() throws(X11Error) -> Bool {
        let targets: [Monitor]
        if let fresh { targets = fresh.targets } else { targets = try Self.monitors(for: request.monitor, on: display).0 }
        let mask = request.stack ? PropertyChangeMask : NoEventMask
        return !fullscreenWatch.covered(targets.map(\.rect), watching: watchesFullscreen ? mask : nil, asked: fresh?.fullscreen)
            .contains(false)
    }

    /// Calls `queued` (`--detach`) once our place is on the server: that takes a round trip,
    /// which nobody else waits for.
    private func tell(_ queued: (() -> Void)?) {
        XFlush(display.pointer)
        guard let queued else { return }
        XSync(display.pointer, 0)
        queued()
    }

    /// How far a stacked toast on `monitor` sits from its own place: past the ones before it.
    private func stackShift(on monitor: Monitor) -> Int {
        guard request.stack else { return 0 }
        let scale = request.scale ?? HiDPI.scale(resources: display.resourceString)
        let gap = Int((request.style.stackGap * scale).rounded())
        return Stack.shift(after: coordinator.stackedHeights(on: monitor.rect), gap: gap)
    }

    /// Places the toast on its monitor(s) and maps its window(s); with `morphingFrom`, it grows
    /// out of that box (a toast with our tag, or our own before an update).
    private func show(_ content: ToastContent, for duration: DisplayDuration, morphingFrom old: Rect?, progress oldProgress: Double?)
        throws(X11Error) -> (Showing, Timeline)
    {
        let style = request.style
        let view: StartingView
        if let fresh {
            view = fresh
        } else {
            let (targets, panels) = try Self.monitors(for: request.monitor, on: display)
            view = StartingView(targets: targets, panels: panels)
        }
        fresh = nil
        let composited = view.composited ?? display.compositorIsRunning()
        let scale = request.scale ?? HiDPI.scale(resources: display.resourceString)
        // The docks' struts were asked with the monitors and have travelled since.
        let targets = view.panels.resolve().apply(to: view.targets, screen: display.screenSize)
        let hold = duration.hold(for: content.message)
        let start = old ?? coordinator.replacedRect
        // The bar moves from the replaced toast's value to ours.
        let startProgress = old != nil ? oldProgress : coordinator.replacedProgress
        // Taking over from a toast with our tag: no fade-in, the box moves from its place.
        let motion =
            start != nil ? .replacing(over: style.replaceDuration, curve: style.transitionEasing, exit: style.motion.exit) : style.motion
        var timeline = Timeline(motion: motion, hold: hold)
        if !composited || (request.followsReducedMotion && display.reducesMotion(manager: view.settingsManager)) {
            // Without a compositor nothing can fade; with "reduce motion" nothing should move:
            // the toast simply appears and disappears, and stays as long as it would have.
            timeline = timeline.withoutMotion
        }
        let direction = style.position.stackDirection
        let shifts = targets.map(stackShift)
        var spots: [Showing.Spot] = []
        let windows = try zip(targets, shifts).map { monitor, shift throws(X11Error) in
            let metrics = ToastMetrics(style: style, scale: scale, monitor: monitor.workArea.size)
            let painter: ToastPainter
            do {
                painter = try ToastPainter(content: content, style: style, metrics: metrics)
            } catch {
                throw X11Error.system(String(describing: error))
            }
            if painter.markupFailed && monitor == targets[0] { warn(ToastPainter.markupWarning) }
            let offset = Point(x: metrics.offset.x, y: metrics.offset.y + direction * shift)
            let spot = Showing.Spot(size: painter.boxSize, position: style.position, margin: metrics.margin, offset: offset)
            spots.append(spot)
            let origin = Placement.origin(
                for: spot.size, on: monitor.workArea, position: spot.position, margin: spot.margin, offset: spot.offset)
            // The move from the old box never crosses monitors.
            let morphStart = start.flatMap { monitor.rect.contains($0) ? $0 : nil }
            return try ToastWindow(
                display: display, painter: painter, box: Rect(origin: origin, size: painter.boxSize),
                maximumScale: timeline.motion.maximumScale, morphStart: morphStart, morphProgress: startProgress, composited: composited,
                clickThrough: request.clickThrough)
        }
        // Known refresh rates are kept; a first toast learns it once its first frame is out.
        let frameInterval = frameIntervals[targets[0].rect] ?? 1 / Self.fallbackRefreshRate
        // Windows mapped or raised over ours arrive as SubstructureNotify on the root.
        XSelectInput(display.pointer, display.root, PropertyChangeMask | SubstructureNotifyMask)
        let showing = Showing(
            display: display, windows: windows, monitors: targets, shifts: shifts, direction: direction,
            slideDuration: style.stackSlideDuration, slideEasing: style.transitionEasing, frameInterval: frameInterval,
            compositorEvent: compositorEvent)
        showing.spots = spots
        // New windows start not hovered: the pointer must move onto them (a toast that appears
        // under a resting pointer runs its course). Content under the pointer keeps its hold in
        // the session.
        _ = pointer.watch(windows: windows.map(\.window), boxes: windows.map(\.currentBox))
        windows.forEach { $0.map() }
        // Drawn at once (the session's first frame comes next), not after the Expose: the server
        // handles the map before the drawing.
        return (showing, timeline)
    }

    /// What a toast needs only once its first frame is out, asked then so that the first frame
    /// waits for fewer round trips: the monitor's refresh rate, and news of compositors.
    private func finishSetUp(_ showing: Showing) {
        let monitor = showing.monitors[0].rect
        if frameIntervals[monitor] == nil {
            frameIntervals[monitor] = 1 / (display.refreshRate(of: monitor) ?? Self.fallbackRefreshRate)
        }
        showing.frameInterval = frameIntervals[monitor]!
        if !watchesCompositor {
            watchesCompositor = true
            compositorEvent = display.watchCompositor()
            // It may have changed hands before we watched.
            showing.compositorMayHaveChanged()
        }
        showing.compositorEvent = compositorEvent
        if !pointerStarted {
            pointerStarted = true
            if let why = pointer.start() { warn(why) }
        }
        showing.isSetUp = true
    }

    /// The monitors `choice` picks on `display` now, and their docks' struts on their way.
    private static func monitors(for choice: MonitorChoice, on display: XDisplay) throws(X11Error) -> (
        [Monitor], PendingPanels
    ) {
        let needsNames: Bool
        if case .named = choice { needsNames = true } else { needsNames = false }
        let (monitors, panels) = display.monitorsAndPanels(named: needsNames)
        // With one monitor there is nothing to ask the server about.
        let looksAround = monitors.count > 1 && (choice == .pointer || choice == .focus)
        let pointer = looksAround ? display.pointerPosition() : nil
        let focus = looksAround && choice == .focus ? display.focusedWindowRect() : nil
        do {
            let targets = try choice.select(from: monitors, pointer: pointer, focus: focus)
            guard !targets.isEmpty else { throw X11Error.noMonitors }
            return (targets, panels)
        } catch let error as X11Error {
            throw error
        } catch {
            // Name the monitors so that the user can pick one; indices need no names.
            let named = needsNames ? monitors : display.monitors(named: true)
            throw .unknownMonitor(UnknownMonitorError(choice: choice, available: named.map(\.name)))
        }
    }
}

/// What a toast shown at once needs to know of the server, asked together at start: the
/// monitors it goes on and their docks, whether a compositor runs, who the XSETTINGS manager is
/// (0: none). Nil fields are asked when the toast shows.
private struct StartingView {
    var targets: [Monitor]
    var panels: PendingPanels
    var composited: Bool? = nil
    var settingsManager: Window? = nil
    /// The root's part of the fullscreen question, asked when the policy is not `show`.
    var fullscreen: FullscreenWatch.RootQuestions? = nil
}

extension XDisplay {
    /// Asks for an event whenever `_NET_WM_CM_S<screen>` changes hands (a compositor starts or
    /// stops); returns the XFixes event base, or nil without XFixes.
    func watchCompositor() -> Int32? {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XFixesQueryExtension(pointer, &eventBase, &errorBase) != 0 else { return nil }
        let mask = XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask
        XFixesSelectSelectionInput(pointer, root, atoms.compositorSelection, UInt(mask))
        return eventBase
    }
}
