import CX11
import XToastCore
import XToastRender

/// A toast on screen: its windows, where they are and where they move. When to draw, when to
/// move and whether to blend are the session's (`Session`); this carries it out.
final class WindowSet {
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
    var compositorEvent: Int32?
    /// Whether what the first frame did not wait for has been asked (see `ToastSession`).
    var isSetUp = false
    /// How each window was placed on its monitor, to place it again when docks or panels come
    /// or go; nil: never again.
    var spots: [Spot]?
    /// A window came, went or changed hands, or the window manager's client list or work area
    /// changed: look at the panels again.
    private var panelsMayHaveChanged = false
    /// The first button went down on this window, over this target (the toast, a button or a
    /// link, as the click it would be): the release decides.
    private var pressed: (window: Window, click: Session.Event)?

    /// What a box's place on its monitor was worked out from.
    struct Spot {
        var size: Size
        var position: Position
        var margin: Int
        var offset: Point
    }

    init(
        display: XDisplay, windows: [ToastWindow], monitors: [Monitor], shifts: [Int], direction: Int, slideDuration: Double,
        slideEasing: TimingCurve, compositorEvent: Int32?
    ) {
        self.display = display
        self.windows = windows
        self.monitors = monitors
        placedShifts = shifts
        slides = shifts.map { _ in nil }
        self.direction = direction
        self.slideDuration = slideDuration
        self.slideEasing = slideEasing
        self.compositorEvent = compositorEvent
    }

    /// Draws the windows blended by a compositor, or shaped and opaque (the session's `blend`).
    func blend(_ composited: Bool) {
        windows.forEach { $0.setComposited(composited) }
    }

    /// Starts moving each window towards its new stack shift (a toast before it left or
    /// changed); returns when the last slide ends (nil: nothing moves), for the session, which
    /// says when to `slide`.
    func restack(shifts: [Int], now: Double) -> Double? {
        for (i, shift) in shifts.enumerated() {
            let current = slides[i]?.value(at: now) ?? placedShifts[i]
            guard shift != (slides[i]?.to ?? placedShifts[i]) else { continue }
            slides[i] = Slide(from: current, to: shift, start: now, duration: slideDuration, curve: slideEasing)
        }
        return slides.compactMap { $0 }.map { $0.start + $0.duration }.max()
    }

    /// Translates an X event about the toast into the session's terms; keeps what is only
    /// geometry (panels that came or went) to itself.
    func handle(_ event: inout XEvent) -> Session.Event? {
        let type = event.type
        if let compositorEvent, type == compositorEvent + XFixesSelectionNotify {
            return .compositorChanged(composited: display.compositorIsRunning())
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
            guard let window = windows.first(where: { $0.window == event.xexpose.window }) else { break }
            window.invalidate()
            return .exposed
        case ButtonPress:
            // A click counts on the release, as dunst's does: closed on the press, the window
            // would go before the release, which would then reach the window below (issue #22).
            guard event.xbutton.button == UInt32(Button1), let window = windows.first(where: { $0.window == event.xbutton.window })
            else { break }
            let point = Point(x: Int(event.xbutton.x), y: Int(event.xbutton.y))
            let target =
                window.button(atWindowPoint: point).map { Session.Event.click(.button($0)) }
                ?? window.link(atWindowPoint: point).map(Session.Event.link)
            pressed = (window.window, target ?? .click(.clicked))
        case ButtonRelease:
            // The press's implicit grab brings the release here, wherever the pointer went: it
            // counts where it was pressed, if released over the same window.
            guard event.xbutton.button == UInt32(Button1), let press = pressed, press.window == event.xbutton.window,
                let window = windows.first(where: { $0.window == press.window })
            else { break }
            pressed = nil
            let point = Point(x: Int(event.xbutton.x), y: Int(event.xbutton.y))
            guard window.contains(windowPoint: point) else { break }
            return press.click
        case MapNotify:
            // A newly mapped window may cover the toast. Not answered for override-redirect
            // windows: a screen locker must stay on top (and other always-on-top programs
            // answering each other would never stop).
            if !isOurs(event.xmap.window) && event.xmap.override_redirect == 0 {
                // It may be a dock, or the frame a window manager put one in.
                panelsMayHaveChanged = true
                return .covered
            }
            // An override-redirect one may be a locker: the session looks (issue #22).
            if !isOurs(event.xmap.window) { return .lockChanged }
        case UnmapNotify:
            if !isOurs(event.xunmap.window) { panelsMayHaveChanged = true }
        case ReparentNotify:
            // A window manager moving a dock into its frame (or out of it, when it quits).
            panelsMayHaveChanged = true
        case ConfigureNotify:
            // A managed window raised over us. Restacks of other override-redirect windows are
            // not answered: two always-on-top programs answering each other would never stop.
            if !isOurs(event.xconfigure.window) && event.xconfigure.override_redirect == 0 { return .covered }
        default:
            break
        }
        return nil
    }

    /// The reply entry's draft in every window (nil: the buttons again).
    func editReply(_ draft: ReplyDraft?, placeholder: String) {
        windows.forEach { $0.editReply(draft.map { ($0.text, placeholder) }) }
    }

    /// Draws every window in `appearance`.
    func present(_ appearance: Appearance, turn: Double) {
        for window in windows {
            // Cairo out of memory for one frame: the next frame tries again.
            try? window.present(appearance, turn: turn)
        }
    }

    /// Places the windows again when panels came or went (once per batch of events);
    /// `announce` publishes the box when it moved.
    func followPanels(announce: (Rect) -> Void) {
        guard panelsMayHaveChanged else { return }
        panelsMayHaveChanged = false
        // Stacked toasts and replacements read where we are.
        if placeAgain() { announce(windows[0].currentBox) }
    }

    /// Moves each sliding window to where its slide is at `now` (the session's `slide`);
    /// `announce` publishes a box that arrived.
    func slide(now: Double, announce: (Rect) -> Void) {
        for (i, slide) in slides.enumerated() {
            guard let slide else { continue }
            windows[i].move(by: direction * (slide.value(at: now) - placedShifts[i]))
            if slide.isFinished(at: now) {
                slides[i] = nil
                announce(windows[i].currentBox)
            }
        }
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

    func raise() { windows.forEach { $0.raise() } }

    /// Unmaps the windows: the screen is locked or blank (the session's `withdraw`).
    func withdraw() { windows.forEach { $0.unmap() } }

    /// Maps them again, on top, to be drawn anew (the session's `restore`).
    func restore() {
        windows.forEach {
            $0.invalidate()
            $0.map()
        }
    }

    private func isOurs(_ window: Window) -> Bool { windows.contains { $0.window == window } }
}
