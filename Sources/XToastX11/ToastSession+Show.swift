import CX11
import XToastCore
import XToastRender

/// Putting the toast on screen: the monitors, the windows, what is asked after the first frame.
extension ToastSession {
    /// What the screen is like for the toast about to show (the session picks its timeline
    /// from it): the view at start if still fresh, or the monitors asked now, kept for `show`.
    /// "Reduce motion" is asked only where motion could be seen at all.
    func lookAtScreen() throws(X11Error) -> Session.Screen {
        let view = try self.view.use(orAsk: askView)
        let composited = view.composited ?? display.compositorIsRunning()
        let reducesMotion = composited && request.followsReducedMotion && display.reducesMotion(manager: view.settingsManager)
        return Session.Screen(composited: composited, reducesMotion: reducesMotion, replacing: queue.replacedRect != nil)
    }

    /// The monitors the toast goes on, and their docks, asked now.
    func askView() throws(X11Error) -> StartingView {
        let (targets, panels) = try Self.monitors(for: request.monitor, on: display)
        return StartingView(targets: targets, panels: panels)
    }

    /// How far a stacked toast on screen sits from its own place on `monitor`: past the boxes
    /// placed before it.
    func stackShift(on monitor: Monitor) -> Int {
        guard request.stack else { return 0 }
        return Stack.shift(past: queue.stackedBoxes(), on: monitor.rect, gap: stackGap)
    }

    /// Pixels between stacked toasts (`--stack-gap`, scaled).
    private var stackGap: Int {
        let scale = request.scale ?? HiDPI.scale(resources: display.resourceString)
        return Int((request.style.stackGap * scale).rounded())
    }

    /// Places the toast on its monitor(s) and maps its window(s), on the timeline and in the way
    /// (blended or not) the session picked; with `morphingFrom`, it grows out of that box (a
    /// toast with our tag, or our own before an update).
    /// Returns nil, mapping nothing, when a stacked toast finds no room on a monitor.
    func show(
        _ content: ToastContent, on timeline: Timeline, composited: Bool, morphingFrom old: Rect?, progress oldProgress: Double?
    ) throws(X11Error) -> WindowSet? {
        let style = request.style
        let view = try self.view.take(orAsk: askView)
        let scale = request.scale ?? HiDPI.scale(resources: display.resourceString)
        // The docks' struts were asked with the monitors and have travelled since.
        let targets = view.panels.resolve().apply(to: view.targets, screen: display.screenSize)
        let start = old ?? queue.replacedRect
        // The bar moves from the replaced toast's value to ours.
        let startProgress = old != nil ? oldProgress : queue.replacedProgress
        let laidOut = try targets.map { monitor throws(X11Error) in
            let metrics = ToastMetrics(style: style, scale: scale, monitor: monitor.workArea.size)
            let painter: ToastPainter
            do {
                painter = try ToastPainter(content: content, style: style, metrics: metrics)
            } catch {
                throw X11Error.system(String(describing: error))
            }
            if painter.markupFailed && monitor == targets[0] { warn(ToastPainter.markupWarning) }
            if let warning = painter.iconWarning, monitor == targets[0] { warn(warning) }
            let spot = Stack.Spot(
                size: painter.boxSize, workArea: monitor.workArea, monitor: monitor.rect, position: style.position,
                margin: metrics.margin, offset: metrics.offset)
            return (monitor: monitor, painter: painter, spot: spot)
        }
        // A new stacked toast takes its place past the ones placed before it, or waits for room;
        // an update in place (`old`) keeps its place.
        let shifts: [Int]
        if request.stack && old == nil {
            let placing = QueueMember.Placing(spots: laidOut.map(\.spot), gap: stackGap, progress: content.progress?.percent)
            guard let placed = queue.placeInStack(placing) else { return nil }
            shifts = placed
        } else {
            shifts = targets.map(stackShift)
        }
        let windows = try zip(laidOut, shifts).map { laid, shift throws(X11Error) in
            let (monitor, painter, box) = (laid.monitor, laid.painter, laid.spot.box(shift: shift))
            // The move from the old box never crosses monitors.
            let morphStart = start.flatMap { monitor.rect.contains($0) ? $0 : nil }
            return try ToastWindow(
                display: display, painter: painter, box: box, maximumScale: timeline.motion.maximumScale, morphStart: morphStart,
                morphProgress: startProgress, composited: composited, clickThrough: request.clickThrough)
        }
        // Windows mapped or raised over ours arrive as SubstructureNotify on the root.
        display.listenOnRoot(PropertyChangeMask | SubstructureNotifyMask, as: .windows)
        let showing = WindowSet(
            display: display, windows: windows, monitors: targets, shifts: shifts, direction: style.position.stackDirection,
            slideDuration: style.stackSlideDuration, slideEasing: style.transitionEasing, compositorEvent: compositorEvent)
        showing.spots = zip(laidOut, shifts).map { laid, shift in
            WindowSet.Spot(
                size: laid.spot.size, position: laid.spot.position, margin: laid.spot.margin, offset: laid.spot.offset(shift: shift))
        }
        // New windows start not hovered: the pointer must move onto them (a toast that appears
        // under a resting pointer runs its course). Content under the pointer stays frozen in
        // the session.
        _ = pointer.watch(windows: windows.map(\.window), boxes: windows.map(\.currentBox))
        windows.forEach { $0.map() }
        // Drawn at once (the session's first frame comes next), not after the Expose: the server
        // handles the map before the drawing.
        return showing
    }

    /// What a toast needs only once its first frame is out, asked then so that the first frame
    /// waits for fewer round trips: the monitor's refresh rate, and news of compositors. Both
    /// go to the session: the events to tell it.
    func finishSetUp(_ showing: WindowSet) throws(X11Error) -> [Session.Event] {
        let monitor = showing.monitors[0].rect
        // Known refresh rates are kept: an update on the same monitor asks nothing.
        let interval = frameIntervals[monitor] ?? 1 / (display.refreshRate(of: monitor) ?? Self.fallbackRefreshRate)
        frameIntervals[monitor] = interval
        let watchesNow = watches.insert(.compositor).inserted
        if watchesNow { compositorEvent = display.watchCompositor() }
        showing.compositorEvent = compositorEvent
        if watches.insert(.pointer).inserted, let why = pointer.start() { warn(why) }
        showing.isSetUp = true
        // A compositor that came or went before the watch began: drawn again, the other way.
        return [.frameInterval(interval)] + (watchesNow ? [.compositorChanged(composited: display.compositorIsRunning())] : [])
    }

    /// The monitors `choice` picks on `display` now, and their docks' struts on their way.
    static func monitors(for choice: MonitorChoice, on display: XDisplay) throws(X11Error) -> (
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
struct StartingView {
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
