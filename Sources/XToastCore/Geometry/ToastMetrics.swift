/// A style resolved for one monitor and scale: every length in whole device pixels.
public struct ToastMetrics: Equatable, Sendable {
    public let scale: Double
    public let padding: Int
    public let cornerRadius: Double
    public let minimumHeight: Int
    public let margin: Int
    public let offset: Point
    /// The widest the text may be before it wraps.
    public let maximumTextWidth: Int
    /// The tallest the text may be: the monitor's height less the margins and padding.
    public let maximumTextHeight: Int
    /// The largest box the monitor takes with its margins: whatever the text, padding, font
    /// or scale, the box is never larger.
    public let maximumBoxSize: Size

    public init(style: Style, scale: Double, monitor: Size) {
        func px(_ logical: Double) -> Int { Int((logical * scale).rounded()) }
        self.scale = scale
        margin = px(style.edgeMargin)
        maximumBoxSize = Size(width: max(monitor.width - 2 * margin, 1), height: max(monitor.height - 2 * margin, 1))
        let leastTextWidth = px(style.minimumTextWidth)
        // Padding leaves room for some text: the least text width across, half the height down.
        padding = max(min(px(style.padding), (maximumBoxSize.width - leastTextWidth) / 2, maximumBoxSize.height / 4), 0)
        cornerRadius = max(style.cornerRadius * scale, 0)
        minimumHeight = min(px(style.minimumHeight), maximumBoxSize.height)
        offset = Point(x: px(style.offset.x), y: px(style.offset.y))
        let widest = style.maximumWidth.map(px) ?? Int(Double(monitor.width) * style.maximumWidthFraction)
        let boxWidth = min(widest, maximumBoxSize.width)
        maximumTextWidth = max(boxWidth - 2 * padding, leastTextWidth)
        maximumTextHeight = max(maximumBoxSize.height - 2 * padding, 1)
    }

    /// The box around text of the given size: padding on every side, never lower than the
    /// minimum, never larger than the monitor takes.
    public func boxSize(forText text: Size) -> Size {
        Size(
            width: min(text.width + 2 * padding, maximumBoxSize.width),
            height: min(max(text.height + 2 * padding, minimumHeight), maximumBoxSize.height))
    }

    /// Where the text's top-left corner goes inside the box: centred, rounded down.
    public func textOrigin(forText text: Size, inBox box: Size) -> Point {
        Point(x: (box.width - text.width) / 2, y: (box.height - text.height) / 2)
    }
}
