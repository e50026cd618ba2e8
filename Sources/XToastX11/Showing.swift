import CX11
import XToastCore
import XToastRender

/// A toast on screen: its windows and its timeline, from the first frame to the last.
final class Showing {
    let display: XDisplay
    let windows: [ToastWindow]
    let monitors: [Monitor]
    /// Per window, the stack shift it was placed with, and its move towards a new one.
    private let placedShifts: [Int]
    private var slides: [Slide?]
    /// +1 when stacked toasts grow downwards (top, center), -1 upwards (bottom).
    private let direction: Int
    private let slideDuration: Double
    private let slideEasing: TimingCurve
    let timeline: Timeline
    /// The timeline under the pointer: it stands still while the pointer is over the toast.
    /// (Minimal wiring of pause on hover, issue #14; the session machine takes it over.)
    private(set) var clock: HeldTimeline
    var frameInterval: Double
    var compositorEvent: Int32?
    /// Whether what the first frame did not wait for has been asked (see `ToastSession`).
    var isSetUp = false
    /// Seconds between spinner frames, nil without a spinner.
    let spinnerInterval: Double?
    let spinnerPeriod: Double
    /// The first frame: the timeline counts from here.
    private var start: Double?
    private var nextFrame: Double? = 0
    private var announced = false
    /// How each window was placed on its monitor, to place it again when docks or panels come
    /// or go; nil: never again.
    var spots: [Spot]?
    /// A window came, went or changed hands, or the window manager's client list or work area
    /// changed: look at the panels again.
    private var panelsMayHaveChanged = false

    /// What a box's place on its monitor was worked out from.
    struct Spot {
        var size: Size
        var position: Position
        var margin: Int
        var offset: Point
    }

    init(
        display: XDisplay, windows: [ToastWindow], monitors: [Monitor], shifts: [Int], direction: Int, slideDuration: Double,
        slideEasing: TimingCurve,
        timeline: Timeline, frameInterval: Double, compositorEvent: Int32?, spinner: (interval: Double, period: Double)?,
        hoverMinimumHold: Double = 0
    ) {
        clock = HeldTimeline(timeline, minimumHold: hoverMinimumHold)
        spinnerInterval = spinner?.interval
        spinnerPeriod = spinner?.period ?? 1
        self.display = display
        self.windows = windows
        self.monitors = monitors
        placedShifts = shifts
        slides = shifts.map { _ in nil }
        self.direction = direction
        self.slideDuration = slideDuration
        self.slideEasing = slideEasing
        self.timeline = timeline
        self.frameInterval = frameInterval
        self.compositorEvent = compositorEvent
    }

    /// Starts the timeline with the windows just mapped. Its first state is usually invisible
    /// (alpha 0): the first frame shows the state one frame in, so that the first thing drawn
    /// is something to see.
    func begin(now: Double) {
        start = now - frameInterval
    }

    /// The pointer came onto the toast or left it: its clock stops or goes on, and the next
    /// frame is planned again at once.
    func hover(_ change: HoverChange, now: Double) {
        guard let start else { return }
        clock.apply(change, at: now - start)
        nextFrame = now - start
    }

    /// A compositor started or stopped: switches how the windows are drawn.
    func compositorMayHaveChanged() {
        let composited = display.compositorIsRunning()
        windows.forEach { $0.setComposited(composited) }
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
            slides[i] = Slide(from: current, to: shift, start: now, duration: slideDuration, curve: slideEasing)
        }
    }

    /// Reacts to an event; returns an outcome when the event ends the toast.
    func handle(_ event: inout XEvent) -> Outcome? {
        let type = event.type
        if let compositorEvent, type == compositorEvent + XFixesSelectionNotify {
            compositorMayHaveChanged()
            return nil
        }
        switch type {
        case PropertyNotify:
            // A window manager that lists docks changes its client list when one comes or goes;
            // one that draws its own panels changes the work area.
            let atom = event.xproperty.atom
            if event.xproperty.window == display.root && (atom == display.atoms.clientList || atom == display.atoms.workArea) {
                panelsMayHaveChanged = true
            }
        case Expose:
            windows.first { $0.window == event.xexpose.window }?.invalidate()
        case ButtonPress:
            guard event.xbutton.button == UInt32(Button1), let window = windows.first(where: { $0.window == event.xbutton.window })
            else { break }
            let point = Point(x: Int(event.xbutton.x), y: Int(event.xbutton.y))
            return window.button(atWindowPoint: point).map(Outcome.button) ?? .clicked
        case MapNotify:
            // A newly mapped window may cover the toast. Not answered for override-redirect
            // windows: a screen locker must stay on top (and other always-on-top programs
            // answering each other would never stop).
            if !isOurs(event.xmap.window) && event.xmap.override_redirect == 0 {
                raise()
                // It may be a dock, or the frame a window manager put one in.
                panelsMayHaveChanged = true
            }
        case UnmapNotify:
            if !isOurs(event.xunmap.window) { panelsMayHaveChanged = true }
        case ReparentNotify:
            // A window manager moving a dock into its frame (or out of it, when it quits).
            panelsMayHaveChanged = true
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
        if panelsMayHaveChanged {
            panelsMayHaveChanged = false
            // Stacked toasts and replacements read where we are.
            if placeAgain() && announced { announce(windows[0].currentBox) }
        }
        for (i, slide) in slides.enumerated() {
            guard let slide else { continue }
            windows[i].move(by: direction * (slide.value(at: now) - placedShifts[i]))
            if slide.isFinished(at: now) {
                slides[i] = nil
                announce(windows[i].currentBox)
            }
        }
        let elapsed = now - start
        // A mapped window is drawn once even when its time is up already (no fade and
        // `--duration 0`): the toast was there, however briefly.
        let finished = clock.isFinished(at: elapsed)
        if finished && announced { return .expired }
        let frameDue = nextFrame.map { elapsed >= $0 } ?? false
        guard frameDue || finished || windows.contains(where: \.pendingPaint) else { return nil }
        let appearance = clock.appearance(at: elapsed)
        let turn = elapsed / spinnerPeriod
        for window in windows {
            // Cairo out of memory for one frame: the next frame tries again.
            try? window.present(appearance, turn: turn)
        }
        if !announced {
            announced = true
            announce(windows[0].currentBox)
        }
        if finished { return .expired }
        // Frames only while something moves; while holding, sleep until the exit, unless a
        // spinner turns.
        nextFrame =
            windows.contains(where: \.composited)
            ? clock.nextFrameTime(after: elapsed, frameInterval: frameInterval)
            : clock.nextPhaseBoundary(after: elapsed)
        if let spinnerInterval, !clock.isFinished(at: elapsed) {
            let tick = ((elapsed / spinnerInterval).rounded(.down) + 1) * spinnerInterval
            nextFrame = min(nextFrame ?? tick, tick)
        }
        return nil
    }

    /// Moves each box to where it goes on its monitor's work area now, and says whether any
    /// moved. Two or three round trips (the root's list and children, their struts, under i3
    /// the frames' children's), once per burst of changes, never while nothing changes.
    private func placeAgain() -> Bool {
        guard let spots else { return false }
        let panels = PendingPanels(display: display, display.askPanels()).resolve()
        let areas = panels.apply(to: monitors, screen: display.screenSize).map(\.workArea)
        var moved = false
        for (window, (spot, area)) in zip(windows, zip(spots, areas)) {
            let origin = Placement.origin(for: spot.size, on: area, position: spot.position, margin: spot.margin, offset: spot.offset)
            moved = moved || origin != window.box.origin
            window.relocate(to: origin)
        }
        return moved
    }

    private func raise() { windows.forEach { $0.raise() } }

    private func isOurs(_ window: Window) -> Bool { windows.contains { $0.window == window } }
}
