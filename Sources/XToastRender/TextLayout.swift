import CCairo
import XToastCore

/// Starts loading the fonts now: Pango reads the fontconfig configuration (the biggest cost of
/// the first layout) on a thread of its own, which then overlaps the X connection and the
/// monitor query instead of following them. Call from the thread that will lay out the text:
/// the default font map is per thread.
public func startLoadingFonts() {
    _ = pango_cairo_font_map_get_default()
}

/// Waits until the fonts `startLoadingFonts` started loading are loaded. A process forked while
/// Pango's own thread holds fontconfig's locks would wait for them for ever in its first text.
func finishLoadingFonts() {
    guard let fontMap = pango_cairo_font_map_get_default(), let context = pango_font_map_create_context(fontMap) else { return }
    defer { g_object_unref(UnsafeMutableRawPointer(context)) }
    let description = pango_font_description_from_string("Sans")
    defer { pango_font_description_free(description) }
    if let font = pango_font_map_load_font(fontMap, context, description) { g_object_unref(UnsafeMutableRawPointer(font)) }
}

/// Lays a word out in `font` and forgets it: the font's file is open and its glyphs shaped
/// once, for a process that waits for its work (the notification service's toast process
/// started ahead), so that the toast's own layout starts warm.
public func warmUpText(font: String) {
    _ = TextLayout(
        text: "Tagged", font: font, color: Color(red: 1, green: 1, blue: 1), maximumWidth: 1000, maximumLines: 1, maximumHeight: 1000,
        scale: 1)
}

/// Owns a Pango layout of the message: wrapped, centred and measured once.
final class TextLayout {
    let layout: OpaquePointer
    /// The text's logical size in device pixels.
    let size: Size
    /// Where the logical rectangle starts inside the layout (centred lines start right of 0).
    private let logicalOrigin: Point

    /// Whether markup was asked for but could not be read (the text is then shown plain).
    private(set) var markupFailed = false
    /// The links in the text (markup's `<a href>`, `LinkedMarkup`): each URL and the bytes of
    /// the layout's text it covers.
    private(set) var links: [(url: String, bytes: Range<Int>)] = []

    init(
        text: String, font: String, color: Color, maximumWidth: Int, maximumLines: Int, maximumHeight: Int, scale: Double,
        bold: Bool = false, markup: Bool = false, alignment: PangoAlignment = PANGO_ALIGN_CENTER,
        ellipsize: PangoEllipsizeMode = PANGO_ELLIPSIZE_END
    ) {
        // A private context, not one from a surface: the same layout serves PNGs and windows,
        // and 72 dpi × scale makes a font size of N mean N logical pixels, as the designs do.
        let fontMap = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(fontMap)!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        pango_cairo_context_set_resolution(context, 72 * scale)
        let options = cairo_font_options_create()
        // Subpixel (coloured) antialiasing is wrong on a translucent window.
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)

        layout = pango_layout_new(context)
        let description = TextLayout.fontDescription(font, scale: scale)
        if bold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)

        let unit = Int32(xtoast_pango_scale())
        // In Pango units, which overflow an Int32 past 2 million pixels.
        func units(_ pixels: Int) -> Int32 { Int32(min(max(pixels, 1), Int(Int32.max / unit))) * unit }
        pango_layout_set_width(layout, units(maximumWidth))
        // Whole words wrap; a word wider than the line breaks between characters rather than
        // running off the box. Never an ellipsis mid-word, only past the last allowed line.
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_alignment(layout, alignment)
        pango_layout_set_ellipsize(layout, ellipsize)
        let lines = Int32(max(maximumLines, 1))
        pango_layout_set_height(layout, -lines)
        // Plain text is never interpreted as markup; markup only when asked, and only if it
        // parses (pango_layout_set_markup would show nothing at all for bad markup).
        if markup, let read = TextLayout.read(markup: text) {
            pango_layout_set_text(layout, read.text, Int32(read.text.count))
            pango_layout_set_attributes(layout, read.attributes)
            pango_attr_list_unref(read.attributes)
            links = read.links
        } else {
            markupFailed = markup
            pango_layout_set_text(layout, text, -1)
        }
        if let cut = TextLayout.bound(layout, lines: lines, height: units(maximumHeight)) {
            // What was cut off cannot be clicked; the ellipsis belongs to no link.
            links = links.compactMap { link in
                link.bytes.lowerBound < cut ? (link.url, link.bytes.lowerBound..<min(link.bytes.upperBound, cut)) : nil
            }
        }

        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, nil, &logical)
        size = Size(width: Int(logical.width), height: Int(logical.height))
        logicalOrigin = Point(x: Int(logical.x), y: Int(logical.y))
        self.color = color
    }

    private let color: Color

    /// Markup with links (`LinkedMarkup`) read as Pango reads it: the text without the links'
    /// markers, its attributes, and the bytes each link's text covers; nil when it does not
    /// parse. Markers that disagree with the links (one came in as a character reference) make
    /// no link at all.
    private static func read(markup: String) -> (text: [CChar], attributes: OpaquePointer, links: [(url: String, bytes: Range<Int>)])? {
        let linked = LinkedMarkup(markup)
        var attributes: OpaquePointer?
        var parsed: UnsafeMutablePointer<CChar>?
        guard pango_parse_markup(linked.markup, -1, 0, &attributes, &parsed, nil, nil) != 0, let attributes, let parsed else {
            return nil
        }
        defer { g_free(parsed) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(parsed).assumingMemoryBound(to: UInt8.self), count: strlen(parsed))
        // U+E000 and U+E001 in UTF-8.
        let (start, end) = (Array(String(LinkedMarkup.start).utf8), Array(String(LinkedMarkup.end).utf8))
        var text: [CChar] = []
        var marks: [(isStart: Bool, at: Int)] = []
        var index = 0
        while index < bytes.count {
            let rest = bytes[index...]
            if rest.starts(with: start) || rest.starts(with: end) {
                marks.append((rest.starts(with: start), text.count))
                // The attributes after it move back with the text.
                pango_attr_list_update(attributes, Int32(text.count), Int32(start.count), 0)
                index += start.count
                continue
            }
            text.append(CChar(bitPattern: bytes[index]))
            index += 1
        }
        let paired =
            marks.count == 2 * linked.links.count
            && marks.enumerated().allSatisfy { $0.element.isStart == $0.offset.isMultiple(of: 2) }
        let links = paired ? linked.links.enumerated().map { ($0.element, marks[2 * $0.offset].at..<marks[2 * $0.offset + 1].at) } : []
        return (text, attributes, links)
    }

    /// Holds the layout to `lines` lines in all and to `height` Pango units. A negative height
    /// (set above) counts lines per paragraph, so `seq 100` would still be 100 lines; a positive
    /// one bounds the whole layout but gives every paragraph at least one line. So past the
    /// limit the text is cut after its last allowed line, which leaves at most `lines`
    /// paragraphs, and the height then ellipsizes the last line that fits. Nothing happens (no
    /// second layout) for text within the limits. The byte the text was cut at, if it was.
    private static func bound(_ layout: OpaquePointer, lines: Int32, height: Int32) -> Int? {
        let count = pango_layout_get_line_count(layout)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        guard count > lines || logical.height > height, count > 0 else { return nil }
        var cutAt: Int?
        if count > lines, let line = pango_layout_get_line_readonly(layout, lines), let text = pango_layout_get_text(layout) {
            // The text before the first line past the limit; attributes from markup stay.
            let cut = Int(line.pointee.start_index)
            var kept = Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: cut))
            while kept.last == 10 { kept.removeLast() }
            let ellipsis = Array("…".utf8)
            // Markup's attributes past the cut go; one starting inside the ellipsis would split it.
            if let attributes = pango_layout_get_attributes(layout) {
                let removed = Int32(strlen(text) - kept.count)
                pango_attr_list_update(attributes, Int32(kept.count), removed, Int32(ellipsis.count))
            }
            cutAt = kept.count
            kept += ellipsis
            kept.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
            }
        }
        // Half a line to spare: Pango ends with the line after which two would not fit.
        let lineHeight = Int64(logical.height / count)
        let wanted = min(lineHeight * Int64(lines) + lineHeight / 2, Int64(height))
        pango_layout_set_height(layout, Int32(max(wanted, 1)))
        return cutAt
    }

    /// The URL of the link at `point` (pixels from the text's logical top-left corner, where
    /// `draw` puts it), if any: only on the link's own text, never beside a line or between
    /// paragraphs.
    func link(at point: Point) -> String? {
        guard !links.isEmpty else { return nil }
        let unit = Int(xtoast_pango_scale())
        var index: Int32 = 0
        var trailing: Int32 = 0
        let x = Int32(clamping: (point.x + logicalOrigin.x) * unit)
        let y = Int32(clamping: (point.y + logicalOrigin.y) * unit)
        guard pango_layout_xy_to_index(layout, x, y, &index, &trailing) != 0 else { return nil }
        return links.first { $0.bytes.contains(Int(index)) }?.url
    }

    /// Draws the text with its logical rectangle's top-left corner at `origin`.
    func draw(into cr: OpaquePointer, at origin: Point) {
        color.setSource(on: cr)
        cairo_move_to(cr, Double(origin.x - logicalOrigin.x), Double(origin.y - logicalOrigin.y))
        pango_cairo_show_layout(cr, layout)
    }

    /// A font description from `--font`; a size given in pixels ("Sans 14px") is scaled here,
    /// a plain size by the context's resolution, and a missing size takes the default's.
    private static func fontDescription(_ font: String, scale: Double) -> OpaquePointer {
        let description = pango_font_description_from_string(font)!
        if pango_font_description_get_size(description) == 0 {
            let fallback = pango_font_description_from_string(Style.toast.font)!
            pango_font_description_set_size(description, pango_font_description_get_size(fallback))
            pango_font_description_free(fallback)
        } else if pango_font_description_get_size_is_absolute(description) != 0 {
            let size = Double(pango_font_description_get_size(description)) * scale
            pango_font_description_set_absolute_size(description, size)
        }
        return description
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
}
