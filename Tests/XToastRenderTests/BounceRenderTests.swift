import CCairo
import Testing
import XToastCore
import XToastRender

/// The alert's bounce, frame by frame: its timeline at given milliseconds, and the painter's toast
/// drawn at that scale, as a compositing window draws it (`ToastWindow.present`: the full-size
/// content scaled about the box's centre, in a window fitted to `Rect.scaled(by:)`). No clock runs.
@Suite("The alert's bounce, drawn", .serialized)
struct BounceRenderTests {
    /// The alert's entrance: 2/3 of its 0.35 s to overshoot to 1.1, 1/3 to settle at 1.
    static let timeline = Timeline(motion: Style.alert.motion, hold: nil)

    @Test(
        "From 0.8 of its size, past it to 1.1 at two thirds of the entrance, then its own size",
        arguments: [(0, 0.8, 0.0), (231, 1.1, 0.66), (347, 1, 1), (1000, 1, 1)])
    func scaleAt(milliseconds: Int, scale: Double, opacity: Double) {
        let appearance = Self.timeline.appearance(at: Double(milliseconds) / 1000)
        #expect(abs(appearance.scale - scale) < 0.005, "\(milliseconds) ms: \(appearance)")
        #expect(abs(appearance.opacity - opacity) < 0.005, "\(milliseconds) ms: \(appearance)")
    }

    @Test("Drawn early in the entrance the box is narrower than once settled, and wider at the overshoot")
    func drawnWidths() throws {
        let painter = try ToastPainter(
            content: ToastContent(message: "Saved"), style: .alert,
            metrics: ToastMetrics(style: .alert, scale: 1, monitor: Style.headlessMonitor))
        let box = Rect(x: 0, y: 0, width: painter.boxSize.width, height: painter.boxSize.height)
        var widths: [Int: Int] = [:]
        for milliseconds in [60, 231, 400] {
            let scale = Self.timeline.appearance(at: Double(milliseconds) / 1000).scale
            let drawn = try Self.boxWidth(of: painter, at: scale)
            // The window's box at that scale (what the X side fits and shapes the window to).
            #expect(abs(drawn - box.scaled(by: scale).width) <= 2, "\(milliseconds) ms, scale \(scale): drawn \(drawn) px")
            widths[milliseconds] = drawn
        }
        let (early, peak, settled) = (widths[60] ?? 0, widths[231] ?? 0, widths[400] ?? 0)
        #expect(settled == box.width)
        #expect(Double(early) < 0.95 * Double(settled), "early \(early) px, settled \(settled) px")
        #expect(Double(peak) > 1.05 * Double(settled), "peak \(peak) px, settled \(settled) px")
    }

    /// The width of the box on its middle row, with the toast drawn at `scale` about its centre
    /// in an image with room for 1.2 times its size: the run of the box's grey and its border
    /// (the shadow is black).
    static func boxWidth(of painter: ToastPainter, at scale: Double) throws -> Int {
        let content = try painter.image()
        let room = Size(width: content.size.width * 6 / 5, height: content.size.height * 6 / 5)
        let frame = try CairoSurface(imageOf: room)
        try frame.draw { cr in
            let m = painter.margins
            cairo_translate(cr, Double(room.width) / 2, Double(room.height) / 2)
            cairo_scale(cr, scale, scale)
            cairo_translate(
                cr, -(Double(painter.boxSize.width) / 2 + Double(m.left)), -(Double(painter.boxSize.height) / 2 + Double(m.top)))
            cairo_set_source_surface(cr, content.pointer, 0, 0)
            cairo_paint(cr)
        }
        let pixels = PixelReader(frame)
        let row = pixels.pixels(y: (room.height / 2)..<(room.height / 2 + 1)) { $0.red > 24 }.map(\.x)
        return (row.max() ?? 0) - (row.min() ?? 0) + 1
    }
}
