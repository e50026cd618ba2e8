import CCairo
import Glibc
import Testing
import XToastCore

@testable import XToastRender

/// A fresh directory for a test's files, removed with everything in it by `Scratch.remove`.
private final class Scratch {
    let path: String
    private var made: [String] = []

    init() throws {
        var template = Array("/tmp/xtoast-svg-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        path = String(cString: try #require(made))
    }

    /// Writes `text` to `name` (folders made as needed) and returns its full path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        var folder = path
        for part in name.split(separator: "/").dropLast() {
            folder += "/\(part)"
            if mkdir(folder, 0o700) == 0 { made.append(folder) }
        }
        let file = path + "/" + name
        let handle = try #require(fopen(file, "wb"))
        defer { fclose(handle) }
        let bytes = Array(text.utf8)
        #expect(fwrite(bytes, 1, bytes.count, handle) == bytes.count)
        made.append(file)
        return file
    }

    deinit {
        for item in made.reversed() { _ = remove(item) }
        _ = rmdir(path)
    }
}

/// A square document filled with `fill`, declaring `size` (the toast draws it at its own size).
private func square(_ fill: String, size: String = "10") -> String {
    "<svg xmlns='http://www.w3.org/2000/svg' width='\(size)' height='\(size)' viewBox='0 0 10 10'>"
        + "<rect width='10' height='10' fill='\(fill)'/></svg>"
}

private func painter(_ icon: Icon, style: Style = .toast, scale: Double = 1) throws -> ToastPainter {
    try ToastPainter(
        content: ToastContent(message: "Volume", icon: icon), style: style,
        metrics: ToastMetrics(style: style, scale: scale, monitor: Size(width: Int(1920 * scale), height: Int(1080 * scale))))
}

// Pango and fontconfig race when several threads set themselves up at once.
@Suite("SVG icons", .serialized)
struct SVGIconTests {
    @Test("librsvg is installed (the test dependency librsvg2-2): SVG icons cannot be tested without it")
    func libraryIsThere() throws {
        _ = try SVGLibrary.shared.get()
    }

    @Test("An SVG file draws as vectors at device size: every pixel of the icon's row is red or not red at all", arguments: [1.0, 2.0])
    func redSquare(scale: Double) throws {
        let scratch = try Scratch()
        let path = try scratch.write(square("#ff0000"), to: "red.svg")
        try ToastPainter.check(icon: .file(path))
        let pixels = PixelReader(try painter(.file(path), scale: scale).image())
        let side = Int(20 * scale)
        let middle = pixels.height / 2
        let red = pixels.pixels(y: middle..<(middle + 1)) { $0.red > 8 && $0.green < 8 }.map(\.x)
        let pure = red.filter { pixels[$0, middle].isNear(ARGB(alpha: 255, red: 255, green: 0, blue: 0)) }
        // The icon's square after the padding, and no blurred edge (a bitmap scaled up has one).
        #expect(red == Array(Int(10 * scale)..<(Int(10 * scale) + side)), "\(red)")
        #expect(pure.count == side, "\(pure.count) of \(red.count) pure red")
        let column = pixels.pixels(x: Int(20 * scale)..<Int(20 * scale) + 1) { $0.red > 8 && $0.green < 8 }.map(\.y)
        #expect(column.count == side)
        #expect(column.allSatisfy { pixels[Int(20 * scale), $0].isNear(ARGB(alpha: 255, red: 255, green: 0, blue: 0)) })
    }

    @Test("A symbolic icon (name ending in -symbolic) takes the text colour; another SVG keeps its own")
    func symbolicIconsAreRecoloured() throws {
        let scratch = try Scratch()
        // Adwaita's symbolic grey, once as an attribute and once as an inline style.
        let grey =
            "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><path d='M0 0h8v16H0z' fill='#2e3436'/>"
            + "<path d='M8 0h8v16H8z' style='fill:#2e3436;opacity:1'/></svg>"
        let symbolic = try scratch.write(grey, to: "volume-symbolic.svg")
        let plain = try scratch.write(grey, to: "volume.svg")
        var style = Style.toast
        style.foreground = Color(red: 0, green: 1, blue: 0)
        for (path, expected) in [
            (symbolic, ARGB(alpha: 255, red: 0, green: 255, blue: 0)), (plain, ARGB(alpha: 255, red: 46, green: 52, blue: 54)),
        ] {
            let pixels = PixelReader(try painter(.file(path), style: style, scale: 2).image())
            for x in [24, 40, 56] {
                #expect(pixels[x, pixels.height / 2].isNear(expected), "\(path) at \(x): \(pixels[x, pixels.height / 2])")
            }
        }
    }

    @Test("Without librsvg an SVG icon is one clear error, and nothing crashes")
    func missingLibrary() throws {
        let scratch = try Scratch()
        let path = try scratch.write(square("red"), to: "red.svg")
        #expect {
            _ = try IconImage.file(at: path) { Result { () throws(RenderError) in try SVGLibrary("libxtoast-no-such-library.so.9") } }
        } throws: { error in
            let text = (error as? RenderError)?.description ?? ""
            return text.hasPrefix("cannot read icon \"\(path)\": SVG icons need librsvg") && !text.contains("\n")
        }
    }

    @Test(
        "Hostile SVGs end quickly with one line of error: entity expansion, deep nesting, exponential <use>, over 1 MiB",
        arguments: ["laughs", "deep", "uses", "large"])
    func hostileDocuments(kind: String) throws {
        let scratch = try Scratch()
        var text: String
        switch kind {
        case "laughs":
            text = "<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY e0 'lollollollollollollollollollol'>"
            for i in 1..<10 { text += "<!ENTITY e\(i) '\(String(repeating: "&e\(i - 1);", count: 10))'>" }
            text += "]><svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><text>&e9;</text></svg>"
        case "deep":
            text =
                "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>" + String(repeating: "<g>", count: 100_000)
                + "<rect width='16' height='16'/>" + String(repeating: "</g>", count: 100_000) + "</svg>"
        case "uses":
            text =
                "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'><defs>"
                + "<rect id='l0' width='1' height='1'/>"
            for i in 1..<30 { text += "<g id='l\(i)'><use xlink:href='#l\(i - 1)'/><use xlink:href='#l\(i - 1)'/></g>" }
            text += "</defs><use xlink:href='#l29'/></svg>"
        default:
            text = "<svg xmlns='http://www.w3.org/2000/svg'>" + String(repeating: "<!-- padding -->", count: 70_000) + "</svg>"
        }
        let path = try scratch.write(text, to: "\(kind).svg")
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        #expect {
            try ToastPainter.check(icon: .file(path))
        } throws: { error in
            let text = (error as? RenderError)?.description ?? ""
            return text.hasPrefix("cannot read icon") && !text.contains("\n")
        }
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        // librsvg stops the exponential <use> after 500000 elements: about 2 s in a debug build.
        #expect(end.tv_sec - start.tv_sec < 10)
    }

    @Test("A document declaring 10⁹×10⁹ pixels draws at the icon's size, no larger")
    func hugeDeclaredSize() throws {
        let scratch = try Scratch()
        let path = try scratch.write(square("#ff0000", size: "1000000000"), to: "huge.svg")
        let pixels = PixelReader(try painter(.file(path)).image())
        #expect(pixels.pixels { $0.red > 8 && $0.green < 8 }.count == 400)
    }

    // MARK: Themes

    @Test("Theme lookup: a theme before what it inherits; in one, the exact size, scalable, larger, then smaller")
    func themeLookup() throws {
        let scratch = try Scratch()
        let root = scratch.path + "/icons"
        try scratch.write(
            "[Icon Theme]\nName=Mine\nInherits=Parent\nDirectories=16x16/status\n\n[16x16/status]\nSize=16\n", to: "icons/Mine/index.theme")
        try scratch.write(
            "[Icon Theme]\nInherits=Mine\nDirectories=16x16/status,48x48/status,scalable/status\n\n[16x16/status]\nSize=16\n"
                + "[48x48/status]\nSize=48\n[scalable/status]\nSize=16\nType=Scalable\nMinSize=8\nMaxSize=512\n",
            to: "icons/Parent/index.theme")
        try scratch.write("png", to: "icons/Mine/16x16/status/mine.png")
        try scratch.write("png", to: "icons/Parent/16x16/status/volume.png")
        try scratch.write(square("red"), to: "icons/Parent/scalable/status/volume.svg")
        try scratch.write("png", to: "icons/Parent/48x48/status/volume.png")
        let lookup = { (name: String, size: Int) in
            IconTheme.lookup(name, pixelSize: size, theme: "Mine", roots: [root], pixmaps: scratch.path + "/none")
        }
        #expect(lookup("volume", 16) == root + "/Parent/16x16/status/volume.png")
        #expect(lookup("volume", 20) == root + "/Parent/scalable/status/volume.svg")
        #expect(lookup("volume", 48) == root + "/Parent/48x48/status/volume.png")
        #expect(lookup("mine", 48) == root + "/Mine/16x16/status/mine.png")
        // The cycle Mine → Parent → Mine ends; Adwaita and hicolor come last.
        #expect(IconTheme.themes(startingWith: "Mine", in: [root]) == ["Mine", "Parent", "Adwaita", "hicolor"])
        #expect(lookup("../Mine/16x16/status/mine", 16) == nil)
    }

    @Test("A theme that inherits more themes than the limit still falls back to Adwaita, then hicolor")
    func crowdedThemeKeepsTheFallbacks() throws {
        let scratch = try Scratch()
        let root = scratch.path + "/icons"
        let parents = (1...20).map { "Parent\($0)" }
        try scratch.write("[Icon Theme]\nInherits=\(parents.joined(separator: ","))\n", to: "icons/Crowded/index.theme")
        try scratch.write(
            "[Icon Theme]\nInherits=hicolor\nDirectories=16x16/status\n\n[16x16/status]\nSize=16\n", to: "icons/Adwaita/index.theme")
        let adwaita = try scratch.write("png", to: "icons/Adwaita/16x16/status/xtoast-in-adwaita.png")
        let hicolor = try scratch.write("png", to: "icons/hicolor/16x16/status/xtoast-in-hicolor.png")
        let themes = IconTheme.themes(startingWith: "Crowded", in: [root])
        #expect(themes == ["Crowded"] + parents.prefix(IconTheme.themeLimit - 1) + ["Adwaita", "hicolor"])
        let lookup = { (name: String) in
            IconTheme.lookup(name, pixelSize: 16, theme: "Crowded", roots: [root], pixmaps: scratch.path + "/none")
        }
        #expect(lookup("xtoast-in-adwaita") == adwaita)
        #expect(lookup("xtoast-in-hicolor") == hicolor)
    }

    @Test("A theme's folders are names inside it: an index.theme naming ../ or absolute folders finds nothing outside the theme")
    func themeFoldersStayInside() throws {
        let scratch = try Scratch()
        let root = scratch.path + "/icons"
        let outside = scratch.path + "/secret"
        try scratch.write("png", to: "secret/xtoast-outside.png")
        try scratch.write("png", to: "icons/Mine/ok/xtoast-inside.png")
        // Every way out: up, up from inside, absolute, and the dot folders on their own.
        try scratch.write(
            "[Icon Theme]\nDirectories=../../secret,ok/../../../secret,\(outside),.,..,ok//,ok\n\n[../../secret]\nSize=16\n"
                + "[ok/../../../secret]\nSize=16\n[\(outside)]\nSize=16\n[.]\nSize=16\n[..]\nSize=16\n[ok//]\nSize=16\n"
                + "[ok]\nSize=16\n",
            to: "icons/Mine/index.theme")
        let lookup = { (name: String) in
            IconTheme.lookup(name, pixelSize: 16, theme: "Mine", roots: [root], pixmaps: scratch.path + "/none")
        }
        #expect(lookup("xtoast-outside") == nil)
        #expect(lookup("xtoast-inside") == root + "/Mine/ok/xtoast-inside.png")
        #expect(IconTheme.Index.read("Mine", in: [root])?.directories.map(\.path) == ["ok"])
    }

    @Test("A theme without index.theme is searched in the usual folders, symbolic/ and scalable/ included")
    func themeWithoutIndex() throws {
        let scratch = try Scratch()
        let root = scratch.path + "/icons"
        let path = try scratch.write(square("#2e3436"), to: "icons/hicolor/symbolic/status/xtoast-test-symbolic.svg")
        #expect(IconTheme.lookup("xtoast-test-symbolic", pixelSize: 20, roots: [root], pixmaps: scratch.path) == path)
    }

    @Test("Adwaita's audio-volume-high-symbolic (adwaita-icon-theme, a test dependency) is found and drawn in the text colour")
    func adwaita() throws {
        let path = try #require(IconTheme.lookup("audio-volume-high-symbolic", pixelSize: 40, roots: ["/usr/share/icons"]))
        #expect(path.hasSuffix(".svg"), "\(path)")
        var style = Style.toast
        style.foreground = Color(red: 0, green: 1, blue: 0)
        let pixels = PixelReader(try painter(.named("audio-volume-high-symbolic"), style: style, scale: 2).image())
        let green = pixels.pixels(x: 0..<60) { $0.green > 200 && $0.red < 30 }
        #expect(green.count > 200, "\(green.count) green pixels")
    }
}

/// Documents whose cost is not their size: each is drawn in a child bounded in memory and time,
/// and what goes past the bound is one line of error, no icon, and the toast still draws.
@Suite("SVG work bounds", .serialized)
struct SVGWorkBoundTests {
    /// A shell pipeline's success, for files too large to write by hand in a test.
    private func shell(_ command: String) -> Bool { system(command) == 0 }

    /// Resident memory of this process, in MiB (/proc/self/statm's second number).
    private func residentMiB() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0
        var resident = 0
        _ = withUnsafeMutablePointer(to: &size) { s in
            withUnsafeMutablePointer(to: &resident) { r in withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) } }
        }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE))) >> 20
    }

    private func seconds(_ body: () throws -> Void) rethrows -> Double {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    @Test("An .svgz that expands past 1 MiB is refused while it expands: one line, and the toast goes on without it")
    func compressedBomb() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/bomb.svgz"
        let made = shell(
            "(printf \"<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><!--\"; head -c 50000000 /dev/zero | tr '\\0' ' ';"
                + " printf '%s' \"--><rect width='16' height='16'/></svg>\") | gzip -9 > \(path)")
        #expect(made)
        defer { unlink(path) }
        // Refused at the bound while expanding (the message says so), not after 50 MB.
        #expect {
            _ = try IconImage.file(at: path)
        } throws: { error in
            let error = error as? RenderError
            return error?.overBudget == true && error?.description.hasSuffix("expands past 1 MiB") == true
        }
        // A small one reads as its plain twin does.
        let small = scratch.path + "/small.svgz"
        #expect(shell("printf '%s' \"\(square("#ff0000"))\" | gzip > \(small)"))
        defer { unlink(small) }
        let pixels = PixelReader(try painter(.file(small)).image())
        #expect(pixels.pixels { $0.red > 8 && $0.green < 8 }.count == 400)
    }

    @Test("A document whose drawing takes more CPU time than its bound is stopped there: one line")
    func cpuBound() throws {
        let scratch = try Scratch()
        // Work for one thread: 5,000 filtered layers (seconds of one core). Texts in fonts that do
        // not exist were no good: Pango sorts fonts on threads of its own, which spin on idle
        // cores and wait on busy ones, so beside stress-ng such a document drew within the bound.
        let layers = String(repeating: "<rect width='16' height='16' filter='url(#b)'/>", count: 5000)
        let filter = "<filter id='b'><feGaussianBlur stdDeviation='3'/><feMorphology radius='4'/></filter>"
        let path = try scratch.write(
            "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>\(filter)\(layers)</svg>", to: "slow.svg")
        let budget = ImageSandbox.Budget(memory: 256 << 20, cpuSeconds: 1, seconds: 10)
        // The CPU bound stops it, not the (far) wall-clock one: however loaded the machine, the
        // message names CPU time. How long that takes is the bench's business, not a test's.
        #expect {
            _ = try IconImage.file(at: path, budget: budget)
        } throws: { error in
            let error = error as? RenderError
            return error?.overBudget == true && error?.description.hasSuffix("took more than 1 s of CPU time") == true
        }
    }

    @Test("A data: URL embedding a 20000×20000 PNG (1.6 GB of pixels) is drawn away from us: bounded in time, our memory untouched")
    func embeddedPixels() throws {
        let scratch = try Scratch()
        let png = scratch.path + "/big.png"
        // A 1-bit PNG of zeros: its pixel data is a zlib stream of zeros (gzip's deflate, with
        // the zlib header and an Adler-32 of zeros, which is n mod 65521 in the high half).
        let side = 20000
        let raw = side * (1 + side / 8)
        #expect(shell("head -c \(raw) /dev/zero | gzip -9 > \(png).gz"))
        defer { unlink(png + ".gz") }
        let gz = try #require(fopen(png + ".gz", "rb"))
        var gzip: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&buffer, 1, buffer.count, gz), count > 0 { gzip += buffer[0..<count] }
        fclose(gz)
        let adler = UInt32(raw % 65521) << 16 | 1
        let zlib = [0x78, 0xda] + gzip[10..<(gzip.count - 8)] + bigEndian(adler)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [1, 0, 0, 0, 0]
        let file = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
        let svg =
            "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='16' height='16'>"
            + "<rect width='16' height='16' fill='red'/><image width='16' height='16' xlink:href='data:image/png;base64,"
            + base64(file) + "'/></svg>"
        let path = try scratch.write(svg, to: "embedded.svg")
        let before = residentMiB()
        let took = try seconds {
            // Drawn without the picture (librsvg's loader gets no memory for it) or not at all.
            _ = try? painter(.file(path)).image()
        }
        // The child is killed at its 5 s deadline at the latest: bounded, not hung (however
        // loaded the machine; how fast is the bench's business).
        #expect(took < 30, "took \(took) s")
        #expect(residentMiB() - before < 100, "grew from \(before) to \(residentMiB()) MiB")
    }

    @Test("A document that makes librsvg abort (a filter its matrix code rejects) is one line of error, not our crash")
    func librsvgAborts() throws {
        let scratch = try Scratch()
        let kernel = Array(repeating: "1", count: 400 * 400).joined(separator: " ")
        let path = try scratch.write(
            "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><filter id='f'><feConvolveMatrix order='400' "
                + "kernelMatrix='\(kernel)'/></filter><rect width='16' height='16' filter='url(#f)'/></svg>", to: "abort.svg")
        #expect {
            try ToastPainter.check(icon: .file(path))
        } throws: { error in
            let error = error as? RenderError
            return error?.overBudget == true && error?.description.contains("librsvg failed") == true
                && error?.description.contains("\n") == false
        }
        // The toast draws, without the icon, and says why once.
        let drawn = try painter(.file(path))
        #expect(drawn.iconWarning?.contains("showing the toast without it") == true)
        _ = try drawn.image()
    }

    @Test("Pages of Pango warnings from an SVG's text are one line")
    func textWarnings() throws {
        let scratch = try Scratch()
        let texts = (0..<50).map { "<text font-size='1e30' font-family='x\($0)'>a</text>" }.joined()
        let path = try scratch.write("<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>\(texts)</svg>", to: "text.svg")
        let chatter = try ToastPainter.check(icon: .file(path))
        let line = try #require(chatter)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("Pango-"), "\(line)")
    }
}

private func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
}

private func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 4 / 3 + 4)
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
        for position in 0..<4 {
            out.append(position <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(position)) & 63)] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: out, as: UTF8.self)
}
