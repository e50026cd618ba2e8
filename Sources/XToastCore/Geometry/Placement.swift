/// Where on its monitor a toast sits.
public enum Position: String, CaseIterable, Sendable {
    case top, center, bottom
    case topLeft = "top-left", topRight = "top-right"
    case bottomLeft = "bottom-left", bottomRight = "bottom-right"

    enum Anchor { case start, middle, end }

    /// Which way stacked toasts line up from this position: +1 downwards, -1 upwards.
    public var stackDirection: Int { vertical == .end ? -1 : 1 }

    var horizontal: Anchor {
        switch self {
        case .topLeft, .bottomLeft: .start
        case .top, .center, .bottom: .middle
        case .topRight, .bottomRight: .end
        }
    }

    var vertical: Anchor {
        switch self {
        case .top, .topLeft, .topRight: .start
        case .center: .middle
        case .bottom, .bottomLeft, .bottomRight: .end
        }
    }
}

/// Where a box of a given size goes on a monitor.
public enum Placement {
    /// The top-left corner of a `size` box on `monitor`: `margin` pixels from the edges it is
    /// anchored to, moved by `offset`, then pulled back inside the monitor so that it never
    /// straddles two. Centring rounds down, as the design does (fractional origins blur).
    public static func origin(for size: Size, on monitor: Rect, position: Position, margin: Int, offset: Point) -> Point {
        func place(_ anchor: Position.Anchor, start: Int, length: Int, box: Int) -> Int {
            switch anchor {
            case .start: start + margin
            case .middle: start + floorDiv(length - box, 2)
            case .end: start + length - margin - box
            }
        }
        let x = place(position.horizontal, start: monitor.x, length: monitor.width, box: size.width) + offset.x
        let y = place(position.vertical, start: monitor.y, length: monitor.height, box: size.height) + offset.y
        return Point(
            x: clamp(x, low: monitor.x, high: monitor.maxX - size.width),
            y: clamp(y, low: monitor.y, high: monitor.maxY - size.height))
    }

    /// A box larger than the monitor keeps its top-left corner on the monitor.
    private static func clamp(_ value: Int, low: Int, high: Int) -> Int {
        max(low, min(value, high))
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
