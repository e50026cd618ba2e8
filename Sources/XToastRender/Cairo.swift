import CCairo
import XToastCore

/// Something Cairo could not do: its own words, and what we asked of it.
public struct RenderError: Error, CustomStringConvertible {
    public var description: String
    init(_ what: String, _ status: cairo_status_t) {
        description = "\(what): \(String(cString: cairo_status_to_string(status)))"
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

    /// A surface like this one (same device: a server-side pixmap for an X surface) to draw once into.
    public func similar(size: Size) throws(RenderError) -> CairoSurface {
        let surface = cairo_surface_create_similar(pointer, CAIRO_CONTENT_COLOR_ALPHA, Int32(size.width), Int32(size.height))!
        return try CairoSurface(taking: surface, size: size, what: "cannot create an offscreen surface")
    }

    public func writePNG(to path: String) throws(RenderError) {
        cairo_surface_flush(pointer)
        let status = cairo_surface_write_to_png(pointer, path)
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
