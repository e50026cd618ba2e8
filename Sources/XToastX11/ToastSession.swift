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

    public init(
        message: String, style: Style, duration: DisplayDuration, monitor: MonitorChoice, scale: Double?, displayName: String?
    ) {
        self.message = message
        self.style = style
        self.duration = duration
        self.monitor = monitor
        self.scale = scale
        self.displayName = displayName
    }
}

/// How a toast ended.
public enum Outcome: Equatable, Sendable {
    case expired, clicked, dismissed
    /// Ended by a terminating signal, which the command passes on in its exit status.
    case signalled(Int32)

    /// The word `--print-outcome` prints.
    public var word: String {
        switch self {
        case .expired: "expired"
        case .clicked: "clicked"
        case .dismissed, .signalled: "dismissed"
        }
    }
}

/// Shows one toast on an X display and runs it to its end.
public final class ToastSession {
    private let display: XDisplay
    private let wakeups: Wakeups
    private let timeline: Timeline
    private let windows: [ToastWindow]
    private let frameInterval: Double
    private let compositorEvent: Int32?

    /// Connects, places and creates the window(s); nothing is shown until `run`.
    public init(_ request: ToastRequest, wakeups: Wakeups) throws(X11Error) {
        self.wakeups = wakeups
        let display = try XDisplay(name: request.displayName)
        self.display = display
        let scale = request.scale ?? HiDPI.scale(resources: display.resourceString)
        let composited = display.compositorIsRunning()

        let choice = request.monitor
        let needsNames: Bool
        if case .named = choice { needsNames = true } else { needsNames = false }
        let monitors = display.monitors(named: needsNames)
        let pointer = choice == .pointer || choice == .focus ? display.pointerPosition() : nil
        let focus = choice == .focus ? display.focusedWindowRect() : nil
        let targets: [Monitor]
        do {
            targets = try choice.select(from: monitors, pointer: pointer, focus: focus)
        } catch {
            // Name the monitors so that the user can pick one; indices need no names.
            let named = needsNames ? monitors : display.monitors(named: true)
            throw .unknownMonitor(UnknownMonitorError(choice: choice, available: named.map(\.name)))
        }
        guard let first = targets.first else { throw .noMonitors }

        // Without a compositor nothing can fade: the toast simply appears and disappears.
        let motion = composited ? request.style.motion : .none
        timeline = Timeline(motion: motion, hold: request.duration.hold(for: request.message))
        windows = try targets.map { monitor throws(X11Error) in
            let metrics = ToastMetrics(style: request.style, scale: scale, monitorWidth: monitor.rect.width)
            let painter = ToastPainter(message: request.message, style: request.style, metrics: metrics)
            let origin = Placement.origin(
                for: painter.boxSize, on: monitor.rect, position: request.style.position, margin: metrics.margin,
                offset: metrics.offset)
            return try ToastWindow(
                display: display, painter: painter, box: Rect(origin: origin, size: painter.boxSize),
                maximumScale: motion.maximumScale, composited: composited)
        }
        frameInterval = 1 / (display.refreshRate(of: first.rect) ?? ToastSession.fallbackRefreshRate)
        compositorEvent = display.watchCompositor()
        XSelectInput(display.pointer, display.root, SubstructureNotifyMask)
    }

    /// Frames per second when RandR does not know the monitor's refresh rate.
    static let fallbackRefreshRate = 60.0

    /// Maps the window(s) and runs the timeline until it ends, is clicked or is signalled.
    public func run() -> Outcome {
        let dpy = display.pointer
        windows.forEach { $0.map() }
        XFlush(dpy)

        var start: Double?  // the first frame: the timeline counts from here
        var nextFrame: Double? = 0
        var outcome: Outcome?
        var mustRaise = false
        var event = XEvent()
        while outcome == nil {
            // Drain everything Xlib has queued or can read before deciding anything: a reply
            // read by some other call may have brought events along that poll would not see.
            while XPending(dpy) > 0 {
                XNextEvent(dpy, &event)
                switch handle(&event) {
                case .none: break
                case .exposed: if start == nil { start = Wakeups.now() }
                case .clicked: outcome = .clicked
                case .raise: mustRaise = true
                }
            }
            if outcome != nil { break }
            if let start {
                let elapsed = Wakeups.now() - start
                if timeline.phase(at: elapsed) == .finished {
                    outcome = .expired
                    break
                }
                let frameDue = nextFrame.map { elapsed >= $0 } ?? false
                if frameDue || windows.contains(where: \.pendingPaint) {
                    present(timeline.appearance(at: elapsed))
                    let composited = windows.contains(where: \.composited)
                    // Frames only while something moves; while holding, sleep until the exit.
                    nextFrame =
                        composited
                        ? timeline.nextFrameTime(after: elapsed, frameInterval: frameInterval)
                        : timeline.nextPhaseBoundary(after: elapsed)
                }
                wakeups.arm(at: nextFrame.map { start + $0 })
            }
            if mustRaise {
                windows.forEach { $0.raise() }
                mustRaise = false
            }
            XFlush(dpy)
            if XEventsQueued(dpy, QueuedAlready) > 0 { continue }
            for wake in wakeups.wait(connection: display.fileDescriptor) {
                if case .signal(let number) = wake {
                    outcome = number == SIGUSR1 ? .dismissed : .signalled(number)
                }
            }
        }
        return outcome!
    }

    private enum Reaction { case none, exposed, clicked, raise }

    private func handle(_ event: inout XEvent) -> Reaction {
        let type = event.type
        if let compositorEvent, type == compositorEvent + XFixesSelectionNotify {
            let composited = display.compositorIsRunning()
            windows.forEach { $0.setComposited(composited) }
            return .none
        }
        switch type {
        case Expose:
            guard let window = windows.first(where: { $0.window == event.xexpose.window }) else { return .none }
            window.invalidate()
            return .exposed
        case ButtonPress:
            let ours = windows.contains { $0.window == event.xbutton.window }
            return ours && event.xbutton.button == UInt32(Button1) ? .clicked : .none
        case MapNotify:
            // Anything newly mapped may cover the toast.
            return isOurs(event.xmap.window) ? .none : .raise
        case ConfigureNotify:
            // A managed window raised over us. Restacks of other override-redirect windows are
            // not answered: two always-on-top programs answering each other would never stop.
            return isOurs(event.xconfigure.window) || event.xconfigure.override_redirect != 0 ? .none : .raise
        default:
            return .none
        }
    }

    private func isOurs(_ window: Window) -> Bool { windows.contains { $0.window == window } }

    private func present(_ appearance: Appearance) {
        for window in windows {
            do {
                try window.present(appearance)
            } catch {
                // Cairo ran out of memory for one frame: the next frame tries again.
                continue
            }
        }
    }
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
