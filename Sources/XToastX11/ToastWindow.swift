import CCairo
import CX11
import Glibc
import XToastCore
import XToastRender

/// One override-redirect toast window: made once, then each frame only composites the content
/// that was drawn once into a server-side surface.
///
/// Under a compositor the window is exactly the box at its current scale, shaped to its rounded
/// outline, and it fades by `_NET_WM_WINDOW_OPACITY`: what a compositor shadows is the box, and
/// its shadow fades with the toast (picom's shadow follows the window's opacity, not its pixels'
/// alpha). A style that draws its own shadow (the alert) asks picom for none and keeps one
/// window large enough for its largest scale: resizing costs the compositor more than it saves.
final class ToastWindow {
    let display: XDisplay
    let window: Window
    /// The box where it was placed, at scale 1, in root coordinates.
    private(set) var box: Rect
    /// Where the window is now, in root coordinates.
    private(set) var frame: Rect
    let painter: ToastPainter
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
    /// The window's shape as last set, so that it is sent again only when it changes.
    var appliedShape: WindowShape?
    /// The opacity property as last set.
    var appliedOpacity: UInt?

    /// Our progress value, for a toast that replaces this one.
    var progress: Double? { painter.progress?.percent }
    private(set) var composited: Bool
    /// Without a compositor the window is painted once, then only after an expose.
    private var needsPaint = true
    /// The scale the content was last drawn at.
    private var paintedScale = 1.0
    /// The scale of the last frame presented, for finding what a click hit.
    private var presentedScale = 1.0
    /// The shadow is ours (the style draws one): the window keeps room for it.
    var drawsOwnShadow: Bool { painter.margins != (0, 0, 0, 0) }
    /// The largest scale of the motion, which a window with our own shadow keeps room for.
    private let roomScale: Double
    /// Clicks go to the window below (`--click-through`): the input shape is empty.
    let clickThrough: Bool

    /// Makes (but does not map) a window showing `painter`'s box at `box`, starting from the
    /// box it moves from (`morphStart`); `maximumScale` is the largest its motion reaches.
    init(
        display: XDisplay, painter: ToastPainter, box: Rect, maximumScale: Double, morphStart: Rect?, morphProgress: Double?,
        composited: Bool, clickThrough: Bool = false
    ) throws(X11Error) {
        self.clickThrough = clickThrough
        self.display = display
        self.painter = painter
        self.box = box
        self.composited = composited
        self.morphStart = morphStart
        self.morphProgress = morphProgress
        roomScale = max(maximumScale, 1)
        frame = composited ? Self.room(around: box, painter: painter, scale: max(maximumScale, 1)) : box

        let dpy = display.pointer
        // A 32-bit visual carries per-pixel alpha to a compositor; it is used even when none
        // runs yet, so that one starting later finds a window it can blend.
        let (visual, depth) = display.visual(alpha: true)
        colormap = XCreateColormap(dpy, display.root, visual, AllocNone)

        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.colormap = colormap
        attributes.border_pixel = 0
        attributes.save_under = 1
        // Crossing and motion events tell the pointer is over it (pause on hover, PointerWatch).
        // The release too: a click counts when the button comes up (`WindowSet`).
        attributes.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerWatch.windowEventMask
        var mask = UInt(CWOverrideRedirect | CWColormap | CWBorderPixel | CWEventMask | CWSaveUnder)
        if composited {
            // Transparent until the first frame: the compositor never shows an unpainted box.
            attributes.background_pixel = 0
            // A window that resizes with its box keeps the last frame, centred, until the next
            // is drawn, instead of clearing it: nothing flickers if the compositor looks between.
            attributes.bit_gravity = CenterGravity
            mask |= UInt(CWBackPixel | CWBitGravity)
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
        guard let created = cairo_xlib_surface_create(dpy, window, visual, Int32(frame.width), Int32(frame.height)) else {
            XDestroyWindow(dpy, window)
            XFreeColormap(dpy, colormap)
            throw .cannotCreateWindow("cannot draw on the window")
        }
        do {
            surface = try CairoSurface(taking: created, size: frame.size, what: "cannot draw on the window")
        } catch {
            XDestroyWindow(dpy, window)
            XFreeColormap(dpy, colormap)
            throw .cannotCreateWindow(error.description)
        }
        context = cairo_create(surface.pointer)
        setProperties()
        // Invisible to a compositor until the first frame says otherwise: its shadow must not
        // show at full strength around a box not drawn yet. Without one, shaped before it is
        // mapped: the corners must never show black, not even until the first frame.
        if composited { setOpacity(0) } else { _ = fit(to: frame, box: currentBox, scale: 1) }
        // Clicks go through from the start, also before the first frame.
        if clickThrough && appliedShape == nil { setInputShape(nil) }
    }

    deinit {
        cairo_destroy(context)
        content = nil
        textLayer = nil
        XDestroyWindow(display.pointer, window)
        XFreeColormap(display.pointer, colormap)
    }

    /// How far the window has moved down from where it was made (stacked toasts close gaps).
    private(set) var verticalShift = 0

    /// The box where it is now, in root coordinates.
    var currentBox: Rect { box.offsetBy(0, verticalShift) }

    func move(by dy: Int) {
        guard dy != verticalShift else { return }
        frame = frame.offsetBy(0, dy - verticalShift)
        verticalShift = dy
        XMoveWindow(display.pointer, window, Int32(frame.x), Int32(frame.y))
    }

    /// Puts the box at `origin` (a panel came or went): the window moves with it.
    func relocate(to origin: Point) {
        guard origin != box.origin else { return }
        let (dx, dy) = (origin.x - box.x, origin.y - box.y)
        box = box.offsetBy(dx, dy)
        frame = frame.offsetBy(dx, dy)
        XMoveWindow(display.pointer, window, Int32(frame.x), Int32(frame.y))
    }

    func map() { XMapRaised(display.pointer, window) }

    /// Unmaps the window (under a locker); `map` brings it back, on top.
    func unmap() { XUnmapWindow(display.pointer, window) }

    /// The button a click at `point` (window coordinates) hit, if any.
    func button(atWindowPoint point: Point) -> Int? { painter.button(at: boxPoint(ofWindowPoint: point)) }

    /// The URL of the link a click at `point` (window coordinates) hit, if any.
    func link(atWindowPoint point: Point) -> String? { painter.link(at: boxPoint(ofWindowPoint: point)) }

    /// Where `point` (window coordinates) is on the content, from the box's top-left corner:
    /// the box is drawn at the last presented scale around its centre.
    private func boxPoint(ofWindowPoint point: Point) -> Point {
        let box = currentBox
        let scale = presentedScale > 0 ? presentedScale : 1
        func unscaled(_ window: Int, _ origin: Int, _ length: Int) -> Int {
            let centre = Double(origin) + Double(length) / 2
            return Int(((Double(window) - centre) / scale + Double(length) / 2).rounded(.down))
        }
        return Point(x: unscaled(frame.x + point.x, box.x, box.width), y: unscaled(frame.y + point.y, box.y, box.height))
    }

    /// Whether `point` (window coordinates) is inside the window.
    func contains(windowPoint point: Point) -> Bool {
        point.x >= 0 && point.y >= 0 && point.x < frame.width && point.y < frame.height
    }

    func raise() { XRaiseWindow(display.pointer, window) }

    /// The compositor came or went: switch between blended and shaped-opaque drawing.
    func setComposited(_ value: Bool) {
        guard value != composited else { return }
        composited = value
        content = nil
        needsPaint = true
    }

    /// Whether the window must be painted even though no frame is due.
    var pendingPaint: Bool { needsPaint }

    /// The server lost the window's pixels (exposed): paint again at the next frame.
    func invalidate() { needsPaint = true }

    /// Draws the reply entry with `reply` in the button row (nil: the buttons) from the next
    /// frame on.
    func editReply(_ reply: (text: String, placeholder: String)?) {
        painter.reply = reply
        (content, textLayer) = (nil, nil)
        needsPaint = true
    }

    /// Shows the toast at `appearance`. With a compositor: the window fitted to the box at that
    /// scale, the content drawn into it at full strength, and the opacity handed to the
    /// compositor; a frame that only fades sends one property change. Without one there is
    /// nothing to blend: the opaque content, once.
    func present(_ appearance: Appearance, turn: Double) throws(RenderError) {
        let morph = composited && appearance.morph < 1 ? morphStart.map { morphRect(from: $0, at: appearance.morph) } : nil
        let scale = composited ? appearance.scale : 1
        presentedScale = scale
        let resized = fit(
            to: morph ?? windowRect(scale: scale), box: morph ?? currentBox.scaled(by: scale), scale: morph == nil ? scale : 1)
        setOpacity(composited ? appearance.opacity : 1)
        // A turning spinner repaints every frame, also on a plain (opaque) window; a scaling box
        // every frame, also in a window that keeps its size (our own shadow's room).
        guard needsPaint || resized || morph != nil || painter.hasSpinner || scale != paintedScale else { return }
        paintedScale = scale
        let cr = context
        cairo_save(cr)
        if composited {
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        }
        // Without a compositor the opaque content covers the whole shaped window: clearing
        // first would flash black (a spinner repaints 30 times a second).
        if let morph {
            try presentMorph(appearance, in: morph)
        } else {
            let content = try preparedContent()
            let centre = (
                x: Double(currentBox.x - frame.x) + Double(box.width) / 2, y: Double(currentBox.y - frame.y) + Double(box.height) / 2
            )
            cairo_translate(cr, centre.x, centre.y)
            cairo_scale(cr, scale, scale)
            cairo_translate(
                cr, -(Double(box.width) / 2 + Double(painter.margins.left)), -(Double(box.height) / 2 + Double(painter.margins.top)))
            cairo_set_source_surface(cr, content.pointer, 0, 0)
            cairo_paint(cr)
            if painter.hasSpinner {
                // The only part drawn anew each frame: a ring and an arc.
                cairo_translate(cr, Double(painter.margins.left), Double(painter.margins.top))
                painter.drawSpinner(into: cr, turn: turn)
            }
        }
        cairo_restore(cr)
        cairo_surface_flush(surface.pointer)
        needsPaint = false
    }

    /// The window for the box at `scale`: the box itself, or with our own shadow the room for
    /// it at the largest scale.
    private func windowRect(scale: Double) -> Rect {
        guard composited else { return currentBox }
        return Self.room(around: currentBox, painter: painter, scale: drawsOwnShadow ? roomScale : scale)
    }

    /// The box at `scale`, with the margins of the painter's own shadow.
    private static func room(around box: Rect, painter: ToastPainter, scale: Double) -> Rect {
        let m = painter.margins
        return box.scaled(by: scale, margins: Insets(left: m.left, top: m.top, right: m.right, bottom: m.bottom))
    }

    /// Moves and resizes the window to `rect` and shapes it to `box` (both in root
    /// coordinates) when they changed; returns whether the window's size or place changed.
    private func fit(to rect: Rect, box scaledBox: Rect, scale: Double) -> Bool {
        let moved = rect != frame
        if moved {
            frame = rect
            XMoveResizeWindow(display.pointer, window, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
            cairo_xlib_surface_set_size(surface.pointer, Int32(rect.width), Int32(rect.height))
        }
        setShape(
            WindowShape(
                size: rect.size, box: scaledBox.offsetBy(-rect.x, -rect.y),
                input: clickThrough ? nil : currentBox.offsetBy(-rect.x, -rect.y),
                radius: painter.metrics.cornerRadius * scale,
                composited: composited, ownShadow: drawsOwnShadow))
        return moved
    }

    /// The box between the replaced toast's and ours, `t` of the way.
    private func morphRect(from start: Rect, at t: Double) -> Rect {
        let t = min(max(t, 0), 1)
        func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        let end = currentBox
        return Rect(
            x: mix(start.x, end.x), y: mix(start.y, end.y), width: mix(start.width, end.width), height: mix(start.height, end.height))
    }

    /// A frame of the move from the replaced toast's box to ours: the box drawn at the
    /// in-between rectangle (the window), our text centred in it and clipped to it.
    private func presentMorph(_ appearance: Appearance, in rect: Rect) throws(RenderError) {
        let cr = context
        let t = min(max(appearance.morph, 0), 1)
        painter.drawBackground(into: cr, size: rect.size, opaque: false)
        painter.addBoxPath(to: cr, size: rect.size)
        cairo_clip(cr)
        let text = try preparedTextLayer()
        let inset = (
            x: ((Double(rect.width) - Double(box.width)) / 2).rounded(), y: ((Double(rect.height) - Double(box.height)) / 2).rounded()
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
