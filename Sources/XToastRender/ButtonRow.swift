import CCairo
import XToastCore

/// Buttons in a row under the text (`--button`): their labels laid out once, their places in
/// the box, drawn with the rest of the content, and which one a point falls in.
struct ButtonRow {
    private let labels: [TextLayout]
    let height: Int
    let gap: Int
    private let inset: Int
    private let radius: Double
    /// Each button in box coordinates, once `place` knows the box.
    private(set) var rects: [Rect] = []
    /// Where the reply entry goes when it opens: the row's height, the box's width inside its
    /// padding.
    private(set) var entryRect = Rect(x: 0, y: 0, width: 0, height: 0)

    /// Nil without labels. The row is at most `maximumWidth` wide: labels that would make it
    /// wider share the room and are ellipsized.
    init?(labels texts: [String], style: Style, scale: Double, maximumWidth: Int) {
        guard !texts.isEmpty else { return nil }
        func px(_ logical: Double) -> Int { Int((logical * scale).rounded()) }
        gap = px(style.buttonGap)
        inset = px(style.buttonInset)
        radius = style.buttonRadius * scale
        let share = (maximumWidth - gap * (texts.count - 1)) / texts.count - 2 * inset
        labels = texts.map { text in
            TextLayout(
                text: text, font: style.font, color: style.foreground, maximumWidth: max(share, 1), maximumLines: 1,
                maximumHeight: px(style.buttonHeight), scale: scale)
        }
        height = max(px(style.buttonHeight), (labels.map(\.size.height).max() ?? 0) + 2)
    }

    /// Each button's width: its label and the inset at each end.
    private var widths: [Int] { labels.map { $0.size.width + 2 * inset } }

    /// The whole row's width.
    var width: Int { widths.reduce(0, +) + gap * (labels.count - 1) }

    /// Puts the row centred in a `width`-wide box with its top at `top`.
    mutating func place(inWidth boxWidth: Int, top: Int, padding: Int) {
        entryRect = Rect(x: padding, y: top, width: max(boxWidth - 2 * padding, 1), height: height)
        var x = (boxWidth - width) / 2
        rects = widths.map { width in
            defer { x += width + gap }
            return Rect(x: x, y: top, width: width, height: height)
        }
    }

    /// The button at `point` (box coordinates), if any.
    func button(at point: Point) -> Int? {
        rects.firstIndex { $0.contains(point) }
    }

    /// The open reply entry in the row's place: a field as faint as a button, framed, with
    /// `text` (its end in view) and a caret after it, or `placeholder` fainter.
    func drawEntry(text: String, placeholder: String, into cr: OpaquePointer, style: Style, scale: Double) {
        let rect = entryRect
        cairo_save(cr)
        defer { cairo_restore(cr) }
        RoundedRect.addPath(
            at: Double(rect.x), Double(rect.y), to: cr, width: Double(rect.width), height: Double(rect.height), radius: radius)
        style.foreground.faded(style.buttonFillOpacity).setSource(on: cr)
        cairo_fill_preserve(cr)
        style.foreground.setSource(on: cr)
        cairo_set_line_width(cr, max(style.replyFrameWidth * scale, 1))
        cairo_stroke(cr)
        let caretWidth = max(style.replyCaretWidth * scale, 1)
        let shown = TextLayout(
            text: text.isEmpty ? placeholder : text, font: style.font,
            color: text.isEmpty ? style.foreground.faded(style.replyPlaceholderOpacity) : style.foreground,
            maximumWidth: max(rect.width - 2 * inset - Int(caretWidth.rounded(.up)) - 1, 1), maximumLines: 1,
            maximumHeight: rect.height, scale: scale, alignment: PANGO_ALIGN_LEFT, ellipsize: PANGO_ELLIPSIZE_START)
        let origin = Point(x: rect.x + inset, y: rect.y + (rect.height - shown.size.height) / 2)
        shown.draw(into: cr, at: origin)
        // The caret: after the text, or at the start before the placeholder.
        let caretX = Double(origin.x + (text.isEmpty ? 0 : shown.size.width)) + caretWidth / 2
        style.foreground.setSource(on: cr)
        cairo_set_line_width(cr, caretWidth)
        cairo_move_to(cr, caretX, Double(origin.y))
        cairo_line_to(cr, caretX, Double(origin.y + shown.size.height))
        cairo_stroke(cr)
    }

    /// Each button: a rounded fill of the foreground colour, faint, and its label centred.
    func draw(into cr: OpaquePointer, style: Style) {
        let fill = style.foreground.faded(style.buttonFillOpacity)
        for (label, rect) in zip(labels, rects) {
            cairo_save(cr)
            RoundedRect.addPath(
                at: Double(rect.x), Double(rect.y), to: cr, width: Double(rect.width), height: Double(rect.height),
                radius: radius)
            fill.setSource(on: cr)
            cairo_fill(cr)
            cairo_restore(cr)
            label.draw(
                into: cr,
                at: Point(x: rect.x + (rect.width - label.size.width) / 2, y: rect.y + (rect.height - label.size.height) / 2))
        }
    }
}
