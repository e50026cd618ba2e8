import CCairo
import CX11
import Glibc
import XToastCore
import XToastRender

/// One override-redirect toast window: made once, then each frame only composites the content
/// that was drawn once into a server-side surface.
final class ToastWindow {
    let display: XDisplay
    let window: Window
    /// The window on the screen; larger than the box when the motion scales up.
    let frame: Rect
    /// The box inside the window.
    let box: Rect
    private let painter: ToastPainter
    private let colormap: Colormap
    private let surface: CairoSurface
    private let context: OpaquePointer
    private var content: CairoSurface?
    /// The text alone, for frames where the box moves under it.
    private var textLayer: CairoSurface?
    /// The replaced toast's box, in root coordinates, that ours grows out of.
    private let morphStart: Rect?
    /// The replaced toast's progress value, that our bar moves from.
    private let morphProgress: Double?

    /// Our progress value, for a toast that replaces this one.
    var progress: Double? { painter.progress?.percent }
    private(set) var composited: Bool
    /// Without a compositor the window is painted once, then only after an expose.
    private var needsPaint = true

    /// Makes (but does not map) a window showing `painter`'s box at `box`, with room around it
    /// for the motion's `maximumScale` and for the box it moves from (`morphStart`).
    init(
        display: XDisplay, painter: ToastPainter, box: Rect, maximumScale: Double, morphStart: Rect?, morphProgress: Double?,
        composited: Bool
    ) throws(X11Error) {
        self.display = display
        self.painter = painter
        self.box = box
        self.composited = composited
        // The drawing (box and shadow), grown around the box's centre for the largest scale.
        let m = painter.margins
        let factor = max(maximumScale, 1)
        let left = Int((Double(box.width / 2 + m.left) * factor).rounded(.up))
        let right = Int((Double(box.width - box.width / 2 + m.right) * factor).rounded(.up))
        let top = Int((Double(box.height / 2 + m.top) * factor).rounded(.up))
        let bottom = Int((Double(box.height - box.height / 2 + m.bottom) * factor).rounded(.up))
        let centre = Point(x: box.x + box.width / 2, y: box.y + box.height / 2)
        var frame = Rect(x: centre.x - left, y: centre.y - top, width: left + right, height: top + bottom)
        if let morphStart { frame = frame.union(morphStart) }
        self.frame = frame
        self.morphStart = morphStart
        self.morphProgress = morphProgress

        let dpy = display.pointer
        var info = XVisualInfo()
        // A 32-bit visual carries per-pixel alpha to a compositor; it is used even when none
        // runs yet, so that one starting later finds a window it can blend.
        let hasARGB = XMatchVisualInfo(dpy, display.screen, 32, TrueColor, &info) != 0
        let visual = hasARGB ? info.visual : XDefaultVisual(dpy, display.screen)
        let depth = hasARGB ? Int32(32) : XDefaultDepth(dpy, display.screen)
        colormap = XCreateColormap(dpy, display.root, visual, AllocNone)

        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.colormap = colormap
        attributes.border_pixel = 0
        attributes.save_under = 1
        attributes.event_mask = ExposureMask | ButtonPressMask
        var mask = UInt(CWOverrideRedirect | CWColormap | CWBorderPixel | CWEventMask | CWSaveUnder)
        if composited {
            // Transparent until the first frame: the compositor never shows an unpainted box.
            attributes.background_pixel = 0
            mask |= UInt(CWBackPixel)
        } else {
            // No background: the server leaves the screen as it was until the first paint,
            // instead of flashing a black box.
            attributes.background_pixmap = 0
            mask |= UInt(CWBackPixmap)
        }
        window = XCreateWindow(
            dpy, display.root, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height), 0, depth,
            UInt32(InputOutput), visual, mask, &attributes)
        guard window != 0 else {
            XFreeColormap(dpy, colormap)
            throw .cannotCreateWindow("XCreateWindow failed")
        }
        do {
            surface = try CairoSurface(
                taking: cairo_xlib_surface_create(dpy, window, visual, Int32(frame.width), Int32(frame.height))!,
                size: frame.size, what: "cannot draw on the window")
        } catch {
            XDestroyWindow(dpy, window)
            XFreeColormap(dpy, colormap)
            throw .cannotCreateWindow(error.description)
        }
        context = cairo_create(surface.pointer)
        setProperties()
        // Clicks pass through the room around the box (none for a plain toast at scale 1).
        if frame != box { setInputShape() }
        if !composited { setBoundingShape(rounded: true) }
    }

    deinit {
        cairo_destroy(context)
        content = nil
        textLayer = nil
        XDestroyWindow(display.pointer, window)
        XFreeColormap(display.pointer, colormap)
    }

    /// Names and types the window so that compositors, window managers and their rules know it
    /// is a notification (`WM_CLASS` xtoast/Xtoast) that never wants the keyboard.
    private func setProperties() {
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
        setAtomProperty(atoms.windowType, [atoms.windowTypeNotification], type: Atom(XA_ATOM))
        setAtomProperty(atoms.wmState, [atoms.wmStateAbove, atoms.wmStateSkipTaskbar], type: Atom(XA_ATOM))
        setAtomProperty(atoms.wmPid, [UInt(getpid())], type: Atom(XA_CARDINAL))
        var hints = XWMHints()
        hints.flags = InputHint
        hints.input = 0
        XSetWMHints(dpy, window, &hints)
    }

    private func setAtomProperty(_ property: Atom, _ values: [UInt], type: Atom) {
        // Format-32 property data is C long: 8 bytes here.
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(
                display.pointer, window, property, type, 32, PropModeReplace,
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    /// Clicks land only on the box, not on the room left around it for scaling.
    private func setInputShape() {
        let inner = Rect(x: box.x - frame.x, y: box.y - frame.y, width: box.width, height: box.height)
        combineShape(UInt8(XCB_SHAPE_SK_INPUT.rawValue), [inner])
    }

    /// Cuts the window to the rounded box (no compositor: 1-bit corners instead of black ones),
    /// or restores the plain rectangle.
    private func setBoundingShape(rounded: Bool) {
        let bounding = UInt8(XCB_SHAPE_SK_BOUNDING.rawValue)
        guard rounded else {
            // No mask: the plain rectangle again.
            guard hasShape else { return }
            xcb_shape_mask(display.connection, UInt8(XCB_SHAPE_SO_SET.rawValue), bounding, xcbWindow, 0, 0, 0)
            return
        }
        let offset = Point(x: box.x - frame.x, y: box.y - frame.y)
        let rows = RoundedRectShape.rectangles(size: box.size, radius: painter.metrics.cornerRadius).map {
            Rect(x: $0.x + offset.x, y: $0.y + offset.y, width: $0.width, height: $0.height)
        }
        combineShape(bounding, rows)
    }

    /// SHAPE through XCB, whose opcode came with the atoms: Xlib would ask for it first, one
    /// round trip before the first frame. Without the extension (XCB would close the connection
    /// for a request to it) the window stays rectangular.
    private func combineShape(_ kind: UInt8, _ rects: [Rect]) {
        guard hasShape else { return }
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

    /// How far the window has moved down from where it was made (stacked toasts close gaps).
    private(set) var verticalShift = 0

    /// The box where it is now, in root coordinates.
    var currentBox: Rect { Rect(x: box.x, y: box.y + verticalShift, width: box.width, height: box.height) }

    func move(by dy: Int) {
        guard dy != verticalShift else { return }
        verticalShift = dy
        XMoveWindow(display.pointer, window, Int32(frame.x), Int32(frame.y + dy))
    }

    func map() { XMapRaised(display.pointer, window) }
    func raise() { XRaiseWindow(display.pointer, window) }

    /// The compositor came or went: switch between blended and shaped-opaque drawing.
    func setComposited(_ value: Bool) {
        guard value != composited else { return }
        composited = value
        content = nil
        setBoundingShape(rounded: !value)
        needsPaint = true
    }

    /// Whether the window must be painted even though no frame is due.
    var pendingPaint: Bool { needsPaint }

    /// The server lost the window's pixels (exposed): paint again at the next frame.
    func invalidate() { needsPaint = true }

    /// Shows the toast at `appearance`. With a compositor: the content composited at that
    /// opacity and scale. Without one there is nothing to blend: the opaque content, once.
    func present(_ appearance: Appearance, turn: Double) throws(RenderError) {
        // A turning spinner repaints every frame, also on a plain (opaque) window.
        guard composited || needsPaint || painter.hasSpinner else { return }
        let cr = context
        cairo_save(cr)
        if composited {
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        }
        // Without a compositor the opaque content covers the whole shaped window: clearing
        // first would flash black (a spinner repaints 30 times a second).
        if composited, appearance.morph < 1, let morphStart {
            try presentMorph(appearance, from: morphStart)
        } else {
            let content = try preparedContent()
            let scale = composited ? appearance.scale : 1
            cairo_translate(cr, Double(box.x - frame.x + box.width / 2), Double(box.y - frame.y + box.height / 2))
            cairo_scale(cr, scale, scale)
            cairo_translate(cr, -Double(box.width / 2 + painter.margins.left), -Double(box.height / 2 + painter.margins.top))
            cairo_set_source_surface(cr, content.pointer, 0, 0)
            let opacity = composited ? min(max(appearance.opacity, 0), 1) : 1
            cairo_paint_with_alpha(cr, opacity)
            if painter.hasSpinner {
                // The only part drawn anew each frame: a ring and an arc.
                cairo_translate(cr, Double(painter.margins.left), Double(painter.margins.top))
                cairo_push_group(cr)
                painter.drawSpinner(into: cr, turn: turn)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            }
        }
        cairo_restore(cr)
        cairo_surface_flush(surface.pointer)
        needsPaint = false
    }

    /// A frame of the move from the replaced toast's box to ours: the box drawn at the
    /// in-between rectangle, our text centred in it and clipped to it.
    private func presentMorph(_ appearance: Appearance, from start: Rect) throws(RenderError) {
        let cr = context
        let t = min(max(appearance.morph, 0), 1)
        func mix(_ a: Int, _ b: Int) -> Double { Double(a) + (Double(b) - Double(a)) * t }
        let x = mix(start.x, box.x) - Double(frame.x)
        let y = mix(start.y, box.y) - Double(frame.y)
        let size = Size(width: Int(mix(start.width, box.width).rounded()), height: Int(mix(start.height, box.height).rounded()))
        cairo_translate(cr, x.rounded(), y.rounded())
        painter.drawBackground(into: cr, size: size, opaque: false)
        painter.addBoxPath(to: cr, size: size)
        cairo_clip(cr)
        let text = try preparedTextLayer()
        let inset = (
            x: ((Double(size.width) - Double(box.width)) / 2).rounded(), y: ((Double(size.height) - Double(box.height)) / 2).rounded()
        )
        cairo_set_source_surface(cr, text.pointer, inset.x, inset.y)
        cairo_paint(cr)
        if let target = painter.progress {
            // The bar is drawn each frame, at a value between the old toast's and ours.
            let from = morphProgress ?? target.percent
            cairo_translate(cr, inset.x, inset.y)
            painter.drawBar(Progress(percent: from + (target.percent - from) * t, alternate: target.alternate), into: cr)
        }
    }

    private func preparedTextLayer() throws(RenderError) -> CairoSurface {
        if let textLayer { return textLayer }
        let made = try surface.similar(size: box.size)
        try made.draw { cr in painter.drawForeground(into: cr, bar: false) }
        textLayer = made
        return made
    }

    /// The box drawn once into a pixmap on the server, for the current mode.
    private func preparedContent() throws(RenderError) -> CairoSurface {
        if let content { return content }
        let made = try surface.similar(size: painter.contentSize)
        let opaque = !composited
        try made.draw { cr in painter.draw(into: cr, opaque: opaque) }
        content = made
        return made
    }
}
