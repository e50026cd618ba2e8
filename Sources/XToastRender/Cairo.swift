import CCairo
import XToastCore
import XToastSystem

/// Something Cairo could not do: its own words, and what we asked of it.
public struct RenderError: Error, CustomStringConvertible {
    public var description: String
    /// An icon that would cost more than its bound to draw (`ImageSandbox.Budget`): the toast
    /// shows without it, after one warning, wherever the icon came from.
    public var overBudget = false

    init(_ what: String, _ status: cairo_status_t) {
        description = "\(what): \(String(cString: cairo_status_to_string(status)))"
    }

    init(message: String, overBudget: Bool = false) {
        description = message
        self.overBudget = overBudget
    }
}

/// Owns a Cairo surface: checked when made, destroyed with its owner.
public final class CairoSurface {
    public let pointer: OpaquePointer
    public let size: Size

    /// Takes ownership of a surface a Cairo call returned.
    public init(taking pointer: OpaquePointer, size: Size, what: String) throws(RenderError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(pointer)
            throw RenderError(what, status)
        }
        self.pointer = pointer
        self.size = size
    }

    /// A transparent premultiplied-ARGB image in memory.
    public convenience init(imageOf size: Size) throws(RenderError) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))!
        try self.init(taking: surface, size: size, what: "cannot create a \(size.width)x\(size.height) image")
    }

    /// A transparent 8-bit alpha image, for masks.
    public convenience init(maskOf size: Size) throws(RenderError) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(size.width), Int32(size.height))!
        try self.init(taking: surface, size: size, what: "cannot create a \(size.width)x\(size.height) mask")
    }

    /// Blurs an A8 image in place: three box blurs of `radius` each way, close to a Gaussian.
    func blurAlpha(radius: Int) {
        guard radius > 0, cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_A8 else { return }
        cairo_surface_flush(pointer)
        let width = size.width
        let height = size.height
        let stride = Int(cairo_image_surface_get_stride(pointer))
        guard let data = cairo_image_surface_get_data(pointer) else { return }
        var line = [Int](repeating: 0, count: max(width, height))
        func pass(count: Int, step: Int, lines: Int, lineStep: Int) {
            for l in 0..<lines {
                let base = l * lineStep
                for i in 0..<count { line[i] = Int(data[base + i * step]) }
                // A running sum over the window [i - radius, i + radius], edges clamped.
                var sum = 0
                for i in -radius...radius { sum += line[min(max(i, 0), count - 1)] }
                let window = 2 * radius + 1
                for i in 0..<count {
                    data[base + i * step] = UInt8(sum / window)
                    sum += line[min(i + radius + 1, count - 1)] - line[max(i - radius, 0)]
                }
            }
        }
        for _ in 0..<3 {
            pass(count: width, step: 1, lines: height, lineStep: stride)
            pass(count: height, step: stride, lines: width, lineStep: 1)
        }
        cairo_surface_mark_dirty(pointer)
    }

    /// A surface like this one (same device: a server-side pixmap for an X surface) to draw once into.
    public func similar(size: Size) throws(RenderError) -> CairoSurface {
        let surface = cairo_surface_create_similar(pointer, CAIRO_CONTENT_COLOR_ALPHA, Int32(size.width), Int32(size.height))!
        return try CairoSurface(taking: surface, size: size, what: "cannot create an offscreen surface")
    }

    public func writePNG(to path: String) throws(RenderError) {
        cairo_surface_flush(pointer)
        let status = cairo_surface_write_to_png(pointer, RegularFile.expandingHome(path))
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("cannot write \"\(path)\"", status) }
    }

    /// Runs `body` with a fresh drawing context on this surface.
    public func draw(_ body: (OpaquePointer) -> Void) throws(RenderError) {
        let cr = cairo_create(pointer)!
        defer { cairo_destroy(cr) }
        body(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("cannot draw", status) }
    }

    deinit { cairo_surface_destroy(pointer) }
}

extension Color {
    /// Makes this colour the context's source.
    func setSource(on cr: OpaquePointer) {
        cairo_set_source_rgba(cr, red, green, blue, alpha)
    }
}
