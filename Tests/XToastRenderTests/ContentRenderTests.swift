import CCairo
import Glibc
import Testing
import XToastCore
import XToastRender
import XToastSystem

/// A painter for `content` in `style` at `scale`, on a 1920-logical-pixel-wide monitor.
private func painter(_ content: ToastContent, style: Style = .toast, scale: Double = 1) throws -> ToastPainter {
    try ToastPainter(
        content: content, style: style,
        metrics: ToastMetrics(style: style, scale: scale, monitor: Size(width: Int(1920 * scale), height: Int(1080 * scale))))
}

private func painter(_ message: String, style: Style = .toast, scale: Double = 1) throws -> ToastPainter {
    try painter(ToastContent(message: message), style: style, scale: scale)
}

/// The horizontal extent of the ink in an image, in pixels.
private func inkWidth(_ pixels: PixelReader) throws -> Int {
    let xs = pixels.pixels(where: \.isInk).map(\.x)
    return try #require(xs.max()) - (try #require(xs.min())) + 1
}

/// A fresh directory for files a test writes; removed, with what is in it, by `removeTree`.
private func temporaryDirectory() throws -> String {
    var template = Array("/tmp/xtoast-icon-test-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
    return try #require(made)
}

private func write(_ bytes: [UInt8], to path: String) throws {
    let file = try #require(fopen(path, "wb"))
    defer { fclose(file) }
    #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
}

private func removeTree(_ directory: String, files: [String]) {
    for file in files { _ = remove(directory + "/" + file) }
    _ = rmdir(directory)
}

// Pango and fontconfig set themselves up per thread on first use and race when several threads
// do it at once; xtoast itself lays text out on one thread.
@Suite("Content, drawn", .serialized)
struct ContentRenderTests {
    // MARK: Progress bar

    /// "Volume" with a bar, in the toast design.
    private func volume(_ progress: String) throws -> PixelReader {
        let content = ToastContent(message: "Volume", progress: try #require(Progress(parsing: progress)))
        return PixelReader(try painter(content).image())
    }

    /// Near-white: the filled part of the bar (the track is white at 0.25 over black: 64).
    private static func isFilled(_ p: ARGB) -> Bool { p.red > 160 && p.green > 160 && p.blue > 160 }

    /// The middle row of the bar and the bar's columns, found where a full bar is white.
    private func bar() throws -> (row: Int, columns: ClosedRange<Int>) {
        let full = try volume("100")
        let rows = (0..<full.height).filter { y in full.pixels(y: y..<(y + 1), where: Self.isFilled).count >= 100 }
        let row = try #require(rows.isEmpty ? nil : rows[rows.count / 2])
        // The whole bar, track included: anything brighter than the black box on that row.
        let xs = full.pixels(y: row..<(row + 1)) { $0.red > 32 }.map(\.x)
        return (row, try #require(xs.min())...(try #require(xs.max())))
    }

    @Test("The bar is 160 px wide (its least width), below the text, 4 px high")
    func barGeometry() throws {
        let (row, columns) = try bar()
        #expect(columns.count == 160, "\(columns)")
        let full = try volume("100")
        let rows = (0..<full.height).filter { y in full.pixels(y: y..<(y + 1), where: Self.isFilled).count >= 100 }
        #expect((3...4).contains(rows.count), "white rows \(rows)")
        #expect(rows == Array(rows.first!...rows.last!))
        #expect(row > full.height / 2)
    }

    @Test(
        "The filled part is as wide as the value: 0, 40 % and 100 % of the bar",
        arguments: [("0", 0.0), ("40", 0.4), ("100", 1.0), ("40.5", 0.405), ("12.5", 0.125)])
    func barFill(progress: String, fraction: Double) throws {
        let (row, columns) = try bar()
        let pixels = try volume(progress)
        let filled = pixels.pixels(x: columns.lowerBound..<(columns.upperBound + 1), y: row..<(row + 1), where: Self.isFilled)
        let expected = fraction * Double(columns.count)
        #expect(abs(Double(filled.count) - expected) <= 1, "\(filled.count) px filled, expected \(expected)")
        // From the left end, without gaps.
        if let first = filled.first {
            #expect(first.x == columns.lowerBound)
            #expect(filled.last!.x - first.x + 1 == filled.count)
        }
        // The rest is the track: white at 0.25 over the black box.
        let track = pixels.pixels(x: columns.lowerBound..<(columns.upperBound + 1), y: row..<(row + 1)) {
            $0.isNear(ARGB(alpha: 217, red: 64, green: 64, blue: 64), within: 3)
        }
        #expect(abs(Double(track.count) - (Double(columns.count) - expected)) <= 2, "\(track.count) px of track")
    }

    @Test("Past 100 the bar is full, and its last part shows the overflow in its own colour: 150 → the last half")
    func barOverflow() throws {
        let (row, columns) = try bar()
        let pixels = try volume("150")
        let overflowColour = ARGB(opaque: Style.toast.progressOverflowColor)
        let line = pixels.pixels(x: columns.lowerBound..<(columns.upperBound + 1), y: row..<(row + 1)) { _ in true }
        let white = line.filter { Self.isFilled(pixels[$0.x, $0.y]) }
        let overflow = line.filter { pixels[$0.x, $0.y].isNear(overflowColour, within: 3) }
        let half = Double(columns.count) / 2
        #expect(abs(Double(white.count) - half) <= 1, "\(white.count) px white")
        #expect(abs(Double(overflow.count) - half) <= 2, "\(overflow.count) px in the overflow colour")
        #expect(white.map(\.x).max()! < overflow.map(\.x).min()!, "the overflow is at the end")
        // Nothing of the track shows: the bar is full.
        #expect(white.count + overflow.count >= columns.count - 2)
    }

    @Test("200 is all overflow")
    func barDoubleFull() throws {
        let (row, columns) = try bar()
        let pixels = try volume("200")
        let overflow = pixels.pixels(x: columns.lowerBound..<(columns.upperBound + 1), y: row..<(row + 1)) {
            $0.isNear(ARGB(opaque: Style.toast.progressOverflowColor), within: 3)
        }
        #expect(overflow.count >= columns.count - 2)
    }

    @Test("N! draws the value in the alternate colour instead of white")
    func barAlternate() throws {
        let (row, columns) = try bar()
        let pixels = try volume("40!")
        let range = columns.lowerBound..<(columns.upperBound + 1)
        let alternate = pixels.pixels(x: range, y: row..<(row + 1)) {
            $0.isNear(ARGB(opaque: Style.toast.progressAlternateColor), within: 3)
        }
        #expect(abs(Double(alternate.count) - 0.4 * Double(columns.count)) <= 1, "\(alternate.count) px in the alternate colour")
        #expect(pixels.pixels(x: range, y: row..<(row + 1), where: Self.isFilled).isEmpty)
    }

    @Test("A bar makes the box taller by the bar and its gap, not wider than a short message needs")
    func barBox() throws {
        let plain = try painter("Volume").boxSize
        let withBar = try painter(ToastContent(message: "Volume", progress: Progress(percent: 40))).boxSize
        #expect(withBar.width == 160 + 20)
        #expect(withBar.height > plain.height)
    }

    // MARK: Icons

    @Test(
        "A built-in icon is a disc in its colour left of the text",
        arguments: [
            (Icon.success, Style.iconColors.success), (.error, Style.iconColors.error), (.info, Style.iconColors.info),
            (.warning, Style.iconColors.warning),
        ])
    func iconDisc(icon: Icon, colour: Color) throws {
        let toast = try painter(ToastContent(message: "Built", icon: icon))
        let pixels = PixelReader(try toast.image())
        let h = toast.boxSize.height
        // The disc spans the 20 px after the 10 px padding; left of the glyph and above it, it is plain disc.
        for (x, y) in [(12, h / 2), (13, h / 2 - 1), (13, h / 2 + 1), (20, h / 2 - 8)] {
            #expect(pixels[x, y].isNear(ARGB(opaque: colour), within: 2), "(\(x), \(y)) is \(pixels[x, y])")
        }
        // And it is a disc: the corners of its square are the box.
        #expect(pixels[11, h / 2 - 9].isNear(ARGB(alpha: 204, red: 0, green: 0, blue: 0), within: 2))
    }

    @Test("An icon widens the box by its size and gap, 20 + 8 px")
    func iconWidens() throws {
        let plain = try painter("Built").boxSize
        for icon in [Icon.success, .error, .info, .warning] {
            let withIcon = try painter(ToastContent(message: "Built", icon: icon)).boxSize
            #expect(abs(withIcon.width - plain.width - 28) <= 2, "\(icon): \(plain) → \(withIcon)")
            #expect(withIcon.height >= plain.height)
        }
    }

    // MARK: Title

    @Test("A title makes the box taller by a line")
    func titleBox() throws {
        var bare = Style.toast
        bare.padding = 0
        bare.minimumHeight = 0
        let line = try painter("Tagged", style: bare).boxSize.height
        let plain = try painter("Tagged")
        let titled = try painter(ToastContent(message: "Tagged", title: "Build"))
        #expect(titled.boxSize.height > plain.boxSize.height)
        #expect(titled.boxSize.height >= 2 * line + 20, "\(titled.boxSize), one line \(line) px")
    }

    @Test("The title is bold: its ink is wider than the same text in the message's weight")
    func titleBold() throws {
        let title = PixelReader(try painter(ToastContent(message: ".", title: "Tagged Tagged")).image())
        let message = PixelReader(try painter("Tagged Tagged").image())
        let (bold, regular) = (try inkWidth(title), try inkWidth(message))
        #expect(bold > regular, "title \(bold) px, message \(regular) px")
        #expect(bold < regular * 3 / 2, "title \(bold) px, message \(regular) px")
    }

    // MARK: Markup

    @Test("With markup, <b>x</b> is a bold x, far narrower than the tags shown as text")
    func markup() throws {
        let marked = try painter(ToastContent(message: "<b>x</b>", markup: true))
        let literal = try painter(ToastContent(message: "<b>x</b>", markup: false))
        #expect(marked.boxSize.width < literal.boxSize.width)
        #expect(!marked.markupFailed && !literal.markupFailed)
        // And the tag does make it bold: wider than the same word plain.
        let bold = try painter(ToastContent(message: "<b>Tagged</b>", markup: true)).boxSize.width
        #expect(bold > (try painter("Tagged")).boxSize.width)
    }

    @Test(
        "Markup that does not parse is reported and drawn as the plain text",
        arguments: ["<b>unclosed", "a & b", "<blink>x</blink>", "<i>x</b>"])
    func badMarkup(text: String) throws {
        let marked = try painter(ToastContent(message: text, markup: true))
        let plain = try painter(ToastContent(message: text))
        #expect(marked.markupFailed)
        #expect(!plain.markupFailed)
        #expect(marked.boxSize == plain.boxSize)
        let (a, b) = (PixelReader(try marked.image()), PixelReader(try plain.image()))
        let differing = a.pixels { _ in true }.filter { a[$0.x, $0.y] != b[$0.x, $0.y] }
        #expect(differing.isEmpty, "differs at \(differing.prefix(5))")
    }

    @Test(
        "A notification's body with a mark, joiner or variation selector after <, > or & is still markup to Pango",
        arguments: ["<\u{301}b>bold?</b>", "AT&\u{200D}T", "a >\u{FE0F} b", "<b>x</b\u{301}>", "&amp;\u{301}", "<img alt=\"<\u{20E3}\"/>"])
    func hostileNotificationBody(body: String) throws {
        let painter = try painter(ToastContent(message: NotificationMarkup.sanitize(body), markup: true))
        #expect(!painter.markupFailed)
    }

    @Test("A title's bad markup is reported too")
    func badTitleMarkup() throws {
        #expect(try painter(ToastContent(message: "fine", title: "<b>bad", markup: true)).markupFailed)
        #expect(try !painter(ToastContent(message: "fine", title: "<i>good</i>", markup: true)).markupFailed)
    }

    // MARK: Icon files

    @Test(
        "An icon file that is missing, empty, not a PNG or a directory is a RenderError when checked; laid out, the toast is without it, and says why"
    )
    func badIconFiles() throws {
        let directory = try temporaryDirectory()
        defer { removeTree(directory, files: ["empty.png", "text.png", "folder.png"]) }
        try write([], to: directory + "/empty.png")
        try write(Array("not a picture\n".utf8), to: directory + "/text.png")
        #expect(mkdir(directory + "/folder.png", 0o700) == 0)
        defer { _ = rmdir(directory + "/folder.png") }
        for name in ["missing.png", "empty.png", "text.png", "folder.png"] {
            let icon = Icon.file(directory + "/" + name)
            let laidOut = try painter(ToastContent(message: "Built", icon: icon))
            #expect(laidOut.iconWarning?.hasSuffix("showing the toast without it") == true, "\(name)")
            #expect(laidOut.boxSize == (try painter(ToastContent(message: "Built"))).boxSize, "\(name): room kept for an icon left out")
            #expect(throws: RenderError.self, "\(name)") { try ToastPainter.check(icon: icon) }
        }
        #expect(throws: RenderError.self) { try ToastPainter.check(icon: .named("xtoast-test-no-such-icon")) }
    }

    @Test("A good PNG icon loads and takes the icon's place")
    func goodIconFile() throws {
        let directory = try temporaryDirectory()
        defer { removeTree(directory, files: ["red.png"]) }
        // A 40×40 red square, drawn and written by Cairo.
        let square = try CairoSurface(imageOf: Size(width: 40, height: 40))
        try square.draw { cr in
            cairo_set_source_rgb(cr, 1, 0, 0)
            cairo_paint(cr)
        }
        let path = directory + "/red.png"
        try square.writePNG(to: path)

        try ToastPainter.check(icon: .file(path))
        let toast = try painter(ToastContent(message: "Built", icon: .file(path)))
        #expect(abs(toast.boxSize.width - (try painter("Built")).boxSize.width - 28) <= 2)
        // Scaled down to 20×20 after the padding.
        let pixels = PixelReader(try toast.image())
        #expect(pixels[20, toast.boxSize.height / 2].isNear(ARGB(alpha: 255, red: 255, green: 0, blue: 0), within: 2))
    }

    @Test("A FIFO, a device or a socket as the icon is refused at once, never read")
    func iconsThatAreNotFiles() throws {
        let directory = try temporaryDirectory()
        defer { removeTree(directory, files: ["fifo.png"]) }
        #expect(mkfifo(directory + "/fifo.png", 0o600) == 0)
        for (path, kind) in [(directory + "/fifo.png", "a FIFO"), ("/dev/zero", "a character device"), ("/dev/null", "a character device")]
        {
            #expect {
                try ToastPainter.check(icon: .file(path))
            } throws: { error in
                (error as? RenderError)?.description == "cannot read icon \"\(path)\": \(kind), not a regular file"
            }
        }
    }

    @Test("A PNG that declares a huge size is refused before it is decoded")
    func hugePNG() throws {
        let directory = try temporaryDirectory()
        defer { removeTree(directory, files: ["huge.png"]) }
        // A valid signature and IHDR for 20000×20000, and nothing after: decoding would fail too,
        // but only after allocating 1.6 GB.
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        try write(bytes, to: directory + "/huge.png")
        #expect {
            try ToastPainter.check(icon: .file(directory + "/huge.png"))
        } throws: { error in
            (error as? RenderError)?.description.hasSuffix("20000x20000 pixels, larger than 4096x4096") == true
        }
    }

    @Test("A path may start with ~/, as users write it in config files and after --icon=")
    func pathsInHome() throws {
        let home = try #require(getenv("HOME").map { String(cString: $0) })
        #expect(RegularFile.expandingHome("~/icons/a.png") == home + "/icons/a.png")
        #expect(RegularFile.expandingHome("/tmp/~/a.png") == "/tmp/~/a.png")
        #expect(RegularFile.expandingHome("~other/a.png") == "~other/a.png")
    }

    // MARK: Bounds, whatever the input

    @Test(
        "--max-lines counts lines across paragraphs, with markup or without",
        arguments: [("", ""), ("<b>", "</b>")])
    func maximumLinesInAll(open: String, close: String) throws {
        func lines(_ count: Int) -> String { (1...count).map { "\(open)line \($0)\(close)" }.joined(separator: "\n") }
        let markup = !open.isEmpty
        let twelve = try painter(ToastContent(message: lines(12), markup: markup))
        let many = try painter(ToastContent(message: lines(100), markup: markup))
        #expect(!many.markupFailed)
        #expect(many.boxSize.height == twelve.boxSize.height)
        let thirteen = try painter(ToastContent(message: lines(13), markup: markup))
        #expect(thirteen.boxSize.height == twelve.boxSize.height)
        var three = Style.toast
        three.maximumLines = 3
        #expect(try painter(ToastContent(message: lines(100), markup: markup), style: three).boxSize.height < twelve.boxSize.height / 3)
    }

    @Test(
        "The box is never larger than the monitor, whatever the text, padding, font or scale",
        arguments: [
            (2000, 10.0, "Sans 14", 2.0), (1, 1000, "Sans 14", 4), (1, 10, "Sans 1000", 4), (300, 10, "Sans 200", 1),
            (1, 1000, "Sans 1000", 0.5),
        ])
    func boxFitsTheMonitor(lines: Int, padding: Double, font: String, scale: Double) throws {
        var style = Style.toast
        style.padding = padding
        style.font = font
        style.maximumLines = 1000
        let monitor = Size(width: 1280, height: 720)
        let metrics = ToastMetrics(style: style, scale: scale, monitor: monitor)
        let text = (1...lines).map { "line \($0)" }.joined(separator: "\n")
        for content in [ToastContent(message: text), ToastContent(message: text, title: text, progress: Progress(percent: 40))] {
            let toast = try ToastPainter(content: content, style: style, metrics: metrics)
            #expect(toast.boxSize.width <= monitor.width - 2 * metrics.margin)
            #expect(toast.boxSize.height <= monitor.height - 2 * metrics.margin)
            _ = try toast.image()
        }
    }

    // MARK: Buttons

    @Test("Buttons go in a row under the text, inside a box grown to hold them", arguments: [1.0, 2.0])
    func buttonRow(scale: Double) throws {
        let plain = try painter(ToastContent(message: "Delete 3 files?"), scale: scale)
        let asking = try painter(ToastContent(message: "Delete 3 files?", buttons: ["Yes", "No, thanks"]), scale: scale)
        let style = Style.toast
        let extra = Int(((style.buttonGap + style.buttonHeight) * scale).rounded())
        #expect(asking.boxSize.height == plain.boxSize.height + extra)
        #expect(asking.boxSize.width >= plain.boxSize.width)
        // Each button answers for its own rectangle, the text above for none.
        let row = asking.boxSize.height - Int(((style.buttonHeight / 2) + style.padding) * scale)
        let yes = try #require((0..<asking.boxSize.width).first { asking.button(at: Point(x: $0, y: row)) == 0 })
        let no = try #require((0..<asking.boxSize.width).first { asking.button(at: Point(x: $0, y: row)) == 1 })
        #expect(yes < no)
        #expect(asking.button(at: Point(x: asking.boxSize.width / 2, y: Int(style.padding * scale) + 2)) == nil)
        // A button is a faint fill of the foreground over the background: lighter than the box.
        let pixels = PixelReader(try asking.image())
        let inside = pixels[yes + 3, row]
        let box = pixels[2, asking.boxSize.height / 2]
        #expect(Int(inside.red) > Int(box.red) + 20, "\(inside) against \(box)")
    }

    @Test("Many long labels share the width of the monitor, ellipsized")
    func buttonRowFits() throws {
        let labels = (1...8).map { "A rather long button label number \($0)" }
        let toast = try painter(ToastContent(message: "Choose", buttons: labels))
        #expect(toast.boxSize.width <= 1920 - 2 * 15)
        let row = toast.boxSize.height - 20
        let hits = Set((0..<toast.boxSize.width).compactMap { toast.button(at: Point(x: $0, y: row)) })
        #expect(hits == Set(0..<8))
    }

    // MARK: The reply entry

    /// The toast with "Reply" after "Later", its entry open with `text` when given.
    private func replying(_ text: String?) throws -> (ToastPainter, PixelReader) {
        var content = ToastContent(message: "Lunch?", buttons: ["Later", "Reply"])
        content.reply = ReplyField(button: 1, placeholder: "Answer…")
        let toast = try painter(content)
        toast.reply = text.map { ($0, "Answer…") }
        return (toast, PixelReader(try toast.image()))
    }

    @Test("A reply button leaves room to type a line; the open entry spans the row, framed, and takes no clicks")
    func replyEntry() throws {
        let (closed, buttons) = try replying(nil)
        #expect(closed.boxSize.width >= 320)
        let (open, entry) = try replying("")
        #expect(open.boxSize == closed.boxSize)
        let style = Style.toast
        let row = open.boxSize.height - Int(style.buttonHeight / 2 + style.padding)
        // Its frame's left edge is just inside the padding, where no button was (the image has
        // the shadow's margins around the box).
        let (x, y) = (open.margins.left + Int(style.padding), open.margins.top + row)
        let framed = (0..<4).map { entry[x + $0, y] }.max { $0.red < $1.red }!
        let before = (0..<4).map { buttons[x + $0, y] }.max { $0.red < $1.red }!
        #expect(Int(framed.red) > Int(before.red) + 60, "\(framed) against \(before)")
        #expect((0..<closed.boxSize.width).contains { closed.button(at: Point(x: $0, y: row)) == 1 })
        #expect(!(0..<open.boxSize.width).contains { open.button(at: Point(x: $0, y: row)) != nil })
    }

    @Test("What is typed is drawn in the entry, brighter than its placeholder")
    func replyText() throws {
        let (_, placeholder) = try replying("")
        let (toast, typed) = try replying("On my way")
        let row = toast.boxSize.height - Int(Style.toast.buttonHeight / 2 + Style.toast.padding)
        func brightest(_ pixels: PixelReader) -> Int {
            (30..<(toast.boxSize.width / 2)).map { Int(pixels[toast.margins.left + $0, toast.margins.top + row].red) }.max()!
        }
        #expect(brightest(typed) > brightest(placeholder) + 40)
    }
}
