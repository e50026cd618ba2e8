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

/// A parsed SVG document (an `RsvgHandle`), drawn as vectors at whatever size and scale it is
/// drawn: crisp at every scale, where a bitmap rendered once and scaled would blur.
final class SVGIcon {
    /// An SVG icon file is read whole up to this size: the largest icons in Adwaita, Papirus
    /// and Breeze are tens of kilobytes, and a larger document is more likely an attack.
    static let byteLimit = 1 << 20

    private let handle: UnsafeMutableRawPointer
    private let library: SVGLibrary
    /// A symbolic icon (`*-symbolic`) takes the text colour, as GNOME recolours them.
    let symbolic: Bool

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

    /// Parses `bytes`; librsvg bounds what it parses (XML entity expansion, element count and
    /// nesting) and renders at our size whatever size the document declares.
    init(bytes: [UInt8], symbolic: Bool, library: SVGLibrary) throws(RenderError) {
        var error: UnsafeMutablePointer<GError>?
        let handle = bytes.withUnsafeBufferPointer { library.newFromData($0.baseAddress, gsize($0.count), &error) }
        guard let handle else { throw RenderError(message: "not an SVG image librsvg reads (\(Self.take(error)))") }
        self.handle = handle
        self.library = library
        self.symbolic = symbolic
        // Drawn once here, on a 1×1 surface, so that a document that cannot be rendered (a
        // reference loop, a limit reached) is an error now rather than a missing icon later.
        guard let probe = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1), let cr = cairo_create(probe) else {
            throw RenderError(message: "cannot make a surface to check the SVG image")
        }
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(probe)
        }
        var viewport = xtoast_rsvg_rectangle(x: 0, y: 0, width: 1, height: 1)
        guard library.renderDocument(handle, cr, &viewport, &error) != 0 else {
            throw RenderError(message: "the SVG image cannot be drawn (\(Self.take(error)))")
        }
    }

    deinit { g_object_unref(handle) }

    /// Draws the document into `rect` (its proportions kept, centred), on `cr`'s transform.
    /// A symbolic icon is drawn into a group and the text colour painted through its alpha.
    func draw(into cr: OpaquePointer, in rect: Rect, foreground: Color) {
        var viewport = xtoast_rsvg_rectangle(
            x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
        var error: UnsafeMutablePointer<GError>?
        if symbolic { cairo_push_group(cr) }
        // It rendered at load time; a failure now leaves the icon's place empty, nothing worse.
        _ = library.renderDocument(handle, cr, &viewport, &error)
        _ = Self.take(error)
        guard symbolic else { return }
        // Adwaita's symbolic icons are grey (#2e3436) in fill and stroke attributes, inline
        // styles and classes; a stylesheet cannot reach them all, the alpha mask can.
        let mask = cairo_pop_group(cr)
        foreground.setSource(on: cr)
        cairo_mask(cr, mask)
        cairo_pattern_destroy(mask)
    }

    /// The message of a GError, which it frees.
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        // libxml2's messages end with a newline; the user gets one line.
        let message = error.pointee.message.map { String(cString: $0) } ?? "no reason given"
        return String(message.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
