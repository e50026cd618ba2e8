import Testing

@testable import XToastCore

/// The right-hand monitor of a side-by-side pair, so that every coordinate is monitor-relative.
private let monitor = Rect(x: 1920, y: 0, width: 1920, height: 1080)
private let box = Size(width: 200, height: 38)
private let margin = 15

@Suite("Placement")
struct PlacementTests {
    @Test(
        "Every position, 15 px from the edges it is anchored to, centring rounded down",
        arguments: [
            // bottom-centre: x = 1920 + (1920 − 200) / 2, y = 1080 − 15 − 38
            (Position.bottom, Point(x: 2780, y: 1027)),
            (.top, Point(x: 2780, y: 15)),
            (.center, Point(x: 2780, y: 521)),  // (1080 − 38) / 2 = 521
            (.topLeft, Point(x: 1935, y: 15)),
            (.topRight, Point(x: 3625, y: 15)),  // 3840 − 15 − 200
            (.bottomLeft, Point(x: 1935, y: 1027)),
            (.bottomRight, Point(x: 3625, y: 1027)),
        ])
    func positions(position: Position, expected: Point) {
        #expect(Placement.origin(for: box, on: monitor, position: position, margin: margin, offset: Point(x: 0, y: 0)) == expected)
    }

    @Test("Position names are the --position spellings", arguments: Position.allCases)
    func names(position: Position) {
        #expect(Position(rawValue: position.rawValue) == position)
        #expect(position.rawValue.allSatisfy { $0.isLowercase || $0 == "-" })
    }

    @Test("Centring an odd remainder rounds down, never to a half pixel")
    func oddRemainder() {
        let odd = Size(width: 201, height: 39)
        let origin = Placement.origin(for: odd, on: monitor, position: .center, margin: margin, offset: Point(x: 0, y: 0))
        #expect(origin == Point(x: 1920 + 859, y: 520))  // 1719 / 2 = 859.5, 1041 / 2 = 520.5
    }

    @Test("Centring rounds down on monitors at negative coordinates too")
    func negativeMonitor() {
        let left = Rect(x: -1280, y: -1024, width: 1280, height: 1024)
        let origin = Placement.origin(
            for: Size(width: 101, height: 39), on: left, position: .center, margin: margin, offset: Point(x: 0, y: 0))
        #expect(origin == Point(x: -1280 + 589, y: -1024 + 492))
    }

    @Test(
        "The offset moves the box",
        arguments: [
            (Position.bottom, Point(x: 10, y: -20), Point(x: 2790, y: 1007)),
            (.top, Point(x: -100, y: 50), Point(x: 2680, y: 65)),
            (.topLeft, Point(x: 5, y: 5), Point(x: 1940, y: 20)),
        ])
    func offsets(position: Position, offset: Point, expected: Point) {
        #expect(Placement.origin(for: box, on: monitor, position: position, margin: margin, offset: offset) == expected)
    }

    @Test(
        "An offset that would push the box off its monitor is clamped at the edge",
        arguments: [
            (Position.bottom, Point(x: 5000, y: 0), Point(x: 3640, y: 1027)),
            (.bottom, Point(x: 0, y: 100), Point(x: 2780, y: 1042)),
            (.topRight, Point(x: 100, y: -100), Point(x: 3640, y: 0)),
            (.bottomLeft, Point(x: -5000, y: 5000), Point(x: 1920, y: 1042)),
        ])
    func clamped(position: Position, offset: Point, expected: Point) {
        #expect(Placement.origin(for: box, on: monitor, position: position, margin: margin, offset: offset) == expected)
    }

    static let offsets = [-100_000, -1921, -200, -16, 0, 16, 200, 1921, 100_000]

    @Test("A box that fits never leaves its monitor, whatever the position and offset", arguments: Position.allCases)
    func neverStraddles(position: Position) {
        for dx in Self.offsets {
            for dy in Self.offsets {
                let origin = Placement.origin(for: box, on: monitor, position: position, margin: margin, offset: Point(x: dx, y: dy))
                let placed = Rect(origin: origin, size: box)
                #expect(monitor.contains(placed), "\(position) offset \(dx),\(dy) → \(placed)")
            }
        }
    }

    @Test("A box larger than the monitor keeps its top-left corner on it", arguments: Position.allCases)
    func oversize(position: Position) {
        let huge = Size(width: 2000, height: 1200)
        for offset in [Point(x: 0, y: 0), Point(x: 500, y: 500), Point(x: -500, y: -500)] {
            #expect(Placement.origin(for: huge, on: monitor, position: position, margin: margin, offset: offset) == monitor.origin)
        }
    }

    @Test("A box exactly as large as the monitor fills it")
    func exactFit() {
        for position in Position.allCases {
            #expect(
                Placement.origin(for: monitor.size, on: monitor, position: position, margin: margin, offset: Point(x: 0, y: 0))
                    == monitor.origin)
        }
    }
}
