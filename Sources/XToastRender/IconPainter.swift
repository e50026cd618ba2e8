import CCairo
import Glibc
import XToastCore
import XToastSystem

/// An icon ready to draw: a built-in vector drawing (crisp at any scale), or an image.
enum IconImage {
    case vector(Icon)
    case image(CairoSurface)
    case svg(SVGIcon)

    /// Loads what `icon` names. Built-in icons cannot fail; files and theme names can.
    static func load(_ icon: Icon, pixelSize: Int, theme: String? = nil) throws(RenderError) -> IconImage {
        switch icon {
        case .success, .error, .info, .warning:
            return .vector(icon)
        case .file(let path):
            return try file(at: path, pixelSize: pixelSize)
        case .named(let name):
            guard let path = IconTheme.lookup(name, pixelSize: pixelSize, theme: theme) else {
                throw RenderError(message: "no icon named \"\(name)\" in the icon theme")
            }
            return try file(at: path, pixelSize: pixelSize)
        }
    }

    /// A PNG, JPEG (GIF, BMP, WebP, TIFF, ICO) or SVG file, told apart by its first bytes (and
    /// an SVG by its name too, as a document may start with any comment).
    static func file(
        at path: String, pixelSize: Int = 32, budget: ImageSandbox.Budget = .standard,
        svgLibrary: () -> Result<SVGLibrary, RenderError> = { SVGLibrary.shared },
        pixbufLibrary: () -> Result<PixbufLibrary, RenderError> = { PixbufLibrary.shared }
    ) throws(RenderError) -> IconImage {
        let what = "cannot read icon \"\(path)\""
        let file: (bytes: [UInt8], truncated: Bool)
        do {
            file = try RegularFile.read(path, limit: byteLimit)
        } catch {
            throw RenderError(message: "\(what): \(error.description)")
        }
        guard !file.truncated else { throw RenderError(message: "\(what): larger than \(byteLimit >> 20) MiB") }
        if PNGHeader.size(of: file.bytes) != nil { return .image(try png(what: what, file.bytes)) }
        if let format = RasterFormat(sniffing: file.bytes) {
            do {
                let library = try pixbufLibrary().get()
                return .image(try RasterIcon.decode(file.bytes, format: format, pixelSize: pixelSize, library: library, budget: budget))
            } catch {
                throw RenderError(message: "\(what): \(error.description)", overBudget: error.overBudget)
            }
        }
        guard SVGIcon.looksLikeSVG(file.bytes, path: path) else {
            let formats = ["PNG"] + RasterFormat.allCases.map(\.name)
            throw RenderError(message: "\(what): not a \(formats.joined(separator: ", ")) or SVG image")
        }
        return .svg(try svg(what: what, file.bytes, path: path, pixelSize: pixelSize, budget: budget, library: svgLibrary))
    }

    private static func svg(
        what: String, _ bytes: [UInt8], path: String, pixelSize: Int, budget: ImageSandbox.Budget,
        library: () -> Result<SVGLibrary, RenderError>
    ) throws(RenderError) -> SVGIcon {
        guard bytes.count <= SVGIcon.byteLimit else {
            throw RenderError(message: "\(what): an SVG image larger than \(SVGIcon.byteLimit >> 20) MiB")
        }
        var document = bytes
        if CompressedSVG.isCompressed(document) {
            do {
                document = try CompressedSVG.expand(document, limit: SVGIcon.byteLimit)
            } catch {
                throw RenderError(message: "\(what): \(error.description)", overBudget: error.overBudget)
            }
        }
        // The name without folders and extensions: GNOME's symbolic icons end in -symbolic.
        let base = path.split(separator: "/").last.map { $0.split(separator: ".").first.map(String.init) ?? "" } ?? ""
        do {
            return try SVGIcon(
                bytes: document, symbolic: base.hasSuffix("-symbolic"), size: Size(width: pixelSize, height: pixelSize),
                library: try library().get(), budget: budget)
        } catch {
            throw RenderError(message: "\(what): \(error.description)", overBudget: error.overBudget)
        }
    }

    /// An icon file is read whole up to this size: the largest icons in real themes are a few
    /// hundred kilobytes.
    static let byteLimit = 16 << 20
    /// Neither side may be longer: a PNG of a few hundred bytes can declare 20000×20000 pixels,
    /// which decode into gigabytes. The icon is drawn at most 128 px high (32 px at scale 4).
    static let sideLimit = 4096

    private static func png(what: String, _ bytes: [UInt8]) throws(RenderError) -> CairoSurface {
        guard let size = PNGHeader.size(of: bytes) else { throw RenderError(message: "\(what): not a PNG image") }
        guard size.width <= sideLimit, size.height <= sideLimit else {
            throw RenderError(
                message: "\(what): \(size.width)x\(size.height) pixels, larger than \(sideLimit)x\(sideLimit)")
        }
        let reader = PNGHeader.Reader(bytes)
        let surface = cairo_image_surface_create_from_png_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                return Unmanaged<PNGHeader.Reader>.fromOpaque(closure).takeUnretainedValue().read(into: data, count: Int(length))
            }, Unmanaged.passUnretained(reader).toOpaque())!
        let decoded = Size(width: Int(cairo_image_surface_get_width(surface)), height: Int(cairo_image_surface_get_height(surface)))
        return try CairoSurface(taking: surface, size: decoded, what: what)
    }

    /// Draws the icon into the square `rect`.
    func draw(into cr: OpaquePointer, in rect: Rect, style: Style) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        switch self {
        case .image(let surface):
            // Scaled to fit, keeping its proportions, centred.
            let factor = min(
                Double(rect.width) / Double(max(surface.size.width, 1)), Double(rect.height) / Double(max(surface.size.height, 1)))
            let width = Double(surface.size.width) * factor
            let height = Double(surface.size.height) * factor
            cairo_translate(cr, Double(rect.x) + (Double(rect.width) - width) / 2, Double(rect.y) + (Double(rect.height) - height) / 2)
            cairo_scale(cr, factor, factor)
            cairo_set_source_surface(cr, surface.pointer, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        case .svg(let document):
            document.draw(into: cr, in: rect, foreground: style.foreground)
        case .vector(let icon):
            IconPainter.draw(icon, into: cr, in: rect, style: style)
        }
    }
}

/// The built-in icons as Cairo paths, in a unit square scaled to the icon's size.
enum IconPainter {
    static func draw(_ icon: Icon, into cr: OpaquePointer, in rect: Rect, style: Style) {
        let size = Double(min(rect.width, rect.height))
        cairo_translate(cr, Double(rect.x) + (Double(rect.width) - size) / 2, Double(rect.y) + (Double(rect.height) - size) / 2)
        cairo_scale(cr, size, size)
        let glyphColor: Color
        switch style.iconStyle {
        case .badge:
            color(of: icon).setSource(on: cr)
            cairo_arc(cr, 0.5, 0.5, 0.5, 0, 2 * Double.pi)
            cairo_fill(cr)
            glyphColor = Color(red: 1, green: 1, blue: 1)
            cairo_set_line_width(cr, 0.11)
        case .glyph:
            // Without a disc around it the glyph can use the whole square.
            cairo_translate(cr, 0.5, 0.5)
            cairo_scale(cr, 1.6, 1.6)
            cairo_translate(cr, -0.5, -0.5)
            glyphColor = style.foreground
            cairo_set_line_width(cr, 0.07)
        }
        glyphColor.setSource(on: cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        switch icon {
        case .success:
            cairo_move_to(cr, 0.27, 0.52)
            cairo_line_to(cr, 0.43, 0.68)
            cairo_line_to(cr, 0.74, 0.35)
            cairo_stroke(cr)
        case .error:
            cairo_move_to(cr, 0.33, 0.33)
            cairo_line_to(cr, 0.67, 0.67)
            cairo_move_to(cr, 0.67, 0.33)
            cairo_line_to(cr, 0.33, 0.67)
            cairo_stroke(cr)
        case .info:
            cairo_move_to(cr, 0.5, 0.46)
            cairo_line_to(cr, 0.5, 0.74)
            cairo_stroke(cr)
            cairo_arc(cr, 0.5, 0.28, 0.075, 0, 2 * Double.pi)
            cairo_fill(cr)
        case .warning:
            cairo_move_to(cr, 0.5, 0.25)
            cairo_line_to(cr, 0.5, 0.56)
            cairo_stroke(cr)
            cairo_arc(cr, 0.5, 0.73, 0.075, 0, 2 * Double.pi)
            cairo_fill(cr)
        case .file, .named:
            break
        }
    }

    static func color(of icon: Icon) -> Color {
        switch icon {
        case .success: Style.iconColors.success
        case .error: Style.iconColors.error
        case .info: Style.iconColors.info
        case .warning, .file, .named: Style.iconColors.warning
        }
    }
}
