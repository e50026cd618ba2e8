import Testing
import XToastCore
import XToastRender

/// A painter for `markup` in the default style.
private func painter(_ markup: String, scale: Double = 1) throws -> ToastPainter {
    try ToastPainter(
        content: ToastContent(message: markup, markup: true), style: .toast,
        metrics: ToastMetrics(style: .toast, scale: scale, monitor: Size(width: 1920, height: 1080)))
}

/// Every point of the box, one pixel apart.
private func points(in size: Size) -> [Point] {
    (0..<size.height).flatMap { y in (0..<size.width).map { Point(x: $0, y: y) } }
}

/// Links in the text: drawn underlined, found where they are drawn and nowhere else.
@Suite("Links in the text", .serialized)
struct LinkRenderTests {
    static let url = "https://example.com/notes?a=1&b=2"

    /// The underline is the only difference a link makes to the drawing; the painter finds the
    /// link over the underlined words, on the line's height, and nowhere else in the box.
    @Test(arguments: [1.0, 2.0])
    func aLinkIsFoundWhereItIsDrawn(scale: Double) throws {
        let linked = try painter("Read <a href=\"https://example.com/notes?a=1&amp;b=2\">the notes</a> now", scale: scale)
        let plain = try painter("Read the notes now", scale: scale)
        #expect(linked.boxSize == plain.boxSize)
        let (a, b) = (PixelReader(try linked.image(opaque: true)), PixelReader(try plain.image(opaque: true)))
        let underline = a.pixels { _ in true }.filter { a[$0.x, $0.y] != b[$0.x, $0.y] }
        try #require(!underline.isEmpty, "the link is not underlined")
        let (left, top) = (linked.margins.left, linked.margins.top)
        let columns = (underline.map(\.x).min()! - left)...(underline.map(\.x).max()! - left)
        let ink = b.pixels { $0.isInk }
        let rows = (ink.map(\.y).min()! - top)...(ink.map(\.y).max()! - top)
        // Under the words, not the whole line: "Read " and " now" are not underlined.
        let inkColumns = (ink.map(\.x).min()! - left)...(ink.map(\.x).max()! - left)
        #expect(columns.lowerBound > inkColumns.lowerBound + Int(20 * scale))
        #expect(columns.upperBound < inkColumns.upperBound - Int(20 * scale))
        #expect(underline.allSatisfy { $0.y - top > (rows.lowerBound + rows.upperBound) / 2 })

        let middle = (rows.lowerBound + rows.upperBound) / 2
        for x in (columns.lowerBound + 1)..<columns.upperBound {
            #expect(linked.link(at: Point(x: x, y: middle)) == Self.url, "(\(x), \(middle))")
        }
        let slack = Int(3 * scale)
        let lineHeight = Int(8 * scale)
        let stray = points(in: linked.boxSize).filter { point in
            let beside = point.x < columns.lowerBound - slack || point.x > columns.upperBound + slack
            let off = point.y < rows.lowerBound - lineHeight || point.y > rows.upperBound + lineHeight
            return (beside || off) && linked.link(at: point) != nil
        }
        #expect(stray.isEmpty, "found the link at \(stray.prefix(5).map { "(\($0.x), \($0.y))" })")
        #expect(linked.link(at: Point(x: inkColumns.lowerBound + 2, y: middle)) == nil)
        #expect(linked.link(at: Point(x: inkColumns.upperBound - 2, y: middle)) == nil)
        #expect(plain.link(at: Point(x: (columns.lowerBound + columns.upperBound) / 2, y: middle)) == nil)
    }

    /// Each link opens its own URL; one that may not be opened is plain text, not underlined.
    @Test func eachLinkIsItsOwnAndARefusedOneIsText() throws {
        let two = try painter("<a href=\"https://a.example\">first</a> and <a href=\"mailto:b@example.com\">second</a>")
        let found = Set(points(in: two.boxSize).compactMap { two.link(at: $0) })
        #expect(found == ["https://a.example", "mailto:b@example.com"])

        let refused = try painter("Read <a href=\"file:///etc/passwd\">the notes</a> now")
        let plain = try painter("Read the notes now")
        let (a, b) = (PixelReader(try refused.image(opaque: true)), PixelReader(try plain.image(opaque: true)))
        #expect(a.pixels { _ in true }.allSatisfy { a[$0.x, $0.y] == b[$0.x, $0.y] })
        #expect(points(in: refused.boxSize).allSatisfy { refused.link(at: $0) == nil })
    }

    /// A marker slipped in as a character reference makes the markers disagree with the links:
    /// no link at all, rather than one over the wrong words.
    @Test func aForgedMarkerMakesNoLink() throws {
        let forged = try painter("&#xE000;Read <a href=\"https://example.com\">the notes</a> now")
        #expect(!forged.markupFailed)
        #expect(points(in: forged.boxSize).allSatisfy { forged.link(at: $0) == nil })
    }

    /// Past the last line the text is cut: a link there cannot be clicked, one before it can.
    @Test func aLinkCutOffCannotBeClicked() throws {
        let lines = Array(repeating: "line", count: 30).joined(separator: "\n")
        let cut = try painter("<a href=\"https://a.example\">first</a>\n\(lines)\n<a href=\"https://b.example\">last</a>")
        let found = Set(points(in: cut.boxSize).compactMap { cut.link(at: $0) })
        #expect(found == ["https://a.example"])
    }
}
