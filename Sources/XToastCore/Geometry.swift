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
