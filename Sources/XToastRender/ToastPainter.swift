import CCairo
import XToastCore

/// A toast's content, laid out once and drawable into any Cairo context (a PNG or a window):
/// the box with its border and shadow, an icon, a title, the message and a progress bar.
public final class ToastPainter {
    public let style: Style
    public let metrics: ToastMetrics
    /// The box in device pixels.
    public let boxSize: Size
    /// How far the drawing reaches past the box on each side (the shadow), device pixels.
    public let margins: (left: Int, top: Int, right: Int, bottom: Int)
    /// Markup was asked for but could not be read: the text is shown plain.
    public let markupFailed: Bool
    /// Whether a spinner turns in the icon's place; drawn per frame by `drawSpinner`.
    public let hasSpinner: Bool
    /// Why the icon is left out: it cannot be drawn, or would cost more than its bound (one warning).
    public let iconWarning: String?
    /// What to tell the user then.
    public static let markupWarning = "the markup does not parse; showing it as plain text"
    private let layout: Layout
    /// The reply entry, while it is open (`--reply`): drawn in the button row's place.
    public var reply: (text: String, placeholder: String)?

    /// Where everything sits inside the box.
    struct Layout {
        var title: TextLayout?
        var message: TextLayout
        var icon: IconImage?
        var progress: Progress?
        var buttons: ButtonRow?
        var iconRect = Rect(x: 0, y: 0, width: 0, height: 0)
        var titleOrigin = Point(x: 0, y: 0)
        var messageOrigin = Point(x: 0, y: 0)
        var barRect = Rect(x: 0, y: 0, width: 0, height: 0)
    }

    /// The whole drawing's size: the box and its margins.
    public var contentSize: Size {
        Size(width: boxSize.width + margins.left + margins.right, height: boxSize.height + margins.top + margins.bottom)
    }

    /// Lays the content out. An icon that cannot be drawn is left out, with `iconWarning`.
    public init(content: ToastContent, style: Style, metrics: ToastMetrics) throws(RenderError) {
        self.style = style
        self.metrics = metrics
        let scale = metrics.scale
        func px(_ logical: Double) -> Int { Int((logical * scale).rounded()) }
        let iconSide = px(style.iconSize)
        let icon: IconImage?
        (icon, iconWarning) = Self.loadIcon(content, style: style, side: iconSide)
        hasSpinner = content.spinner
        let hasIcon = icon != nil || content.spinner
        let besideIcon = hasIcon && style.layout == .row ? iconSide + px(style.iconGap) : 0
        let textWidth = max(metrics.maximumTextWidth - besideIcon, px(style.minimumTextWidth))
        // The title takes at most half the height the monitor leaves; the message what is left
        // beside the bar.
        let title = content.title.map {
            TextLayout(
                text: $0, font: style.font, color: style.foreground, maximumWidth: textWidth, maximumLines: style.titleMaximumLines,
                maximumHeight: metrics.maximumTextHeight / 2, scale: scale, bold: true, markup: content.markup)
        }
        let titleGap = title == nil ? 0 : px(style.titleGap)
        let barHeight = content.progress == nil ? 0 : px(style.progressHeight)
        let barGap = content.progress == nil ? 0 : px(style.progressGap)
        let message = TextLayout(
            text: content.message, font: style.font, color: style.foreground, maximumWidth: textWidth,
            maximumLines: style.maximumLines,
            maximumHeight: metrics.maximumTextHeight - (title?.size.height ?? 0) - titleGap - barGap - barHeight, scale: scale,
            markup: content.markup)
        markupFailed = message.markupFailed || (title?.markupFailed ?? false)

        // The text column: title, message, bar, each centred in it.
        let column = Size(
            width: max(
                title?.size.width ?? 0, message.size.width, content.progress == nil ? 0 : min(px(style.progressMinimumWidth), textWidth)),
            height: (title?.size.height ?? 0) + titleGap + message.size.height + barGap + barHeight)

        var layout = Layout(title: title, message: message, icon: icon, progress: content.progress)
        let frame = Self.frame(
            column: column, iconSide: hasIcon ? iconSide : 0, besideIcon: besideIcon, style: style, metrics: metrics)
        var box = frame.box
        var columnOrigin = frame.columnOrigin
        layout.iconRect = frame.iconRect
        // Buttons go in a row under everything else: the box grows down by the row (and widens
        // for it, with what is above staying centred).
        let padding = metrics.padding
        if var row = ButtonRow(
            labels: content.buttons, style: style, scale: scale, maximumWidth: metrics.maximumBoxSize.width - 2 * padding)
        {
            // With a reply button, room to type a line.
            let entry = content.reply == nil ? 0 : px(style.replyMinimumWidth)
            let width = min(max(box.width, row.width + 2 * padding, entry), metrics.maximumBoxSize.width)
            let dx = (width - box.width) / 2
            columnOrigin.x += dx
            layout.iconRect = layout.iconRect.offsetBy(dx, 0)
            row.place(inWidth: width, top: box.height - padding + row.gap, padding: padding)
            box = Size(width: width, height: min(box.height + row.gap + row.height, metrics.maximumBoxSize.height))
            layout.buttons = row
        }
        boxSize = box
        if let title {
            layout.titleOrigin = Point(x: columnOrigin.x + (column.width - title.size.width) / 2, y: columnOrigin.y)
        }
        let messageTop = columnOrigin.y + (title?.size.height ?? 0) + titleGap
        layout.messageOrigin = Point(x: columnOrigin.x + (column.width - message.size.width) / 2, y: messageTop)
        layout.barRect = Rect(x: columnOrigin.x, y: messageTop + message.size.height + barGap, width: column.width, height: barHeight)
        self.layout = layout
        margins = Self.margins(for: style.shadow, scale: scale)
    }

    /// The icon to draw (a spinner takes its place), or why it is left out: past its bound, or
    /// gone or changed since it was checked (a notification's icon is checked only here).
    private static func loadIcon(_ content: ToastContent, style: Style, side: Int) -> (IconImage?, String?) {
        guard !content.spinner, let wanted = content.icon ?? style.defaultIcon else { return (nil, nil) }
        do {
            return (try IconImage.load(wanted, pixelSize: side, theme: content.iconTheme), nil)
        } catch {
            return (nil, "\(error.description); showing the toast without it")
        }
    }

    /// The box around the text column and the icon, in the style's layout, with where each goes.
    private static func frame(column: Size, iconSide: Int, besideIcon: Int, style: Style, metrics: ToastMetrics) -> (
        box: Size, iconRect: Rect, columnOrigin: Point
    ) {
        func px(_ logical: Double) -> Int { Int((logical * metrics.scale).rounded()) }
        let side = px(style.iconSize)
        switch style.layout {
        case .row:
            let inner = Size(width: besideIcon + column.width, height: max(iconSide, column.height))
            var box = metrics.boxSize(forText: inner)
            box.width = min(max(box.width, px(style.minimumWidth)), metrics.maximumBoxSize.width)
            let origin = Point(x: (box.width - inner.width) / 2, y: (box.height - inner.height) / 2)
            let iconRect = Rect(x: origin.x, y: origin.y + (inner.height - iconSide) / 2, width: side, height: side)
            return (box, iconRect, Point(x: origin.x + besideIcon, y: origin.y + (inner.height - column.height) / 2))
        case .hud:
            // The HUD design: the icon's centre an eighth of the box above the middle, the
            // text's a quarter below; the box grows (from 96×96) only when the content needs it.
            let padding = metrics.padding
            let width = max(px(style.minimumWidth), max(iconSide, column.width) + 2 * padding)
            let height = max(
                metrics.minimumHeight, Int((4 * (Double(column.height) / 2 + Double(padding))).rounded(.up)),
                Int((8.0 / 3 * (Double(side) / 2 + Double(padding))).rounded(.up)))
            let iconCentre = Point(x: width / 2, y: height / 2 - height / 8)
            let iconRect = Rect(x: iconCentre.x - side / 2, y: iconCentre.y - side / 2, width: side, height: side)
            let box = Size(width: min(width, metrics.maximumBoxSize.width), height: min(height, metrics.maximumBoxSize.height))
            return (box, iconRect, Point(x: (width - column.width) / 2, y: height / 2 + height / 4 - column.height / 2))
        }
    }

    /// The room the shadow takes around the box: left, top, right, bottom.
    private static func margins(for shadow: Shadow?, scale: Double) -> (left: Int, top: Int, right: Int, bottom: Int) {
        guard let shadow else { return (0, 0, 0, 0) }
        let spread = Int((2 * shadow.radius * scale).rounded(.up))
        let dx = Int((shadow.offset.x * scale).rounded())
        let dy = Int((shadow.offset.y * scale).rounded())
        return (max(spread - dx, 0), max(spread - dy, 0), max(spread + dx, 0), max(spread + dy, 0))
    }

    /// Checks that an icon can be loaded (a file that reads as PNG, a name the theme has), so
    /// that a bad one is reported at once, not when the toast's turn comes.
    /// Returns one line of what drawing it printed (Pango's warnings about an SVG's text).
    @discardableResult
    public static func check(icon: Icon, theme: String? = nil) throws(RenderError) -> String? {
        guard case .svg(let document) = try IconImage.load(icon, pixelSize: 32, theme: theme) else { return nil }
        return document.chatter
    }

    /// Draws everything with the box's top-left corner at (`margins.left`, `margins.top`).
    /// `opaque` drops the background's alpha and the shadow: where no compositor blends, a
    /// translucent colour would only come out darker, never see-through.
    public func draw(into cr: OpaquePointer, opaque: Bool) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, Double(margins.left), Double(margins.top))
        if !opaque, let shadow = style.shadow { drawShadow(shadow, into: cr) }
        drawBackground(into: cr, size: boxSize, opaque: opaque)
        drawForeground(into: cr)
    }

    /// Everything, with the spinner (if any) at `turn`: for a PNG, where nothing turns.
    func drawStill(into cr: OpaquePointer, opaque: Bool) {
        draw(into: cr, opaque: opaque)
        cairo_save(cr)
        cairo_translate(cr, Double(margins.left), Double(margins.top))
        drawSpinner(into: cr, turn: 0.1)
        cairo_restore(cr)
    }

    /// The box alone, `size` large at the context's origin (a box on its way to `boxSize`).
    public func drawBackground(into cr: OpaquePointer, size: Size, opaque: Bool) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        addBoxPath(to: cr, size: size)
        (opaque ? style.background.opaque : style.background).setSource(on: cr)
        cairo_fill(cr)
        let border = style.borderWidth * metrics.scale
        if border > 0 {
            cairo_translate(cr, border / 2, border / 2)
            RoundedRect.addPath(
                to: cr, width: Double(size.width) - border, height: Double(size.height) - border,
                radius: max(metrics.cornerRadius - border / 2, 0))
            (opaque ? style.borderColor.opaque : style.borderColor).setSource(on: cr)
            cairo_set_line_width(cr, border)
            cairo_stroke(cr)
        }
    }

    /// Everything on the box (icon, title, message, bar), where it sits in a `boxSize` box at
    /// the context's origin.
    public func drawForeground(into cr: OpaquePointer, bar: Bool = true) {
        layout.icon?.draw(into: cr, in: layout.iconRect, style: style)
        if let title = layout.title { title.draw(into: cr, at: layout.titleOrigin) }
        layout.message.draw(into: cr, at: layout.messageOrigin)
        if bar, let progress = layout.progress { drawBar(progress, into: cr) }
        if let reply, let row = layout.buttons {
            row.drawEntry(text: reply.text, placeholder: reply.placeholder, into: cr, style: style, scale: metrics.scale)
        } else {
            layout.buttons?.draw(into: cr, style: style)
        }
    }

    /// The URL of the link at `point` (device pixels from the box's top-left corner), if any: on
    /// a link's text in the message or the title.
    public func link(at point: Point) -> String? {
        func within(_ origin: Point) -> Point { Point(x: point.x - origin.x, y: point.y - origin.y) }
        return layout.message.link(at: within(layout.messageOrigin)) ?? layout.title?.link(at: within(layout.titleOrigin))
    }

    /// The button at `point` (device pixels from the box's top-left corner), if any.
    public func button(at point: Point) -> Int? { reply == nil ? layout.buttons?.button(at: point) : nil }

    /// The progress value this toast shows, if it has a bar.
    public var progress: Progress? { layout.progress }

    /// The spinner at `turn` (0...1 of a full turn), in a `boxSize` box at the context's origin:
    /// a faint ring with a quarter arc going round it.
    public func drawSpinner(into cr: OpaquePointer, turn: Double) {
        guard hasSpinner else { return }
        let rect = layout.iconRect
        let width = Double(rect.width) * style.spinnerLineWidth
        let radius = (Double(min(rect.width, rect.height)) - width) / 2
        let centre = (x: Double(rect.x) + Double(rect.width) / 2, y: Double(rect.y) + Double(rect.height) / 2)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // The text leaves a current point; an arc would draw a line from it.
        cairo_new_path(cr)
        Color(
            red: style.foreground.red, green: style.foreground.green, blue: style.foreground.blue, alpha: style.spinnerTrackOpacity
        ).setSource(on: cr)
        cairo_arc(cr, centre.x, centre.y, radius, 0, 2 * Double.pi)
        cairo_stroke(cr)
        style.foreground.setSource(on: cr)
        let start = (turn - turn.rounded(.down)) * 2 * Double.pi - Double.pi / 2
        cairo_arc(cr, centre.x, centre.y, radius, start, start + Double.pi / 2)
        cairo_stroke(cr)
    }

    /// The rounded outline of a `size` box at the context's origin.
    public func addBoxPath(to cr: OpaquePointer, size: Size) {
        RoundedRect.addPath(to: cr, width: Double(size.width), height: Double(size.height), radius: metrics.cornerRadius)
    }

    /// The toast alone, on a transparent image of its content size (shadow included).
    public func image(opaque: Bool = false) throws(RenderError) -> CairoSurface {
        let surface = try CairoSurface(imageOf: contentSize)
        try surface.draw { cr in drawStill(into: cr, opaque: opaque) }
        return surface
    }

    /// The bar at `progress` (its place is laid out for this toast's own value): a rounded
    /// track, the value over it, and past 100 the overflow at its end.
    public func drawBar(_ progress: Progress, into cr: OpaquePointer) {
        let bar = layout.barRect
        let radius = Double(bar.height) / 2
        func segment(_ from: Double, _ to: Double, _ color: Color) {
            guard to > from else { return }
            cairo_save(cr)
            RoundedRect.addPath(
                at: Double(bar.x), Double(bar.y), to: cr, width: Double(bar.width), height: Double(bar.height), radius: radius)
            cairo_clip(cr)
            cairo_rectangle(
                cr, Double(bar.x) + from * Double(bar.width), Double(bar.y), (to - from) * Double(bar.width), Double(bar.height))
            color.setSource(on: cr)
            cairo_fill(cr)
            cairo_restore(cr)
        }
        let (filled, overflow) = progress.fractions
        segment(0, 1, style.progressTrackColor)
        segment(0, filled, progress.alternate ? style.progressAlternateColor : style.progressColor)
        segment(1 - min(overflow, 1), 1, style.progressOverflowColor)
    }

    /// A blurred copy of the box under it: drawn into an alpha mask, blurred with three box
    /// passes (close to a Gaussian), painted in the shadow's colour.
    private func drawShadow(_ shadow: Shadow, into cr: OpaquePointer) {
        let size = contentSize
        guard let mask = try? CairoSurface(maskOf: size) else { return }
        try? mask.draw { m in
            cairo_translate(
                m, Double(margins.left) + shadow.offset.x * metrics.scale, Double(margins.top) + shadow.offset.y * metrics.scale)
            addBoxPath(to: m, size: boxSize)
            cairo_set_source_rgba(m, 0, 0, 0, min(max(shadow.opacity, 0), 1))
            cairo_fill(m)
        }
        mask.blurAlpha(radius: Int((shadow.radius * metrics.scale / 2).rounded()))
        cairo_save(cr)
        shadow.color.setSource(on: cr)
        cairo_mask_surface(cr, mask.pointer, -Double(margins.left), -Double(margins.top))
        cairo_restore(cr)
    }
}

enum RoundedRect {
    /// A rounded rectangle path, radius capped at half the shorter side.
    static func addPath(at x: Double = 0, _ y: Double = 0, to cr: OpaquePointer, width w: Double, height h: Double, radius: Double) {
        let r = min(radius, w / 2, h / 2)
        guard r > 0 else {
            cairo_rectangle(cr, x, y, w, h)
            return
        }
        let quarter = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -quarter, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, quarter)
        cairo_arc(cr, x + r, y + h - r, r, quarter, 2 * quarter)
        cairo_arc(cr, x + r, y + r, r, 2 * quarter, 3 * quarter)
        cairo_close_path(cr)
    }
}
