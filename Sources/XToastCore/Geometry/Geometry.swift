/// A point in device pixels.
public struct Point: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A size in device pixels.
public struct Size: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle in device pixels (the X server's integer grid).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var origin: Point { Point(x: x, y: y) }
    public var size: Size { Size(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    /// Whether the point lies inside (the right and bottom edges are outside, as in X).
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The smallest rectangle containing both.
    public func union(_ other: Rect) -> Rect {
        let left = min(x, other.x)
        let top = min(y, other.y)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The number of pixels the two rectangles share.
    public func overlapArea(with other: Rect) -> Int {
        let w = min(maxX, other.maxX) - max(x, other.x)
        let h = min(maxY, other.maxY) - max(y, other.y)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// The squared distance from the point to the nearest pixel of the rectangle (0 inside).
    public func squaredDistance(to point: Point) -> Int {
        let dx = point.x < x ? x - point.x : (point.x >= maxX ? point.x - maxX + 1 : 0)
        let dy = point.y < y ? y - point.y : (point.y >= maxY ? point.y - maxY + 1 : 0)
        return dx * dx + dy * dy
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// Space around a rectangle on each side, in device pixels.
public struct Insets: Equatable, Sendable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int

    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    public static let zero = Insets(left: 0, top: 0, right: 0, bottom: 0)
}

extension Rect {
    /// This rectangle with `margins` around it, grown or shrunk by `factor` about the
    /// rectangle's own centre, rounded outwards to whole pixels and never empty: the window
    /// that holds a box drawn at that scale, and nothing more.
    public func scaled(by factor: Double, margins: Insets = .zero) -> Rect {
        let f = max(factor, 0)
        let cx = Double(x) + Double(width) / 2
        let cy = Double(y) + Double(height) / 2
        let left = Int((cx - (Double(width) / 2 + Double(margins.left)) * f).rounded(.down))
        let top = Int((cy - (Double(height) / 2 + Double(margins.top)) * f).rounded(.down))
        let right = Int((cx + (Double(width) / 2 + Double(margins.right)) * f).rounded(.up))
        let bottom = Int((cy + (Double(height) / 2 + Double(margins.bottom)) * f).rounded(.up))
        return Rect(x: left, y: top, width: max(right - left, 1), height: max(bottom - top, 1))
    }

    /// Moved by `dx`, `dy`.
    public func offsetBy(_ dx: Int, _ dy: Int) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }
}
