import CX11
import Glibc
import XToastCore

/// What a toast window's SHAPE should be: its size, the (scaled) box inside it, and how the
/// edges are cut.
struct WindowShape: Equatable {
    var size: Size
    /// The box inside the window, in window coordinates.
    var box: Rect
    /// Where clicks land: the box at its own size (a scale never moves a click target); nil:
    /// nowhere, clicks go to the window below (`--click-through`).
    var input: Rect?
    var radius: Double
    var composited: Bool
    var ownShadow: Bool
}

/// The window's properties for compositors and window managers, its shape and its opacity.
extension ToastWindow {
    /// Names and types the window so that compositors, window managers and their rules know it
    /// is a notification (`WM_CLASS` xtoast/Xtoast) that never wants the keyboard.
    func setProperties() {
        let dpy = display.pointer
        let atoms = display.atoms
        "xtoast".withCString { name in
            "Xtoast".withCString { cls in
                var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: name), res_class: UnsafeMutablePointer(mutating: cls))
                XSetClassHint(dpy, window, &hint)
            }
            XStoreName(dpy, window, name)
            XChangeProperty(dpy, window, atoms.wmName, atoms.utf8String, 8, PropModeReplace, name, Int32(strlen(name)))
        }
        display.setListProperty(window, atoms.windowType, type: Atom(XA_ATOM), [atoms.windowTypeNotification])
        display.setListProperty(window, atoms.wmState, type: Atom(XA_ATOM), [atoms.wmStateAbove, atoms.wmStateSkipTaskbar])
        display.setListProperty(window, atoms.wmPid, type: Atom(XA_CARDINAL), [UInt(getpid())])
        // A style with a shadow of its own (the alert's) asks picom not to add another around
        // the room kept for it.
        if drawsOwnShadow { display.setListProperty(window, atoms.compositorShadow, type: Atom(XA_CARDINAL), [0]) }
        var hints = XWMHints()
        hints.flags = InputHint
        hints.input = 0
        XSetWMHints(dpy, window, &hints)
    }

    /// Hands the toast's opacity to the compositor (`_NET_WM_WINDOW_OPACITY`, 0 to 2³²−1): one
    /// small request, sent only when the value changes.
    func setOpacity(_ opacity: Double) {
        let value = UInt(Appearance(opacity: opacity).opacityProperty)
        guard value != appliedOpacity else { return }
        appliedOpacity = value
        display.setListProperty(window, display.atoms.windowOpacity, type: Atom(XA_CARDINAL), [value])
    }

    /// Cuts the window to the rounded box, and lets clicks land only on the box. Without a
    /// compositor the edge is the best 1-bit one (no black corners); with one it keeps every
    /// pixel the curve touches (their alpha blends) and tells the compositor the box's outline,
    /// so that its shadow has no notches. With a shadow of our own the window stays whole.
    func setShape(_ shape: WindowShape) {
        guard shape != appliedShape, hasShape else { return }
        let previous = appliedShape
        appliedShape = shape
        if previous == nil || shape.input != previous?.input { setInputShape(shape.input) }
        let bounding = UInt8(XCB_SHAPE_SK_BOUNDING.rawValue)
        if shape.composited && shape.ownShadow {
            // No mask: the plain rectangle again. Sent once: compositors read the bounding shape
            // again after every change.
            guard previous?.composited != true || previous?.ownShadow != true else { return }
            xcb_shape_mask(display.connection, UInt8(XCB_SHAPE_SO_SET.rawValue), bounding, xcbWindow, 0, 0, 0)
        } else {
            let coverage: RoundedRectShape.Coverage = shape.composited ? .any : .centre
            let rows = RoundedRectShape.rectangles(size: shape.box.size, radius: shape.radius, coverage: coverage)
            combineShape(bounding, rows.map { $0.offsetBy(shape.box.x, shape.box.y) })
        }
    }

    /// Lets clicks land on `rect` (window coordinates) only; nil: nowhere, an empty input shape,
    /// so that they reach whatever is below and the pointer is never in the window.
    func setInputShape(_ rect: Rect?) {
        guard hasShape else { return }
        combineShape(UInt8(XCB_SHAPE_SK_INPUT.rawValue), rect.map { [$0] } ?? [])
    }

    /// SHAPE through XCB, whose opcode came with the atoms: Xlib would ask for it first, one
    /// round trip before the first frame. Without the extension (XCB would close the connection
    /// for a request to it) the window stays rectangular.
    private func combineShape(_ kind: UInt8, _ rects: [Rect]) {
        let rectangles = rects.map {
            xcb_rectangle_t(
                x: Int16(clamping: $0.x), y: Int16(clamping: $0.y), width: UInt16(clamping: $0.width), height: UInt16(clamping: $0.height))
        }
        xcb_shape_rectangles(
            display.connection, UInt8(XCB_SHAPE_SO_SET.rawValue), kind, UInt8(XCB_CLIP_ORDERING_UNSORTED.rawValue), xcbWindow, 0, 0,
            UInt32(rectangles.count), rectangles)
    }

    private var hasShape: Bool { xtoast_shape_opcode(display.connection) != 0 }
    private var xcbWindow: xcb_window_t { xcb_window_t(truncatingIfNeeded: window) }
}
