import Testing

@testable import XToastCore

/// The rule the shape must follow, computed independently: a pixel belongs to the shape when its
/// centre lies inside (or on) the rounded rectangle whose radius is capped at half the shorter side.
private func expectedPixels(size: Size, radius: Double) -> Set<Pixel> {
    let w = Double(size.width)
    let h = Double(size.height)
    let r = max(0, min(radius, min(w, h) / 2))
    var pixels = Set<Pixel>()
    for y in 0..<size.height {
        for x in 0..<size.width {
            let px = Double(x) + 0.5
            let py = Double(y) + 0.5
            // The nearest point of the inner rectangle whose r-neighbourhood is the rounded rect.
            let cx = min(max(px, r), w - r)
            let cy = min(max(py, r), h - r)
            if (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r { pixels.insert(Pixel(x: x, y: y)) }
        }
    }
    return pixels
}

private struct Pixel: Hashable {
    var x: Int
    var y: Int
}

/// Every pixel of every rectangle, counting repeats.
private func coveredPixels(_ rects: [Rect]) -> [Pixel] {
    rects.flatMap { rect in
        (rect.y..<rect.maxY).flatMap { y in (rect.x..<rect.maxX).map { x in Pixel(x: x, y: y) } }
    }
}

@Suite("Rounded-rectangle window shape")
struct RoundedRectShapeTests {
    @Test("No radius: one rectangle, the whole box", arguments: [0.0, -3])
    func square(radius: Double) {
        let size = Size(width: 100, height: 38)
        #expect(RoundedRectShape.rectangles(size: size, radius: radius) == [Rect(x: 0, y: 0, width: 100, height: 38)])
    }

    @Test("Radius 5 on the default 100×38 box: the corner pixel is cut, edges' middles are kept")
    func defaultBox() {
        let covered = Set(coveredPixels(RoundedRectShape.rectangles(size: Size(width: 100, height: 38), radius: 5)))
        // (1,0): centre (1.5, 0.5) is √32.5 ≈ 5.7 from the corner circle's centre (5, 5).
        for corner in [
            Pixel(x: 0, y: 0), Pixel(x: 99, y: 0), Pixel(x: 0, y: 37), Pixel(x: 99, y: 37), Pixel(x: 1, y: 0), Pixel(x: 0, y: 1),
        ] {
            let isCovered = covered.contains(corner)
            #expect(!isCovered, "\(corner)")
        }
        // (1,1): centre (1.5, 1.5) is √24.5 ≈ 4.95 from (5, 5), just inside.
        for edge in [
            Pixel(x: 50, y: 0), Pixel(x: 50, y: 37), Pixel(x: 0, y: 19), Pixel(x: 99, y: 19), Pixel(x: 5, y: 0), Pixel(x: 0, y: 5),
            Pixel(x: 1, y: 1),
        ] {
            let isCovered = covered.contains(edge)
            #expect(isCovered, "\(edge)")
        }
    }

    static let cases: [(Size, Double)] = [
        (Size(width: 100, height: 38), 5),
        (Size(width: 200, height: 76), 10),  // scale 2
        (Size(width: 150, height: 57), 7.5),  // scale 1.5
        (Size(width: 96, height: 96), 10),  // the hud box
        (Size(width: 120, height: 50), 0.4),
        (Size(width: 10, height: 10), 5),  // a circle
        (Size(width: 40, height: 10), 50),  // a pill: radius capped at 5
        (Size(width: 9, height: 9), 4.5),  // odd sides, radius exactly half
        (Size(width: 30, height: 9), 20),  // odd height, radius capped at 4.5
        (Size(width: 9, height: 30), 20),  // odd width
        (Size(width: 31, height: 7), 3.2),
        (Size(width: 1, height: 1), 5),
        (Size(width: 3, height: 1), 1),
    ]

    @Test("Rows cover exactly the pixels whose centres lie inside the curve, each once", arguments: cases)
    func exactCoverage(size: Size, radius: Double) {
        let rects = RoundedRectShape.rectangles(size: size, radius: radius)
        let pixels = coveredPixels(rects)
        let expected = expectedPixels(size: size, radius: radius)
        let missing = expected.subtracting(pixels)
        let extra = Set(pixels).subtracting(expected)
        #expect(missing.isEmpty, "missing \(missing.prefix(5))")
        #expect(extra.isEmpty, "extra \(extra.prefix(5))")
        // As many pixels as distinct ones: no two rectangles overlap.
        #expect(pixels.count == expected.count)
        #expect(rects.allSatisfy { $0.width > 0 && $0.height > 0 })
        #expect(rects.allSatisfy { Rect(x: 0, y: 0, width: size.width, height: size.height).contains($0) })
    }

    @Test("The shape is symmetric top to bottom and left to right", arguments: cases)
    func symmetric(size: Size, radius: Double) {
        let pixels = Set(coveredPixels(RoundedRectShape.rectangles(size: size, radius: radius)))
        let flippedVertically = Set(pixels.map { Pixel(x: $0.x, y: size.height - 1 - $0.y) })
        let flippedHorizontally = Set(pixels.map { Pixel(x: size.width - 1 - $0.x, y: $0.y) })
        let symmetricVertically = pixels == flippedVertically
        let symmetricHorizontally = pixels == flippedHorizontally
        #expect(symmetricVertically)
        #expect(symmetricHorizontally)
    }

    @Test("A larger radius never adds pixels")
    func radiusMonotonic() {
        let size = Size(width: 60, height: 40)
        var previous = Int.max
        for tenths in 0...250 {
            let count = coveredPixels(RoundedRectShape.rectangles(size: size, radius: Double(tenths) / 10)).count
            #expect(count <= previous, "radius \(Double(tenths) / 10)")
            previous = count
        }
    }
}

/// Every pixel the rounded rectangle touches, computed independently: the pixel's square comes
/// nearer to the inner rectangle than the radius.
private func touchedPixels(size: Size, radius: Double) -> Set<Pixel> {
    let w = Double(size.width)
    let h = Double(size.height)
    let r = max(0, min(radius, min(w, h) / 2))
    var pixels = Set<Pixel>()
    for y in 0..<size.height {
        for x in 0..<size.width {
            // The square's point nearest the inner rectangle [r, w−r] × [r, h−r].
            let nx = min(max(r, Double(x)), Double(x + 1))
            let ny = min(max(r, Double(y)), Double(y + 1))
            let cx = min(max(nx, r), w - r)
            let cy = min(max(ny, r), h - r)
            let qx = min(max(cx, Double(x)), Double(x + 1))
            let qy = min(max(cy, Double(y)), Double(y + 1))
            if (qx - cx) * (qx - cx) + (qy - cy) * (qy - cy) < r * r || r == 0 { pixels.insert(Pixel(x: x, y: y)) }
        }
    }
    return pixels
}

@Suite("Rounded-rectangle shape under a compositor")
struct RoundedRectCoverageTests {
    @Test(
        "Keeps every pixel the curve touches, each once, and all the centre rule keeps",
        arguments: [
            (Size(width: 85, height: 38), 5.0), (Size(width: 96, height: 96), 10.0), (Size(width: 120, height: 40), 9.6),
            (Size(width: 7, height: 7), 20.0),
        ] as [(Size, Double)])
    func touched(size: Size, radius: Double) {
        let covered = coveredPixels(RoundedRectShape.rectangles(size: size, radius: radius, coverage: .any))
        #expect(covered.count == Set(covered).count)
        #expect(Set(covered) == touchedPixels(size: size, radius: radius))
        #expect(Set(covered).isSuperset(of: expectedPixels(size: size, radius: radius)))
    }

    @Test("At the default toast's radius the corners differ: 2 px cut on the first row instead of 3")
    func firstRow() {
        let rows = RoundedRectShape.rectangles(size: Size(width: 85, height: 38), radius: 5, coverage: .any)
        #expect(rows.first == Rect(x: 2, y: 0, width: 81, height: 1))
        #expect(RoundedRectShape.rectangles(size: Size(width: 85, height: 38), radius: 5).first == Rect(x: 3, y: 0, width: 79, height: 1))
    }
}

@Suite("The window around a scaled box")
struct ScaledFrameTests {
    @Test("At scale 1 without margins it is the box itself")
    func identity() {
        let box = Rect(x: 917, y: 1004, width: 85, height: 38)
        #expect(box.scaled(by: 1) == box)
    }

    @Test("Scaled about the box's centre, rounded outwards, margins scaled too")
    func grown() {
        let box = Rect(x: 100, y: 100, width: 100, height: 40)
        #expect(box.scaled(by: 1.2) == Rect(x: 90, y: 96, width: 120, height: 48))
        #expect(box.scaled(by: 0.8) == Rect(x: 110, y: 104, width: 80, height: 32))
        #expect(
            box.scaled(by: 1.1, margins: Insets(left: 16, top: 12, right: 16, bottom: 20)) == Rect(x: 77, y: 84, width: 146, height: 80))
        #expect(box.scaled(by: 0).width == 1)
    }
}
