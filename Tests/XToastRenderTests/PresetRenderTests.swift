import Testing
import XToastCore
import XToastRender

/// A painter for `content` in `style` at `scale`, on a 1920-logical-pixel-wide monitor.
private func painter(_ content: ToastContent, style: Style = .toast, scale: Double = 1) throws -> ToastPainter {
    try ToastPainter(
        content: content, style: style,
        metrics: ToastMetrics(style: style, scale: scale, monitor: Size(width: Int(1920 * scale), height: Int(1080 * scale))))
}

private func painter(_ message: String, style: Style = .toast, scale: Double = 1) throws -> ToastPainter {
    try painter(ToastContent(message: message), style: style, scale: scale)
}

/// The centre of the bounding box of `points`.
private func centre(of points: [(x: Int, y: Int)]) throws -> (x: Double, y: Double) {
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    let (left, right) = (try #require(xs.min()), try #require(xs.max()))
    let (top, bottom) = (try #require(ys.min()), try #require(ys.max()))
    return (Double(left + right) / 2, Double(top + bottom) / 2)
}

// Pango and fontconfig set themselves up per thread on first use and race when several threads
// do it at once; xtoast itself lays text out on one thread.
@Suite("Presets, drawn", .serialized)
struct PresetRenderTests {
    // MARK: alert

    @Test("alert: the box is the text plus 10 px padding each side, at least 38 high, and the text wraps at 160 px")
    func alertBox() throws {
        var bare = Style.alert
        bare.padding = 0
        bare.minimumHeight = 0
        bare.maximumWidth = 160
        for message in ["Saved", "Your changes were saved to the server just now"] {
            let text = try painter(message, style: bare).boxSize
            let box = try painter(message, style: .alert).boxSize
            #expect(text.width <= 160, "\(message): \(text)")
            #expect(box == Size(width: text.width + 20, height: max(text.height + 20, 38)), "\(message): \(box), text \(text)")
        }
        // Unwrapped, the long one would be far wider than 160.
        var wide = bare
        wide.maximumWidth = 1000
        #expect(try painter("Your changes were saved to the server just now", style: wide).boxSize.width > 2 * 160)
    }

    @Test("alert: the drawing reaches 2×8 px past the box for the shadow, 4 px less above and 4 px more below")
    func alertMargins() throws {
        for scale in [1.0, 2.0] {
            let toast = try painter("Saved", style: .alert, scale: scale)
            let m = toast.margins
            let spread = Int(16 * scale)
            let shift = Int(4 * scale)
            #expect(m.left == spread && m.right == spread, "scale \(scale): \(m)")
            #expect(m.top == spread - shift && m.bottom == spread + shift, "scale \(scale): \(m)")
            #expect(m.bottom > m.top)
            #expect(
                toast.contentSize
                    == Size(width: toast.boxSize.width + m.left + m.right, height: toast.boxSize.height + m.top + m.bottom))
            let image = try toast.image()
            #expect(image.size == toast.contentSize)
        }
    }

    @Test("alert: the box's outermost pixels are the 1 px border, opaque rgb(128,128,128)", arguments: [false, true])
    func alertBorder(opaque: Bool) throws {
        let toast = try painter("Saved", style: .alert)
        let pixels = PixelReader(try toast.image(opaque: opaque))
        let (left, top) = (toast.margins.left, toast.margins.top)
        let (w, h) = (toast.boxSize.width, toast.boxSize.height)
        let border = ARGB(alpha: 255, red: 128, green: 128, blue: 128)
        for (x, y) in [(left, top + h / 2), (left + w - 1, top + h / 2), (left + w / 2, top), (left + w / 2, top + h - 1)] {
            #expect(pixels[x, y].isNear(border, within: 1), "(\(x), \(y)) is \(pixels[x, y])")
        }
        // One pixel further in is the box's own grey: 60 at 0.8, stored premultiplied as 48 (opaque: 60).
        let inside = pixels[left + 2, top + h / 2]
        let grey = opaque ? 60 : 48
        #expect([inside.red, inside.green, inside.blue].allSatisfy { abs(Int($0) - grey) <= 2 }, "\(inside)")
    }

    @Test("alert: a soft black shadow, darker below the box than above it, gone by the image's edges")
    func alertShadow() throws {
        let toast = try painter("Saved", style: .alert)
        let pixels = PixelReader(try toast.image())
        let (left, top) = (toast.margins.left, toast.margins.top)
        let (w, h) = (toast.boxSize.width, toast.boxSize.height)
        let below = pixels[left + w / 2, top + h + 3]
        #expect(below.alpha > 0 && below.alpha < 255, "below the box: \(below)")
        #expect(below.red == 0 && below.green == 0 && below.blue == 0, "below the box: \(below)")
        let above = pixels[left + w / 2, top - 3]
        #expect(above.alpha < below.alpha, "above \(above), below \(below)")
        // Far to the left, level with the top of the box: nothing.
        #expect(pixels[0, top].alpha <= 2, "\(pixels[0, top])")
        for (x, y) in [(0, 0), (pixels.width - 1, 0), (0, pixels.height - 1), (pixels.width - 1, pixels.height - 1)] {
            #expect(pixels[x, y] == ARGB.clear, "(\(x), \(y)) is \(pixels[x, y])")
        }
    }

    @Test("alert without a compositor: the same layout, but no shadow: the margins stay fully transparent")
    func alertOpaque() throws {
        let toast = try painter("Saved", style: .alert)
        let pixels = PixelReader(try toast.image(opaque: true))
        let m = toast.margins
        let box = toast.boxSize
        let outside = pixels.pixels { _ in true }.filter { point in
            !((m.left..<(m.left + box.width)).contains(point.x) && (m.top..<(m.top + box.height)).contains(point.y))
        }
        #expect(outside.count == pixels.width * pixels.height - box.width * box.height)
        let drawn = outside.filter { pixels[$0.x, $0.y] != ARGB.clear }
        #expect(drawn.isEmpty, "drawn outside the box at \(drawn.prefix(5))")
    }

    @Test("alert: the text is bold white")
    func alertText() throws {
        var regular = Style.alert
        regular.font = "Sans 15"
        #expect(try painter("Saved", style: .alert).boxSize.width > painter("Saved", style: regular).boxSize.width)
        let toast = try painter("Saved", style: .alert)
        let pixels = PixelReader(try toast.image())
        let white = pixels.pixels(where: \.isSolidWhite)
        #expect(white.count >= 20, "only \(white.count) solid white pixels")
    }

    // MARK: hud

    @Test("hud: a 96×96 box, scaled with the screen, with no margins (no shadow)", arguments: [1.0, 2.0])
    func hudBox(scale: Double) throws {
        let toast = try painter("Done", style: .hud, scale: scale)
        let side = Int(96 * scale)
        #expect(toast.boxSize == Size(width: side, height: side))
        #expect(toast.contentSize == toast.boxSize)
        let pixels = PixelReader(try toast.image())
        #expect(pixels[0, 0] == ARGB.clear)
        // Grey 0.3 at 0.8, premultiplied: 61 at 204, between the checkmark and the text, at the left.
        let p = pixels[side / 8, side / 2]
        #expect(p.isNear(ARGB(alpha: 204, red: 61, green: 61, blue: 61)), "\(p)")
    }

    @Test(
        "hud: the checkmark is centred and shifted up by 96/8, the text shifted down by 96/4",
        arguments: [1.0, 2.0])
    func hudLayout(scale: Double) throws {
        let toast = try painter("Done", style: .hud, scale: scale)
        let pixels = PixelReader(try toast.image())
        let side = Double(toast.boxSize.width)
        // White on grey (61): ink is what is clearly brighter than the box.
        let ink = pixels.pixels { $0.red > 128 }
        let split = Int(side / 2 + side / 16)
        let icon = try centre(of: ink.filter { $0.y < split })
        let text = try centre(of: ink.filter { $0.y >= split })
        let tolerance = 3 * scale
        #expect(abs(icon.x - (side - 1) / 2) <= tolerance, "checkmark centred at x \(icon.x)")
        #expect(abs(icon.y - (side / 2 - side / 8)) <= tolerance, "checkmark centred at y \(icon.y)")
        #expect(abs(text.x - (side - 1) / 2) <= tolerance, "text centred at x \(text.x)")
        #expect(abs(text.y - (side / 2 + side / 4)) <= tolerance, "text centred at y \(text.y)")
    }

    @Test("hud: its checkmark is a plain glyph in the text colour, not a green badge")
    func hudGlyph() throws {
        let pixels = PixelReader(try painter("Done", style: .hud).image())
        let coloured = pixels.pixels { abs(Int($0.red) - Int($0.green)) > 4 || abs(Int($0.green) - Int($0.blue)) > 4 }
        #expect(coloured.isEmpty, "coloured pixels at \(coloured.prefix(5))")
    }

    @Test("hud: a message too wide for 96 px widens the box; the height stays 96")
    func hudGrows() throws {
        let toast = try painter("Copied to clipboard", style: .hud)
        #expect(toast.boxSize.width > 96)
        #expect(toast.boxSize.height == 96)
    }
}
