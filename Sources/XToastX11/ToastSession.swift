import CX11
import XToastCore
import XToastRender

/// Everything needed to show one toast.
public struct ToastRequest: Sendable {
    public var message: String
    public var style: Style
    public var duration: DisplayDuration
    public var monitor: MonitorChoice
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

    public init(
        message: String, style: Style, duration: DisplayDuration, monitor: MonitorChoice, scale: Double?,
        displayName: String?, tag: String?, delivery: Delivery = .now, stack: Bool = false
    ) {
        self.delivery = delivery
        self.stack = stack
        self.message = message
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
    private var compositorEvent: Int32?

    /// Connects and checks what can be checked before waiting (the monitor choice); nothing is
    /// queued or shown until `run`.
    public init(_ request: ToastRequest, display: XDisplay, wakeups: Wakeups, warn: @escaping (String) -> Void) throws(X11Error) {
        self.request = request
        self.wakeups = wakeups
        self.warn = warn
        self.display = display
        _ = try Self.monitors(for: request.monitor, on: display)
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

    /// Joins the queue, calls `queued` (where `--background` detaches), waits for the turn,
    /// shows the toast and returns how it ended.
    public func run(queued: () -> Void) throws(X11Error) -> Outcome {
        let dpy = display.pointer
        // Queue changes arrive as PropertyNotify on the root.
        XSelectInput(dpy, display.root, PropertyChangeMask)
        defer { coordinator.leave() }
        if request.delivery != .now {
            try wakeups.schedule(request.delivery)
            if request.rescheduleAfterZoneChange != nil { wakeups.watchTimeZone() }
            coordinator.joinSchedule()
            XSync(dpy, 0)
            queued()
            if let ending = waitUntilDue() { return ending }
            coordinator.leaveSchedule()
            join()
        } else {
            join()
            queued()
        }

        var showing: Showing?
        var outcome: Outcome?
        var turnMayHaveChanged = true
        var stackMayHaveChanged = false
        var event = XEvent()
        while outcome == nil {
            // Drain everything Xlib has queued or can read before deciding anything: a reply
            // read by some other call may have brought events along that poll would not see.
            while XPending(dpy) > 0 {
                XNextEvent(dpy, &event)
                if let command = coordinator.command(in: &event) {
                    outcome = command == .dismiss ? .dismissed : .replaced
                } else if request.stack && coordinator.affectsStack(&event) {
                    stackMayHaveChanged = true
                } else if coordinator.affectsTurn(&event) {
                    turnMayHaveChanged = true
                } else if let showing, let ending = showing.handle(&event) {
                    outcome = ending
                }
            }
            if outcome != nil { break }
            if showing == nil && request.stack {
                // A stacked toast does not wait for a turn.
                showing = try show()
            } else if showing == nil && turnMayHaveChanged {
                turnMayHaveChanged = false
                switch coordinator.turn() {
                case .mine: showing = try show()
                case .dropped: outcome = .replaced
                case .waiting: break
                }
            }
            if let showing, stackMayHaveChanged {
                stackMayHaveChanged = false
                showing.restack(shifts: showing.monitors.map(stackShift), now: Wakeups.now())
            }
            if let current = showing {
                if let ending = current.step(now: Wakeups.now(), announce: coordinator.announceShown) {
                    outcome = ending
                    break
                }
                wakeups.arm(at: current.nextWake)
            }
            XFlush(dpy)
            if XEventsQueued(dpy, QueuedAlready) > 0 { continue }
            for wake in wakeups.wait(connection: display.fileDescriptor) {
                if case .signal(let number) = wake {
                    outcome = number == SIGUSR1 ? .dismissed : .signalled(number)
                }
            }
        }
        // The windows go before the ticket leaves the queue: the next toast never overlaps.
        showing = nil
        XFlush(dpy)
        return outcome!
    }

    /// Joins the stack or the queue.
    private func join() {
        if request.stack { coordinator.joinStack() } else { coordinator.register() }
        XSync(display.pointer, 0)
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
            for wake in wakeups.wait(connection: display.fileDescriptor) {
                switch wake {
                case .signal(let number): return number == SIGUSR1 ? .dismissed : .signalled(number)
                case .due: return nil
                case .zoneChanged:
                    // "09:00" now means 09:00 in the new zone.
                    if let instant = request.rescheduleAfterZoneChange?() { try? wakeups.schedule(.at(instant)) }
                case .connection, .timer: break
                }
            }
        }
    }

    /// Places the toast on its monitor(s) and maps its window(s).
    private func show() throws(X11Error) -> Showing {
        let style = request.style
        let composited = display.compositorIsRunning()
        let scale = request.scale ?? HiDPI.scale(resources: display.resourceString)
        let targets = try Self.monitors(for: request.monitor, on: display)
        let hold = request.duration.hold(for: request.message)
        let start = coordinator.replacedRect
        // Taking over from a toast with our tag: no fade-in, the box moves from its place.
        let motion: Motion
        if !composited {
            // Without a compositor nothing can fade: the toast simply appears and disappears.
            motion = .none
        } else if start != nil {
            motion = .replacing(over: style.replaceDuration, curve: .easeOut, exit: style.motion.exit)
        } else {
            motion = style.motion
        }
        let direction = style.position.stackDirection
        let shifts = targets.map(stackShift)
        let windows = try zip(targets, shifts).map { monitor, shift throws(X11Error) in
            let metrics = ToastMetrics(style: style, scale: scale, monitorWidth: monitor.rect.width)
            let painter = ToastPainter(message: request.message, style: style, metrics: metrics)
            let offset = Point(x: metrics.offset.x, y: metrics.offset.y + direction * shift)
            let origin = Placement.origin(
                for: painter.boxSize, on: monitor.rect, position: style.position, margin: metrics.margin, offset: offset)
            // The move from the old box never crosses monitors.
            let morphStart = start.flatMap { monitor.rect.contains($0) ? $0 : nil }
            return try ToastWindow(
                display: display, painter: painter, box: Rect(origin: origin, size: painter.boxSize),
                maximumScale: motion.maximumScale, morphStart: morphStart, composited: composited)
        }
        let frameInterval = 1 / (display.refreshRate(of: targets[0].rect) ?? Self.fallbackRefreshRate)
        if compositorEvent == nil { compositorEvent = display.watchCompositor() }
        // Windows mapped or raised over ours arrive as SubstructureNotify on the root.
        XSelectInput(display.pointer, display.root, PropertyChangeMask | SubstructureNotifyMask)
        let showing = Showing(
            display: display, windows: windows, monitors: targets, shifts: shifts, direction: direction,
            slideDuration: style.stackSlideDuration, timeline: Timeline(motion: motion, hold: hold),
            frameInterval: frameInterval, compositorEvent: compositorEvent)
        windows.forEach { $0.map() }
        return showing
    }

    /// The monitors `choice` picks on `display` now.
    private static func monitors(for choice: MonitorChoice, on display: XDisplay) throws(X11Error) -> [Monitor] {
        let needsNames: Bool
        if case .named = choice { needsNames = true } else { needsNames = false }
        let monitors = display.monitors(named: needsNames)
        let pointer = choice == .pointer || choice == .focus ? display.pointerPosition() : nil
        let focus = choice == .focus ? display.focusedWindowRect() : nil
        do {
            let targets = try choice.select(from: monitors, pointer: pointer, focus: focus)
            guard !targets.isEmpty else { throw X11Error.noMonitors }
            return targets
        } catch let error as X11Error {
            throw error
        } catch {
            // Name the monitors so that the user can pick one; indices need no names.
            let named = needsNames ? monitors : display.monitors(named: true)
            throw .unknownMonitor(UnknownMonitorError(choice: choice, available: named.map(\.name)))
        }
    }
}

/// A toast on screen: its windows and its timeline, from the first frame to the last.
private final class Showing {
    let display: XDisplay
    let windows: [ToastWindow]
    let monitors: [Monitor]
    /// Per window, the stack shift it was placed with, and its move towards a new one.
    private let placedShifts: [Int]
    private var slides: [Slide?]
    /// +1 when stacked toasts grow downwards (top, center), -1 upwards (bottom).
    private let direction: Int
    private let slideDuration: Double
    let timeline: Timeline
    let frameInterval: Double
    let compositorEvent: Int32?
    /// The first frame: the timeline counts from here.
    private var start: Double?
    private var nextFrame: Double? = 0
    private var announced = false

    init(
        display: XDisplay, windows: [ToastWindow], monitors: [Monitor], shifts: [Int], direction: Int, slideDuration: Double,
        timeline: Timeline, frameInterval: Double, compositorEvent: Int32?
    ) {
        self.display = display
        self.windows = windows
        self.monitors = monitors
        placedShifts = shifts
        slides = shifts.map { _ in nil }
        self.direction = direction
        self.slideDuration = slideDuration
        self.timeline = timeline
        self.frameInterval = frameInterval
        self.compositorEvent = compositorEvent
    }

    /// When the loop must wake next (monotonic seconds), nil to sleep until an event.
    var nextWake: Double? {
        guard let start else { return nil }
        let timelineWake = nextFrame.map { start + $0 }
        guard let lastMove = movingUntil else { return timelineWake }
        let slideWake = min(Wakeups.now() + frameInterval, lastMove)
        return min(timelineWake ?? slideWake, slideWake)
    }

    /// When the last running slide ends, nil when none runs.
    private var movingUntil: Double? {
        slides.compactMap { $0 }.map { $0.start + $0.duration }.max()
    }

    /// Moves each window towards its new stack shift (a toast before it left or changed).
    func restack(shifts: [Int], now: Double) {
        for (i, shift) in shifts.enumerated() {
            let current = slides[i]?.value(at: now) ?? placedShifts[i]
            guard shift != (slides[i]?.to ?? placedShifts[i]) else { continue }
            slides[i] = Slide(from: current, to: shift, start: now, duration: slideDuration, curve: .easeOut)
        }
    }

    /// Reacts to an event; returns an outcome when the event ends the toast.
    func handle(_ event: inout XEvent) -> Outcome? {
        let type = event.type
        if let compositorEvent, type == compositorEvent + XFixesSelectionNotify {
            let composited = display.compositorIsRunning()
            windows.forEach { $0.setComposited(composited) }
            return nil
        }
        switch type {
        case Expose:
            guard let window = windows.first(where: { $0.window == event.xexpose.window }) else { return nil }
            window.invalidate()
            if start == nil { start = Wakeups.now() }
        case ButtonPress:
            if isOurs(event.xbutton.window) && event.xbutton.button == UInt32(Button1) { return .clicked }
        case MapNotify:
            // Anything newly mapped may cover the toast.
            if !isOurs(event.xmap.window) { raise() }
        case ConfigureNotify:
            // A managed window raised over us. Restacks of other override-redirect windows are
            // not answered: two always-on-top programs answering each other would never stop.
            if !isOurs(event.xconfigure.window) && event.xconfigure.override_redirect == 0 { raise() }
        default:
            break
        }
        return nil
    }

    /// Draws the frame due at `now`, if any; returns `.expired` once the timeline has ended.
    func step(now: Double, announce: (Rect) -> Void) -> Outcome? {
        guard let start else { return nil }
        for (i, slide) in slides.enumerated() {
            guard let slide else { continue }
            windows[i].move(by: direction * (slide.value(at: now) - placedShifts[i]))
            if slide.isFinished(at: now) {
                slides[i] = nil
                announce(windows[i].currentBox)
            }
        }
        let elapsed = now - start
        if timeline.phase(at: elapsed) == .finished { return .expired }
        let frameDue = nextFrame.map { elapsed >= $0 } ?? false
        guard frameDue || windows.contains(where: \.pendingPaint) else { return nil }
        let appearance = timeline.appearance(at: elapsed)
        for window in windows {
            // Cairo out of memory for one frame: the next frame tries again.
            try? window.present(appearance)
        }
        if !announced {
            announced = true
            announce(windows[0].currentBox)
        }
        // Frames only while something moves; while holding, sleep until the exit.
        nextFrame =
            windows.contains(where: \.composited)
            ? timeline.nextFrameTime(after: elapsed, frameInterval: frameInterval)
            : timeline.nextPhaseBoundary(after: elapsed)
        return nil
    }

    private func raise() { windows.forEach { $0.raise() } }

    private func isOurs(_ window: Window) -> Bool { windows.contains { $0.window == window } }
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
