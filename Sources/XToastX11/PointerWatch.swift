import CX11
import XToastCore

/// Tells when the pointer comes onto the toast and goes off it, for pause on hover.
///
/// The pointer counts as over the toast once it *moves* there: a toast that appears under a
/// pointer resting where it shows (a centred HUD, the pointer parked mid-screen) runs its course
/// instead of standing still until somebody happens to move the mouse.
///
/// Two ways to learn it, both silent while the pointer stays still:
/// - A plain toast window gets crossing events (`EnterWindowMask | LeaveWindowMask`) and, once
///   inside, one motion event (`PointerMotionHintMask`: a single hint until the pointer leaves).
///   No round trip ever, no wake-up but for those two or three events per visit.
/// - A click-through window has an empty input shape, so X sends it nothing at all. XInput 2 raw
///   motion, selected on the root, reports every movement of the pointer wherever it is, but
///   carries no position. On the first one the raw events are switched off and the position is
///   asked (`XQueryPointer`), then asked again every `Session.pointerLookInterval` (the session
///   says when: `lookAtPointer`) while the pointer keeps moving; once it stays put, raw motion is switched on again (and the position asked once
///   more, so that a move between the last answer and the switch is not lost). While the pointer
///   rests, on or off the toast: nothing. While it moves: about ten wake-ups and
///   round trips a second (up to three times that when it keeps coming back to the same pixel),
///   however fast the mouse reports, instead of one wake-up per report (125 to 1000 a second).
///   Polling alone would wake the toast all the time it stands still. A warped pointer
///   (`XWarpPointer`: `xdotool mousemove`, a window manager) makes no raw motion: while the
///   pointer rests over the toast (its time standing still), the position is asked once every
///   `Session.pointerRestLookInterval` as well, so a warp away is noticed within a second.
final class PointerWatch {
    let display: XDisplay
    let clickThrough: Bool
    /// The toast's windows: their crossing events are ours.
    private(set) var windows: [Window] = []
    /// The toast's boxes in root coordinates: where the pointer counts as over it
    /// (click-through only). The session keeps them current as boxes move.
    var boxes: [Rect] = []
    /// Whether the pointer is over the toast, as last reported.
    private(set) var isOver = false
    /// Our windows the pointer is in (plain windows), moved or not.
    private var inside: Set<Window> = []
    private var rawMotion: RawMotion?
    /// Following a moving pointer (click-through): `poll()` is to be called again, every
    /// `Session.pointerLookInterval` (the session's `.pointerMoves` tells it).
    private(set) var isFollowing = false
    /// Where the pointer was at the last check while following (nil: not asked, or on another
    /// screen).
    private var last: Point?

    init(display: XDisplay, clickThrough: Bool) {
        self.display = display
        self.clickThrough = clickThrough
    }

    /// The event mask a toast window needs for this watch (plain windows).
    static let windowEventMask = EnterWindowMask | LeaveWindowMask | PointerMotionMask | PointerMotionHintMask

    /// Starts (or, for a new toast, restarts) watching `windows` at `boxes`. The pointer is not
    /// over new windows until it moves: returns `.left` when it was over the old ones. A pointer
    /// being followed is still followed: raw motion stays off until it rests.
    func watch(windows: [Window], boxes: [Rect]) -> HoverChange? {
        self.windows = windows
        self.boxes = boxes
        inside = []
        let wasOver = isOver
        isOver = false
        return wasOver ? .left : nil
    }

    /// Asks for what click-through needs: XInput 2 raw motion on the root (two round trips,
    /// once). Call once the first frame is out. Without XInput 2.2 a
    /// click-through toast simply does not freeze on hover; returns why, for a warning, or nil.
    func start() -> String? {
        guard clickThrough, rawMotion == nil else { return nil }
        switch RawMotion.open(display) {
        case .success(let raw):
            rawMotion = raw
            raw.select(true)
            return nil
        case .failure(let failure):
            return failure.reason
        }
    }

    /// Reads an event; returns a change when it shows the pointer came or went. Raw motion
    /// starts following the pointer (`isFollowing`).
    func handle(_ event: inout XEvent) -> HoverChange? {
        switch event.type {
        case EnterNotify where !clickThrough:
            guard windows.contains(event.xcrossing.window) else { return nil }
            // Moved onto it or appeared under it: only a motion inside tells which.
            inside.insert(event.xcrossing.window)
            return nil
        case MotionNotify where !clickThrough:
            guard windows.contains(event.xmotion.window) else { return nil }
            inside.insert(event.xmotion.window)
            return report(over: true)
        case LeaveNotify where !clickThrough:
            // Also when another client grabs the pointer: the toast is not being looked at then.
            guard windows.contains(event.xcrossing.window) else { return nil }
            inside.remove(event.xcrossing.window)
            return inside.isEmpty ? report(over: false) : nil
        case GenericEvent:
            guard let rawMotion, rawMotion.isMotion(event), !isFollowing else { return nil }
            // Raw events still queued after switching them off are old news.
            rawMotion.select(false)
            isFollowing = true
            last = nil
            return poll()
        default:
            return nil
        }
    }

    /// Checks where the pointer is while following it (click-through; the session's
    /// `lookAtPointer`); stops following once it stays put.
    /// Resting over the toast, it only tells whether the pointer left without moving (a warp).
    func poll() -> HoverChange? {
        guard let rawMotion else { return nil }
        guard isFollowing else { return isOver && !isInside(display.pointerPosition()) ? report(over: false) : nil }
        var position = display.pointerPosition()
        if position == last {
            // Still: listen for raw motion again, and make sure it did not move in between.
            rawMotion.select(true)
            let again = display.pointerPosition()
            if again == position {
                isFollowing = false
                return report(over: isInside(position))
            }
            rawMotion.select(false)
            position = again
        }
        last = position
        return report(over: isInside(position))
    }

    private func isInside(_ position: Point?) -> Bool {
        guard let position else { return false }  // on another screen
        return boxes.contains { $0.contains(position) }
    }

    private func report(over: Bool) -> HoverChange? {
        guard over != isOver else { return nil }
        isOver = over
        return over ? .entered : .left
    }
}

/// XInput 2 raw motion on the root window, spoken through XCB (see the shim: no libXi).
private final class RawMotion {
    let display: XDisplay
    let opcode: Int32

    private init(display: XDisplay, opcode: Int32) {
        self.display = display
        self.opcode = opcode
    }

    /// Two round trips: the extension's opcode, and the version it speaks to us. 2.1 and later
    /// deliver raw events to the root whatever grabs are active.
    static func open(_ display: XDisplay) -> Result<RawMotion, Failure> {
        let opcode = xtoast_xinput_opcode(display.connection)
        guard opcode != 0 else { return .failure(Failure("the X server has no XInput extension")) }
        let version = xtoast_xi_query_version(display.connection)
        guard version >= 201 else {
            return .failure(Failure("the X server speaks XInput \(version / 100).\(version % 100), not 2.1 or later"))
        }
        xtoast_xi_queue_events(display.pointer, Int32(opcode))
        return .success(RawMotion(display: display, opcode: Int32(opcode)))
    }

    struct Failure: Error {
        var reason: String
        init(_ reason: String) { self.reason = "click-through toasts do not pause on hover: " + reason }
    }

    /// Switches raw motion events on or off (a request, no round trip).
    func select(_ on: Bool) {
        xtoast_xi_select_raw_motion(display.connection, UInt32(truncatingIfNeeded: display.root), on ? 1 : 0)
    }

    /// Whether `event` is a raw motion event (that it came is all that matters, not its data).
    func isMotion(_ event: XEvent) -> Bool {
        event.type == GenericEvent && event.xcookie.extension == opcode && event.xcookie.evtype == 17  // XI_RawMotion
    }
}
