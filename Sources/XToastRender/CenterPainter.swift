import CCairo
import XToastCore

/// Draws the notification centre (`Center`) with the toasts' own style: their font, colours,
/// corners, border and buttons. Its header (the title with the unread count, "Clear all", the
/// do-not-disturb switch) sits above the list; each frame lays out only the rows it shows, so a
/// list of thousands draws as fast as one of ten. Says what a point falls on (`hit`), by the
/// same layout it draws.
public final class CenterPainter {
    public let style: Style
    public let scale: Double
    /// The window's size, device pixels.
    public let size: Size
    /// The rows' heights and the list's viewport, for `Center`.
    public let metrics: Center.Metrics
    private let look = CenterLook.standard
    private let iconTheme: String?
    /// Icons drawn lately, by what names them: a frame loads only the ones new to it.
    private var icons: [String: IconImage?] = [:]

    /// A painter for a `size` window (see `size(in:scale:)`).
    public init(style: Style, scale: Double, size: Size, iconTheme: String?) {
        self.style = style
        self.scale = scale
        self.size = size
        self.iconTheme = iconTheme
        let px = { (logical: Double) in Int((logical * scale).rounded()) }
        metrics = Center.Metrics(
            group: px(look.groupHeight), entry: px(look.entryHeight), buttons: px(look.buttonsHeight),
            viewport: max(size.height - px(look.headerHeight) - px(look.padding), px(look.entryHeight)))
    }

    /// The window's size on a monitor whose work area is `area` (device pixels): a column at
    /// its right edge, as tall as the work area leaves.
    public static func size(in area: Rect, scale: Double) -> Size {
        let look = CenterLook.standard
        let margin = Int((look.margin * scale).rounded())
        return Size(
            width: min(Int((look.width * scale).rounded()), max(area.width - 2 * margin, 1)), height: max(area.height - 2 * margin, 1))
    }

    /// Where the window goes in work area `area`: its top right corner, a margin in.
    public static func origin(in area: Rect, size: Size, scale: Double) -> Point {
        let margin = Int((CenterLook.standard.margin * scale).rounded())
        return Point(x: area.x + area.width - size.width - margin, y: area.y + margin)
    }

    private func px(_ logical: Double) -> Int { Int((logical * scale).rounded()) }

    // MARK: Drawing

    /// Draws `center` at `now` (wall clock seconds, for the ages); `opaque`: no compositor
    /// blends, so the background's alpha is dropped.
    public func draw(_ center: Center, into cr: OpaquePointer, now: Int, opaque: Bool) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, 0, 0, 0, 0)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        RoundedRect.addPath(to: cr, width: Double(size.width), height: Double(size.height), radius: style.cornerRadius * scale)
        (opaque ? style.background.opaque : style.background).setSource(on: cr)
        cairo_fill(cr)
        let border = style.borderWidth * scale
        if border > 0 {
            RoundedRect.addPath(
                at: border / 2, border / 2, to: cr, width: Double(size.width) - border, height: Double(size.height) - border,
                radius: max(style.cornerRadius * scale - border / 2, 0))
            (opaque ? style.borderColor.opaque : style.borderColor).setSource(on: cr)
            cairo_set_line_width(cr, border)
            cairo_stroke(cr)
        }
        drawHeader(center, into: cr)
        let listTop = px(look.headerHeight)
        cairo_rectangle(cr, 0, Double(listTop), Double(size.width), Double(metrics.viewport))
        cairo_clip(cr)
        if center.rows.isEmpty {
            let text = self.text(look.emptyText, width: size.width - 2 * px(look.padding), faint: true, alignment: PANGO_ALIGN_CENTER)
            text.draw(into: cr, at: Point(x: px(look.padding), y: listTop + px(look.entryHeight) / 2))
        }
        for (row, top) in center.visibleRows {
            drawRow(row, of: center, into: cr, top: listTop + top, now: now)
        }
    }

    /// The title and unread count, "Clear all", and the do-not-disturb switch under them, with
    /// who holds notifications beside it.
    private func drawHeader(_ center: Center, into cr: OpaquePointer) {
        let padding = px(look.padding)
        let line = px(look.headerHeight) / 2
        let unread = center.unread
        // All the width "Clear all" leaves.
        let title = text(
            unread == 0 ? look.title : "\(look.title) · \(unread) new", width: size.width - 3 * padding - px(look.clearAllWidth),
            bold: true, alignment: PANGO_ALIGN_LEFT)
        title.draw(into: cr, at: Point(x: padding, y: (line - title.size.height) / 2 + padding / 2))
        if center.count > 0, let clear = clearAllRect { drawButton(look.clearAllText, in: clear, chosen: false, into: cr) }
        let label = text(look.pauseText, width: size.width / 2, faint: false, alignment: PANGO_ALIGN_LEFT)
        label.draw(into: cr, at: Point(x: padding, y: line + (line - label.size.height) / 2))
        drawSwitch(on: center.paused, in: switchRect, into: cr)
        // Who holds notifications, between the label and the switch (cut to the room there):
        // the switch is the pause's, and says nothing of an application's inhibition.
        if let held = center.heldText {
            let gap = px(look.iconGap)
            let room = switchRect.x - gap - (padding + label.size.width + gap)
            let layout = text(held, width: room, faint: true, alignment: PANGO_ALIGN_RIGHT)
            layout.draw(into: cr, at: Point(x: switchRect.x - gap - layout.size.width, y: line + (line - layout.size.height) / 2))
        }
    }

    /// A switch: a pill, the foreground's when on with a knob of the background's at its right;
    /// faint when off, the knob the foreground's at its left.
    private func drawSwitch(on: Bool, in rect: Rect, into cr: OpaquePointer) {
        let radius = Double(rect.height) / 2
        RoundedRect.addPath(
            at: Double(rect.x), Double(rect.y), to: cr, width: Double(rect.width), height: Double(rect.height), radius: radius)
        (on ? style.foreground : faint(look.switchTrackOpacity)).setSource(on: cr)
        cairo_fill(cr)
        let inset = look.switchKnobInset * scale
        let knob = Double(rect.height) - 2 * inset
        let x = on ? Double(rect.x + rect.width) - inset - knob : Double(rect.x) + inset
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + knob / 2, Double(rect.y) + Double(rect.height) / 2, knob / 2, 0, 2 * Double.pi)
        (on ? style.background.opaque : style.foreground).setSource(on: cr)
        cairo_fill(cr)
    }

    private func drawRow(_ row: Int, of center: Center, into cr: OpaquePointer, top: Int, now: Int) {
        let padding = px(look.padding)
        let height = center.height(of: row)
        if center.selected == row, center.selectedButton == nil {
            RoundedRect.addPath(
                at: Double(padding / 2), Double(top), to: cr, width: Double(size.width - padding), height: Double(height),
                radius: style.buttonRadius * scale)
            faint(look.selectionOpacity).setSource(on: cr)
            cairo_fill(cr)
        }
        guard case .entry = center.rows[row], let entry = center.entry(row) else {
            if case .group(let g) = center.rows[row] { drawGroup(center.groups[g], into: cr, top: top, height: height) }
            return
        }
        let iconSide = px(look.iconSize)
        let iconRect = Rect(x: padding, y: top + px(look.rowPadding), width: iconSide, height: iconSide)
        if let icon = icon(entry.icon, side: iconSide) { icon.draw(into: cr, in: iconRect, style: style) }
        let left = padding + iconSide + px(look.iconGap)
        let age = text(Center.age(of: entry.time, now: now), width: size.width / 4, faint: true, alignment: PANGO_ALIGN_RIGHT)
        age.draw(into: cr, at: Point(x: size.width - padding - age.size.width, y: top + px(look.rowPadding)))
        let width = size.width - left - padding - age.size.width - px(look.iconGap)
        let title = text(entry.title, width: width, bold: true, alignment: PANGO_ALIGN_LEFT)
        title.draw(into: cr, at: Point(x: left, y: top + px(look.rowPadding)))
        if entry.unread {
            let dot = Double(px(look.unreadDot))
            cairo_new_sub_path(cr)
            cairo_arc(cr, Double(left) - dot, Double(top + px(look.rowPadding)) + dot, dot / 2, 0, 2 * Double.pi)
            style.progressColor.setSource(on: cr)
            cairo_fill(cr)
        }
        if !entry.text.isEmpty {
            let body = text(entry.text, width: size.width - left - padding, lines: 2, alignment: PANGO_ALIGN_LEFT)
            body.draw(into: cr, at: Point(x: left, y: top + px(look.rowPadding) + title.size.height))
        }
        for (index, rect) in buttonRects(entry, top: top).enumerated() {
            drawButton(entry.buttons[index], in: rect, chosen: center.selected == row && center.selectedButton == index, into: cr)
        }
    }

    private func drawGroup(_ group: Center.Group, into cr: OpaquePointer, top: Int, height: Int) {
        let padding = px(look.padding)
        faint(look.separatorOpacity).setSource(on: cr)
        cairo_rectangle(cr, Double(padding), Double(top), Double(size.width - 2 * padding), max(scale, 1))
        cairo_fill(cr)
        let name = text("\(group.app) · \(group.entries.count)", width: size.width - 2 * padding, bold: true, faint: true)
        name.draw(into: cr, at: Point(x: padding, y: top + (height - name.size.height) / 2))
    }

    private func drawButton(_ label: String, in rect: Rect, chosen: Bool, into cr: OpaquePointer) {
        RoundedRect.addPath(
            at: Double(rect.x), Double(rect.y), to: cr, width: Double(rect.width), height: Double(rect.height),
            radius: style.buttonRadius * scale)
        faint(chosen ? look.chosenButtonOpacity : style.buttonFillOpacity).setSource(on: cr)
        cairo_fill(cr)
        let layout = text(label, width: rect.width - 2 * px(style.buttonInset), alignment: PANGO_ALIGN_CENTER)
        layout.draw(
            into: cr, at: Point(x: rect.x + (rect.width - layout.size.width) / 2, y: rect.y + (rect.height - layout.size.height) / 2))
    }

    // MARK: Layout

    /// "Clear all", at the header's top right.
    private var clearAllRect: Rect? {
        let padding = px(look.padding)
        let width = px(look.clearAllWidth)
        let height = px(style.buttonHeight)
        return Rect(
            x: size.width - padding - width, y: (px(look.headerHeight) / 2 - height) / 2 + padding / 2, width: width, height: height)
    }

    /// The switch, at the header's second line's right.
    private var switchRect: Rect {
        let line = px(look.headerHeight) / 2
        let height = px(look.switchHeight)
        let width = px(look.switchWidth)
        return Rect(x: size.width - px(look.padding) - width, y: line + (line - height) / 2, width: width, height: height)
    }

    /// An entry's buttons, in a row under its text, each an equal share of the width.
    private func buttonRects(_ entry: CenterEntry, top: Int) -> [Rect] {
        guard !entry.buttons.isEmpty else { return [] }
        let left = px(look.padding) + px(look.iconSize) + px(look.iconGap)
        let gap = px(style.buttonGap)
        let width = (size.width - left - px(look.padding) - gap * (entry.buttons.count - 1)) / entry.buttons.count
        let y = top + metrics.entry + (metrics.buttons - px(style.buttonHeight)) / 2 - px(look.rowPadding) / 2
        return entry.buttons.indices.map { Rect(x: left + $0 * (width + gap), y: y, width: max(width, 1), height: px(style.buttonHeight)) }
    }

    /// What `point` (window pixels) falls on; outside the window: `.outside`.
    public func hit(at point: Point, in center: Center) -> Center.Hit {
        guard Rect(x: 0, y: 0, width: size.width, height: size.height).contains(point) else { return .outside }
        if switchRect.contains(point) { return .pauseSwitch }
        if center.count > 0, let clear = clearAllRect, clear.contains(point) { return .clearAll }
        let listTop = px(look.headerHeight)
        guard point.y >= listTop, point.y < listTop + metrics.viewport else { return .nothing }
        for (row, top) in center.visibleRows where point.y >= listTop + top && point.y < listTop + top + center.height(of: row) {
            if let entry = center.entry(row), let index = buttonRects(entry, top: listTop + top).firstIndex(where: { $0.contains(point) }) {
                return .button(row: row, index: index)
            }
            return .row(row)
        }
        return .nothing
    }

    // MARK: Pieces

    /// The foreground at `opacity` of its own alpha.
    private func faint(_ opacity: Double) -> Color {
        Color(
            red: style.foreground.red, green: style.foreground.green, blue: style.foreground.blue, alpha: style.foreground.alpha * opacity)
    }

    private func text(
        _ text: String, width: Int, lines: Int = 1, bold: Bool = false, faint: Bool = false, alignment: PangoAlignment = PANGO_ALIGN_LEFT
    ) -> TextLayout {
        TextLayout(
            text: text, font: style.font, color: faint ? self.faint(look.faintTextOpacity) : style.foreground, maximumWidth: max(width, 1),
            maximumLines: lines, maximumHeight: px(look.entryHeight), scale: scale, bold: bold, alignment: alignment)
    }

    /// The icon `name` names at `side` pixels, nil when there is none or it cannot be drawn (a
    /// row shows without it: the stores are hostile input). At most `iconCacheLimit` are held.
    private func icon(_ name: String?, side: Int) -> IconImage? {
        guard let name, let icon = Icon(parsing: name) else { return nil }
        if let found = icons[name] { return found }
        if icons.count >= look.iconCacheLimit { icons.removeAll(keepingCapacity: true) }
        let loaded = try? IconImage.load(icon, pixelSize: side, theme: iconTheme)
        icons[name] = .some(loaded)
        return loaded
    }
}
