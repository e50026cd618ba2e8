import CCairo
import Glibc
import Testing
import XToastCore
import XToastRender

/// A painter for `message` in `style`, laid out for a monitor `monitorWidth` device pixels wide.
private func painter(_ message: String, style: Style = .toast, scale: Double = 1, monitorWidth: Int = 1920) -> ToastPainter {
    // Plain text with no icon cannot fail to lay out.
    try! ToastPainter(
        content: ToastContent(message: message), style: style,
        metrics: ToastMetrics(style: style, scale: scale, monitor: Size(width: monitorWidth, height: 1080 * monitorWidth / 1920))
    )
}

/// The text's own size, seen as the box of a style with no padding and no minimum height.
private func textSize(_ message: String, style: Style = .toast, scale: Double = 1) -> Size {
    var bare = style
    bare.padding = 0
    bare.minimumHeight = 0
    return painter(message, style: bare, scale: scale).boxSize
}

/// Enough words to fill far more than twelve lines.
private let hugeText = Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 90).joined(separator: " ")

// Pango and fontconfig set themselves up per thread on first use and race when several threads
// do it at once; xtoast itself lays text out on one thread.
@Suite("Toast painter", .serialized)
struct ToastPainterTests {
    @Test("The corners outside the rounded rectangle are fully transparent", arguments: [false, true])
    func transparentCorners(opaque: Bool) throws {
        let toast = painter("Tagged")
        let pixels = PixelReader(try toast.image(opaque: opaque))
        let (w, h) = (toast.boxSize.width, toast.boxSize.height)
        #expect(pixels.width == w && pixels.height == h)
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            #expect(pixels[x, y] == ARGB(alpha: 0, red: 0, green: 0, blue: 0), "corner (\(x), \(y))")
        }
    }

    @Test("The background is black at 0.8 alpha (204 of 255)")
    func translucentBackground() throws {
        let toast = painter("Tagged")
        let pixels = PixelReader(try toast.image())
        let h = toast.boxSize.height
        // Inside the padding, clear of the corners and the text.
        for (x, y) in [(3, h / 2), (toast.boxSize.width - 4, h / 2), (toast.boxSize.width / 2, 2), (toast.boxSize.width / 2, h - 3)] {
            let p = pixels[x, y]
            #expect(abs(Int(p.alpha) - 204) <= 1, "(\(x), \(y)) is \(p)")
            #expect(p.red == 0 && p.green == 0 && p.blue == 0, "(\(x), \(y)) is \(p)")
        }
    }

    @Test("opaque: the background drops its alpha (no compositor to blend it)")
    func opaqueBackground() throws {
        let toast = painter("Tagged")
        let p = PixelReader(try toast.image(opaque: true))[3, toast.boxSize.height / 2]
        #expect(p == ARGB(alpha: 255, red: 0, green: 0, blue: 0))
    }

    @Test("A translucent colour is stored premultiplied: rgb(60,60,60) at 0.8 is 48,48,48 at 204")
    func premultipliedBackground() throws {
        var style = Style.toast
        style.background = Color(rgb255: 60, 60, 60, alpha: 0.8)
        let toast = painter("Tagged", style: style)
        let p = PixelReader(try toast.image())[3, toast.boxSize.height / 2]
        #expect(abs(Int(p.alpha) - 204) <= 1)
        for channel in [p.red, p.green, p.blue] {
            #expect(abs(Int(channel) - 48) <= 1, "\(p)")
        }
    }

    @Test("The text is drawn in solid white inside the padding, and nothing is drawn outside it")
    func whiteText() throws {
        let toast = painter("HELLO Tagged")
        let pixels = PixelReader(try toast.image())
        let (w, h) = (toast.boxSize.width, toast.boxSize.height)
        let padding = 10
        let solid = pixels.pixels(x: padding..<(w - padding), y: padding - 2..<(h - padding + 2), where: \.isSolidWhite)
        #expect(solid.count >= 10, "only \(solid.count) solid white pixels")
        // Glyphs may overhang their logical box by a pixel or so, not by half the padding.
        let stray = pixels.pixels(where: \.isInk).filter { $0.x < padding / 2 || $0.x >= w - padding / 2 }
        #expect(stray.isEmpty, "ink at \(stray.prefix(5))")
    }

    @Test("The text is centred in the box")
    func centredText() throws {
        // Both letters have symmetric side bearings, so the ink is centred when the layout is.
        let toast = painter("HOH")
        let ink = PixelReader(try toast.image()).pixels(where: \.isInk)
        let left = try #require(ink.map(\.x).min())
        let right = toast.boxSize.width - 1 - (try #require(ink.map(\.x).max()))
        #expect(abs(left - right) <= 2, "ink from \(left) px on the left to \(right) px on the right")
    }

    @Test("One line: the box is the text plus 10 px padding each side, at least 38 high")
    func oneLineBox() {
        let text = textSize("Tagged")
        let box = painter("Tagged").boxSize
        #expect(text.width > 0 && (12...30).contains(text.height), "a 14 px line is \(text)")
        #expect(box.width == text.width + 20)
        #expect(box.height == max(text.height + 20, 38))
        #expect(box.height >= 38)
    }

    @Test("A tall font's box is exactly its text height plus the padding")
    func tallFontBox() {
        var style = Style.toast
        style.font = "Sans 30"
        let text = textSize("Tagged", style: style)
        let box = painter("Tagged", style: style).boxSize
        #expect(text.height + 20 > 38)
        #expect(box == Size(width: text.width + 20, height: text.height + 20))
    }

    @Test("Scale 2 draws everything about twice as large")
    func scaleTwo() throws {
        let one = painter("Tagged", scale: 1, monitorWidth: 1920).boxSize
        let two = painter("Tagged", scale: 2, monitorWidth: 3840).boxSize
        #expect(abs(two.width - 2 * one.width) <= 4, "\(one) → \(two)")
        #expect(abs(two.height - 2 * one.height) <= 2, "\(one) → \(two)")
        // And the corner radius doubles: at scale 1 pixel (1,1) is partly inside the radius-5 curve,
        // at scale 2 it lies wholly outside the radius-10 curve.
        #expect(PixelReader(try painter("Tagged", scale: 1).image())[1, 1].alpha > 0)
        #expect(PixelReader(try painter("Tagged", scale: 2, monitorWidth: 3840).image())[1, 1].alpha == 0)
    }

    @Test("A font size in px means logical pixels, like a plain size; no size means the default's")
    func fontSizes() {
        for scale in [1.0, 2.0] {
            var px = Style.toast
            px.font = "Sans 14px"
            var unsized = Style.toast
            unsized.font = "Sans"
            let reference = textSize("Tagged", scale: scale)
            #expect(textSize("Tagged", style: px, scale: scale) == reference)
            #expect(textSize("Tagged", style: unsized, scale: scale) == reference)
        }
    }

    @Test("A long message wraps within the maximum width")
    func wraps() {
        let message = "Your backup of 1,204 files finished without errors and took four minutes and twelve seconds"
        let oneLine = painter("Tagged").boxSize
        let toast = painter(message)
        let maximumBoxWidth = toast.metrics.maximumTextWidth + 2 * toast.metrics.padding
        #expect(maximumBoxWidth == 640)
        #expect(toast.boxSize.width <= maximumBoxWidth)
        #expect(toast.boxSize.height > oneLine.height)
        // Laid out unwrapped, it would have been wider than the limit.
        var wide = Style.toast
        wide.maximumWidth = 10_000
        #expect(painter(message, style: wide, monitorWidth: 20_000).boxSize.width > maximumBoxWidth)
    }

    @Test("A word longer than a line breaks instead of running off the box")
    func longWord() {
        let toast = painter(String(repeating: "x", count: 400))
        #expect(toast.boxSize.width <= 640)
        #expect(toast.boxSize.height > painter("x").boxSize.height)
    }

    @Test("Text past the maximum number of lines is ellipsized to exactly that many lines", arguments: [1, 2, 3, 12])
    func maximumLines(lines: Int) {
        var style = Style.toast
        style.maximumLines = lines
        let box = painter(hugeText, style: style).boxSize
        let explicitLines = painter(Array(repeating: "Tagged", count: lines).joined(separator: "\n")).boxSize
        #expect(abs(box.height - explicitLines.height) <= 1, "\(lines) lines: \(box) vs \(explicitLines)")
        #expect(box.width <= 640)
    }

    @Test("Without the limit the same text would be far taller")
    func maximumLinesLimits() {
        var unlimited = Style.toast
        unlimited.maximumLines = 1000
        #expect(painter(hugeText, style: unlimited).boxSize.height > 2 * painter(hugeText).boxSize.height)
    }

    @Test("Explicit line breaks make lines, each about one line high")
    func lineBreaks() {
        let one = textSize("Tagged").height
        var previous = one
        for n in 2...6 {
            let height = textSize(Array(repeating: "Tagged", count: n).joined(separator: "\n")).height
            // One line's pixel height is its fractional height rounded out, so n lines may be
            // up to a pixel a line shorter than n single lines, never taller.
            #expect(height > previous)
            #expect((n * (one - 1)...n * one + 1).contains(height), "\(n) lines: \(height) px, one line \(one) px")
            previous = height
        }
    }

    @Test(
        "Plain text is never interpreted as markup",
        arguments: [("<b>x</b>", "x"), ("<span size='50000'>x</span>", "x"), ("<big>Ok</big>", "Ok")])
    func noMarkup(literal: String, interpreted: String) {
        let literalWidth = textSize(literal).width
        let interpretedWidth = textSize(interpreted).width
        #expect(literalWidth > 3 * interpretedWidth, "\(literal): \(literalWidth) px, \(interpreted): \(interpretedWidth) px")
        #expect(textSize(literal).height == textSize("Tagged").height)
    }

    @Test("Entities are not decoded: \"&amp;\" is five characters, wider than its last four")
    func noEntities() {
        // Compared with plain text that is also valid markup, so the check holds either way it is read.
        #expect(textSize("&amp;").width > textSize("amp;").width)
        #expect(textSize("&lt;").width > textSize("lt;").width)
    }

    @Test("Broken markup is just text too")
    func brokenMarkup() throws {
        let toast = painter("<b>unclosed & <i")
        #expect(toast.boxSize.width > painter("unclosed").boxSize.width)
        _ = try toast.image()
    }

    @Test("An empty message still makes a valid (padding-only) box")
    func emptyMessage() throws {
        let toast = painter("")
        #expect(toast.boxSize.width >= 20 && toast.boxSize.height >= 38)
        _ = try toast.image()
    }

    @Test("writePNG writes a PNG that reads back with the same size and pixels")
    func writesPNG() throws {
        let toast = painter("Tagged")
        let image = try toast.image()
        let path = "/tmp/xtoast-render-test-\(UInt64.random(in: 0...UInt64.max)).png"
        defer { _ = path.withCString { remove($0) } }
        try image.writePNG(to: path)

        let readBack = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(readBack) }
        #expect(cairo_surface_status(readBack) == CAIRO_STATUS_SUCCESS)
        #expect(Int(cairo_image_surface_get_width(readBack)) == toast.boxSize.width)
        #expect(Int(cairo_image_surface_get_height(readBack)) == toast.boxSize.height)
        let original = PixelReader(image)
        let copy = PixelReader(try CairoSurface(taking: cairo_surface_reference(readBack), size: toast.boxSize, what: "PNG"))
        for (x, y) in [(0, 0), (3, toast.boxSize.height / 2), (toast.boxSize.width / 2, toast.boxSize.height / 2)] {
            // PNG stores straight alpha, so translucent pixels may come back one step off.
            let (a, b) = (copy[x, y], original[x, y])
            for (u, v) in [(a.alpha, b.alpha), (a.red, b.red), (a.green, b.green), (a.blue, b.blue)] {
                #expect(abs(Int(u) - Int(v)) <= 1, "(\(x), \(y)): \(a) vs \(b)")
            }
        }
    }

    @Test("writePNG to a directory that does not exist throws a RenderError")
    func writePNGFails() throws {
        let image = try painter("Tagged").image()
        #expect(throws: RenderError.self) { try image.writePNG(to: "/nonexistent/dir/x.png") }
    }
}
