import CCairo
import XToastCore

/// A toast's content, laid out once and drawable into any Cairo context (a PNG or a window).
public final class ToastPainter {
    public let style: Style
    public let metrics: ToastMetrics
    /// The box in device pixels; the content fills exactly this.
    public let boxSize: Size
    private let text: TextLayout
    private let textOrigin: Point

    public init(message: String, style: Style, metrics: ToastMetrics) {
        self.style = style
        self.metrics = metrics
        text = TextLayout(
            text: message, font: style.font, color: style.foreground,
            maximumWidth: metrics.maximumTextWidth, maximumLines: style.maximumLines, scale: metrics.scale)
        boxSize = metrics.boxSize(forText: text.size)
        textOrigin = metrics.textOrigin(forText: text.size, inBox: boxSize)
    }

    /// Draws the box at the context's origin. `opaque` drops the background's alpha: where no
    /// compositor blends, a translucent colour would only come out darker, never see-through.
    public func draw(into cr: OpaquePointer, opaque: Bool) {
        drawBackground(into: cr, size: boxSize, opaque: opaque)
        drawText(into: cr)
    }

    /// The box alone, `size` large at the context's origin (a box on its way to `boxSize`).
    public func drawBackground(into cr: OpaquePointer, size: Size, opaque: Bool) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        addBoxPath(to: cr, size: size)
        (opaque ? style.background.opaque : style.background).setSource(on: cr)
        cairo_fill(cr)
    }

    /// The text alone, where it sits in a `boxSize` box at the context's origin.
    public func drawText(into cr: OpaquePointer) {
        text.draw(into: cr, at: textOrigin)
    }

    /// The rounded outline of a `size` box at the context's origin.
    public func addBoxPath(to cr: OpaquePointer, size: Size) {
        RoundedRect.addPath(to: cr, size: size, radius: metrics.cornerRadius)
    }

    /// The toast alone, on a transparent image of the box's size.
    public func image(opaque: Bool = false) throws(RenderError) -> CairoSurface {
        let surface = try CairoSurface(imageOf: boxSize)
        try surface.draw { cr in draw(into: cr, opaque: opaque) }
        return surface
    }
}

enum RoundedRect {
    /// A rounded rectangle path filling `size` from the origin, radius capped at half the side.
    static func addPath(to cr: OpaquePointer, size: Size, radius: Double) {
        let w = Double(size.width)
        let h = Double(size.height)
        let r = min(radius, w / 2, h / 2)
        guard r > 0 else {
            cairo_rectangle(cr, 0, 0, w, h)
            return
        }
        let quarter = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, w - r, r, r, -quarter, 0)
        cairo_arc(cr, w - r, h - r, r, 0, quarter)
        cairo_arc(cr, r, h - r, r, quarter, 2 * quarter)
        cairo_arc(cr, r, r, r, 2 * quarter, 3 * quarter)
        cairo_close_path(cr)
    }
}
