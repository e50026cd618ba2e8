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

    public init(style: Style, scale: Double, monitorWidth: Int) {
        func px(_ logical: Double) -> Int { Int((logical * scale).rounded()) }
        self.scale = scale
        padding = max(px(style.padding), 0)
        cornerRadius = max(style.cornerRadius * scale, 0)
        minimumHeight = px(style.minimumHeight)
        margin = px(style.edgeMargin)
        offset = Point(x: px(style.offset.x), y: px(style.offset.y))
        let widest = style.maximumWidth.map(px) ?? Int(Double(monitorWidth) * style.maximumWidthFraction)
        // The box must fit on the monitor with its margins, and leave room for some text.
        let boxWidth = min(widest, monitorWidth - 2 * margin)
        maximumTextWidth = max(boxWidth - 2 * padding, px(style.minimumTextWidth))
    }

    /// The box around text of the given size: padding on every side, never lower than the minimum.
    public func boxSize(forText text: Size) -> Size {
        Size(width: text.width + 2 * padding, height: max(text.height + 2 * padding, minimumHeight))
    }

    /// Where the text's top-left corner goes inside the box: centred, rounded down.
    public func textOrigin(forText text: Size, inBox box: Size) -> Point {
        Point(x: (box.width - text.width) / 2, y: (box.height - text.height) / 2)
    }
}
