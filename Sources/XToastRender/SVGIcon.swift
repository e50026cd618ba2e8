import CCairo
import Glibc
import XToastCore

/// librsvg's functions, found with `dlopen` the first time an SVG icon is read. Linked into the
/// binary, librsvg would load libxml2, gdk-pixbuf, gio and more (megabytes, milliseconds) at
/// every start, also for the toasts that have no SVG icon, which are nearly all.
final class SVGLibrary: @unchecked Sendable {  // immutable after init; the library is never closed
    /// The soname Debian's librsvg2-2 installs (API 2.46 and later: `rsvg_handle_render_document`).
    static let soname = "librsvg-2.so.2"

    let newFromData: xtoast_rsvg_new_from_data
    let renderDocument: xtoast_rsvg_render_document

    /// librsvg, opened once per process.
    static let shared: Result<SVGLibrary, RenderError> = Result { () throws(RenderError) in try SVGLibrary(soname) }

    /// Opens the library `name`; a missing library or function is an error that says so.
    init(_ name: String) throws(RenderError) {
        // RTLD_LOCAL: its symbols (and those of what it loads) do not take the place of ours.
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw RenderError(message: "SVG icons need librsvg (\(name), Debian's librsvg2-2): \(reason)")
        }
        guard let new = dlsym(library, "rsvg_handle_new_from_data"), let render = dlsym(library, "rsvg_handle_render_document")
        else {
            dlclose(library)
            throw RenderError(message: "SVG icons need librsvg 2.46 or later (\(name) lacks rsvg_handle_render_document)")
        }
        newFromData = unsafeBitCast(new, to: xtoast_rsvg_new_from_data.self)
        renderDocument = unsafeBitCast(render, to: xtoast_rsvg_render_document.self)
    }
}

/// An SVG document drawn at the size the toast shows it, in device pixels: as crisp as vectors
/// drawn in place, and drawn by `ImageSandbox`, in a child bounded in memory and time.
final class SVGIcon {
    /// An SVG icon file is read whole up to this size: the largest icons in Adwaita, Papirus
    /// and Breeze are tens of kilobytes, and a larger document is more likely an attack.
    static let byteLimit = 1 << 20

    /// The document drawn at its size.
    let image: CairoSurface
    /// A symbolic icon (`*-symbolic`) takes the text colour, as GNOME recolours them.
    let symbolic: Bool
    /// One line of what librsvg or Pango printed while drawing it (an SVG's text in a font
    /// size Pango refuses), for one warning.
    let chatter: String?

    /// Whether the file's bytes look like SVG (or gzip-compressed SVGZ, which librsvg reads).
    static func looksLikeSVG(_ bytes: [UInt8], path: String) -> Bool {
        let lower = path.lowercased()
        if lower.hasSuffix(".svg") || lower.hasSuffix(".svgz") { return true }
        // Without Foundation or Regex: a plain search of the first kilobyte.
        let head = Array(bytes.prefix(1024))
        let tag = Array("<svg".utf8)
        return head.starts(with: "<?xml".utf8)
            || head.indices.contains { head[$0...].starts(with: tag) }
    }

    /// Parses and draws `bytes` at `size` pixels (the document's proportions kept, centred);
    /// librsvg also bounds what it parses (XML entity expansion, element count and nesting),
    /// and draws at our size whatever size the document declares.
    init(bytes: [UInt8], symbolic: Bool, size: Size, library: SVGLibrary, budget: ImageSandbox.Budget = .standard)
        throws(RenderError)
    {
        let job = ImageSandbox.Job(image: "the SVG image", library: "librsvg", bytes: bytes, size: size, budget: budget) { canvas in
            Self.render(bytes, on: canvas, library: library)
        }
        let drawing = try ImageSandbox.draw(job)
        image = drawing.image
        chatter = drawing.chatter
        self.symbolic = symbolic
    }

    /// The child's part: librsvg parses the document and draws it over the whole canvas.
    private static func render(_ bytes: [UInt8], on canvas: ImageSandbox.Canvas, library: SVGLibrary)
        -> Result<Size, ImageSandbox.Failure>
    {
        var error: UnsafeMutablePointer<GError>?
        let handle = bytes.withUnsafeBufferPointer { library.newFromData($0.baseAddress, gsize($0.count), &error) }
        guard let handle else { return .failure(.init(message: "not an SVG image librsvg reads (\(ImageSandbox.take(error)))")) }
        guard
            let surface = cairo_image_surface_create_for_data(
                canvas.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(canvas.size.width),
                Int32(canvas.size.height), Int32(canvas.stride)),
            let cr = cairo_create(surface)
        else { return .failure(.init(message: "cannot make a surface for the SVG image")) }
        var viewport = xtoast_rsvg_rectangle(x: 0, y: 0, width: Double(canvas.size.width), height: Double(canvas.size.height))
        guard library.renderDocument(handle, cr, &viewport, &error) != 0 else {
            return .failure(.init(message: "the SVG image cannot be drawn (\(ImageSandbox.take(error)))"))
        }
        cairo_surface_flush(surface)
        return .success(canvas.size)
    }

    /// Draws the image into `rect`, on `cr`'s transform. A symbolic icon paints the text colour
    /// through the image's alpha.
    func draw(into cr: OpaquePointer, in rect: Rect, foreground: Color) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, Double(rect.x), Double(rect.y))
        // Drawn for this size: scaled only when asked for another.
        cairo_scale(cr, Double(rect.width) / Double(image.size.width), Double(rect.height) / Double(image.size.height))
        guard symbolic else {
            cairo_set_source_surface(cr, image.pointer, 0, 0)
            cairo_paint(cr)
            return
        }
        // Adwaita's symbolic icons are grey (#2e3436) in fill and stroke attributes, inline
        // styles and classes; a stylesheet cannot reach them all, the alpha mask can.
        foreground.setSource(on: cr)
        cairo_mask_surface(cr, image.pointer, 0, 0)
    }
}
