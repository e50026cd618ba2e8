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
    /// What is shown now and for how long: `--stdin` lines and a `--run` result change them.
    private var content: ToastContent
    private var duration: DisplayDuration
    /// What the server said at start, until something makes it stale (a wait, a first show).
    private var fresh: StartingView?
    /// How the `--run` command ended, once it has.
    public private(set) var commandStatus: Int32?
    /// The terminating signal that reached the `--run` command through us or the terminal: when
    /// the command ends of it, the toast ends at once instead of showing the command's result.
    private var interruption: Int32?
    private var compositorEvent: Int32?
    private var watchesCompositor = false
    /// Seconds between frames on each monitor, once asked.
    private var frameIntervals: [Rect: Double] = [:]
    /// Where the pointer is, for pause on hover. (Minimal wiring, issue #14.)
    private var pointer: PointerWatch
    private var pointerStarted = false

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
        fresh = StartingView(
            targets: targets, panels: panels, composited: display.owner(compositor) != 0,
            settingsManager: settingsManager.map(display.owner))
        let at: Int?
        switch request.delivery {
        case .at(let instant): at = Int(instant)
        case .after(let seconds): at = Int(Wakeups.wallClock() + seconds)
        case .now: at = nil
        }
        coordinator = Coordinator(
            display: display, tag: request.tag, at: at, stack: request.stack ? request.style.position : nil, warn: warn)
    }

    /// Frames per second when RandR does not know the monitor's refresh rate.
    static let fallbackRefreshRate = 60.0

    /// Joins the queue, calls `queued` (where `--detach` detaches), waits for the turn,
    /// shows the toast and returns how it ended.
    public func run(queued: (() -> Void)? = nil) throws(X11Error) -> Outcome {
        let dpy = display.pointer
        // A stacked toast follows the stack's list on the root; a queued one waits for the
        // ticket ahead of it (`Coordinator.turn`), and every other waiter sleeps through
        // changes to the queue.
        XSelectInput(dpy, display.root, request.stack ? PropertyChangeMask : NoEventMask)
        defer { coordinator.leave() }
        if let command = request.command {
            if let ending = waitOutGrace(of: command) { return ending }
            fresh = nil
        }
        if request.delivery != .now {
            try wakeups.schedule(request.delivery)
            if request.rescheduleAfterZoneChange != nil { wakeups.watchTimeZone() }
            coordinator.joinSchedule()
            tell(queued)
            if let ending = waitUntilDue() { return ending }
            fresh = nil
            coordinator.leaveSchedule()
            join()
        } else {
            join()
            tell(queued)
        }

        let input = request.followStandardInput ? LineReader(descriptor: 0) : nil
        var showing: Showing?
        // The toast being replaced by a new one, kept until the new one is drawn over it.
        var retiring: Showing?
        var outcome: Outcome?
        // A --run toast closed before its command ended: wait for the command, show nothing.
        var closedEarly: Outcome?
        var turnMayHaveChanged = true
        var stackMayHaveChanged = false
        var event = XEvent()
        func end(_ ending: Outcome) {
            // Closed already; the command's end is what we wait for now.
            if closedEarly != nil && commandStatus == nil { return }
            if request.command != nil && commandStatus == nil && closedEarly == nil {
                closedEarly = ending
                showing = nil
                retiring = nil
                coordinator.leave()
            } else {
                outcome = ending
            }
        }
        func replace(with next: ToastContent, for hold: DisplayDuration) throws(X11Error) {
            content = next
            duration = hold
            guard let current = showing else { return }
            // What is on screen stays until the newest is drawn over it: in a burst of updates
            // the one not drawn yet simply goes.
            let onScreen = retiring ?? current
            retiring = onScreen
            showing = try show(morphingFrom: onScreen.windows.first?.currentBox, progress: onScreen.windows.first?.progress)
        }
        while outcome == nil {
            if let current = showing { pointer.boxes = current.windows.map(\.currentBox) }
            // Drain everything Xlib has queued or can read before deciding anything: a reply
            // read by some other call may have brought events along that poll would not see.
            while XPending(dpy) > 0 {
                XNextEvent(dpy, &event)
                // Pause on hover (minimal wiring, issue #14).
                if let change = pointer.handle(&event, now: Wakeups.now()) { showing?.hover(change, now: Wakeups.now()) }
                if let command = coordinator.command(in: &event) {
                    end(command == .dismiss ? .dismissed : .replaced)
                } else if request.stack && coordinator.affectsStack(&event) {
                    stackMayHaveChanged = true
                } else if coordinator.affectsTurn(&event) {
                    turnMayHaveChanged = true
                } else if let current = showing, let ending = current.handle(&event) {
                    end(ending)
                } else {
                    _ = retiring?.handle(&event)
                }
            }
            if outcome != nil { break }
            if let closedEarly, commandStatus != nil {
                outcome = closedEarly
                break
            }
            if closedEarly == nil && showing == nil && request.stack {
                // A stacked toast does not wait for a turn.
                showing = try show(morphingFrom: nil)
            } else if closedEarly == nil && showing == nil && turnMayHaveChanged {
                turnMayHaveChanged = false
                switch coordinator.turn() {
                case .mine: showing = try show(morphingFrom: nil)
                case .missing:
                    // Join again rather than vanish, and look at once: nothing else will wake us.
                    coordinator.rejoin()
                    turnMayHaveChanged = true
                    continue
                case .waitFor:
                    // The pointer may move while we wait: look again when our turn comes.
                    fresh = nil
                }
            }
            if let current = showing, stackMayHaveChanged {
                stackMayHaveChanged = false
                current.restack(shifts: current.monitors.map(stackShift), now: Wakeups.now())
            }
            if let change = pointer.poll(now: Wakeups.now()) { showing?.hover(change, now: Wakeups.now()) }
            if let current = showing {
                let ending = current.step(now: Wakeups.now()) { box in
                    if !current.isSetUp { finishSetUp(current) }
                    coordinator.announceShown(at: box, progress: content.progress?.percent)
                    // Drawn over the old one: now the old one can go.
                    retiring = nil
                }
                if let ending {
                    end(ending)
                    if outcome != nil { break }
                }
                let wakes = [showing?.nextWake, pointer.nextPoll].compactMap { $0 }
                wakeups.arm(at: wakes.min())
            }
            XFlush(dpy)
            if XEventsQueued(dpy, QueuedAlready) > 0 { continue }
            let inputDescriptor = input.map { $0.ended ? -1 : $0.descriptor } ?? -1
            // Asleep, the watchdog is off: holding or waiting for the turn takes as long as it takes.
            let wakes = display.idle { wakeups.wait(connection: display.fileDescriptor, input: inputDescriptor) }
            for wake in wakes {
                switch wake {
                case .signal(SIGCHLD):
                    guard let command = request.command, commandStatus == nil, let status = command.reap() else { break }
                    commandStatus = status
                    if let interruption {
                        // Stopped on purpose (Ctrl-C, kill): nobody wants to read "failed" now.
                        outcome = .signalled(interruption)
                    } else if closedEarly == nil {
                        try replace(
                            with: content.finished(command: command.commandLine, status: status), for: .seconds(command.resultHold))
                    }
                case .terminalSignal(let number) where request.command != nil && commandStatus == nil:
                    // Ctrl-C reached the command too (the whole process group): its end ends us.
                    interruption = number
                case .signal(let number), .terminalSignal(let number):
                    if let command = request.command, commandStatus == nil, number != SIGUSR1 {
                        // Signals sent to us alone are for the command; its end ends the toast.
                        interruption = number
                        kill(command.pid, number)
                    } else {
                        end(number == SIGUSR1 ? .dismissed : .signalled(number))
                    }
                case .input:
                    guard let input else { break }
                    // Only the newest value matters: a burst of lines makes one update.
                    var next = content
                    for line in input.readLines() { next = next.updated(byLine: line) ?? next }
                    if next != content { try replace(with: next, for: duration) }
                case .connection, .timer, .due, .zoneChanged:
                    break
                }
            }
        }
        // The windows go before the ticket leaves the queue: the next toast never overlaps.
        showing = nil
        retiring = nil
        XFlush(dpy)
        return outcome!
    }

    /// For `--run`: gives the command its grace time. Returns an outcome when it succeeded
    /// within it (no toast at all); nil when a toast is to be shown: the spinner, or the error
    /// of a command that failed at once.
    private func waitOutGrace(of command: RunningCommand) -> Outcome? {
        wakeups.arm(at: Wakeups.now() + command.grace)
        var graceOver = false
        while true {
            // Every wake of a batch counts: a signal read along with the timer is not lost.
            for wake in display.idle({ wakeups.wait(connection: -1) }) {
                switch wake {
                case .signal(SIGCHLD), .signal(SIGUSR1):
                    break  // the command's end is looked at below; nothing to dismiss yet
                case .terminalSignal(let number):
                    interruption = number  // the command has the terminal's signal itself
                case .signal(let number):
                    interruption = number
                    kill(command.pid, number)
                case .timer:
                    graceOver = true
                default:
                    break
                }
            }
            // Looked at after every wake: SIGCHLD may have come in the timer's batch, or a
            // stopped xtoast may wake to both at once.
            if let status = command.reap() {
                commandStatus = status
                if let interruption { return .signalled(interruption) }
                // Quick success needs no toast; a failure is worth showing, however quick.
                if status == 0 { return .expired }
                content = content.finished(command: command.commandLine, status: status)
                duration = .seconds(command.resultHold)
                return nil
            }
            if graceOver { return nil }
        }
    }

    /// Joins the stack or the queue.
    private func join() {
        if request.stack { coordinator.joinStack() } else { coordinator.register() }
        XFlush(display.pointer)
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

    /// Sleeps until a scheduled toast is due (nil), cancelled or signalled (its outcome).
    private func waitUntilDue() -> Outcome? {
        let dpy = display.pointer
        var event = XEvent()
        while true {
            while XPending(dpy) > 0 {
                XNextEvent(dpy, &event)
                if coordinator.command(in: &event) != nil { return .dismissed }
            }
            var due = false
            for wake in display.idle({ wakeups.wait(connection: display.fileDescriptor) }) {
                switch wake {
                case .signal(SIGCHLD): break
                case .signal(let number), .terminalSignal(let number):
                    // Even when it comes together with the due time.
                    return number == SIGUSR1 ? .dismissed : .signalled(number)
                case .due: due = true
                case .zoneChanged:
                    // "09:00" now means 09:00 in the new zone.
                    if let instant = request.rescheduleAfterZoneChange?() { try? wakeups.schedule(.at(instant)) }
                case .connection, .timer, .input: break
                }
            }
            if due { return nil }
        }
    }

    /// Places the toast on its monitor(s) and maps its window(s); with `morphingFrom`, it grows
    /// out of that box (a toast with our tag, or our own before an update).
    private func show(morphingFrom old: Rect?, progress oldProgress: Double? = nil) throws(X11Error) -> Showing {
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
            slideDuration: style.stackSlideDuration, slideEasing: style.transitionEasing, timeline: timeline,
            frameInterval: frameInterval, compositorEvent: compositorEvent,
            spinner: content.spinner ? (1 / style.spinnerFrameRate, style.spinnerPeriod) : nil, hoverMinimumHold: style.hoverMinimumHold)
        showing.spots = spots
        // A new toast starts not hovered: the pointer must move over it.
        _ = pointer.watch(windows: windows.map(\.window), boxes: windows.map(\.currentBox))
        windows.forEach { $0.map() }
        // Drawn at once, not after the Expose: the server handles the map before the drawing.
        showing.begin(now: Wakeups.now())
        return showing
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
