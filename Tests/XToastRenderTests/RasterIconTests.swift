import CCairo
import Glibc
import Testing
import XToastCore
import XToastSystem

@testable import XToastRender

/// A fresh folder for a test's pictures, removed with everything in it when the test ends.
private final class Pictures {
    let path: String

    init() throws {
        var template = Array("/tmp/xtoast-raster-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        path = String(cString: try #require(made))
    }

    /// Runs a shell command in the folder; true when it succeeded.
    @discardableResult
    func shell(_ command: String) -> Bool { system("cd '\(path)' && \(command)") == 0 }

    /// A picture made by ImageMagick (a test dependency): `width`×`height`, its left half red
    /// and its right half blue, in `format`, written as `name`.
    func halves(_ format: String, width: Int = 64, height: Int = 32, name: String) throws -> String {
        let half = width / 2
        let made = shell(
            "convert -size \(width)x\(height) xc:'#0000ff' -fill '#ff0000' -draw 'rectangle 0,0 \(half - 1),\(height - 1)' "
                + "-quality 100 \(format):'\(name)'")
        try #require(made, "convert could not write \(format)")
        return path + "/" + name
    }

    /// The bytes of the file `name`.
    func bytes(_ name: String) throws -> [UInt8] {
        try RegularFile.read(path + "/" + name, limit: 64 << 20).bytes
    }

    /// Writes `bytes` to `name`.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path + "/" + name
        let handle = try #require(fopen(file, "wb"))
        defer { fclose(handle) }
        #expect(fwrite(bytes, 1, bytes.count, handle) == bytes.count)
        return file
    }

    deinit { system("rm -rf '\(path)'") }
}

private func painter(_ icon: Icon, scale: Double = 1) throws -> ToastPainter {
    try ToastPainter(
        content: ToastContent(message: "Photo", icon: icon), style: .toast,
        metrics: ToastMetrics(style: .toast, scale: scale, monitor: Size(width: Int(1920 * scale), height: Int(1080 * scale))))
}

private func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Clock.monotonic()
    try body()
    return Clock.monotonic() - start
}

/// `bytes` with the first frame header's (SOF0–SOF2) width and height set to `side`.
private func declaring(_ side: Int, jpeg bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    var at = 2
    while at + 9 < bytes.count, bytes[at] == 0xFF {
        let marker = bytes[at + 1]
        let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        if (0xC0...0xC2).contains(marker) {
            for offset in [5, 7] { (bytes[at + offset], bytes[at + offset + 1]) = (UInt8(side >> 8), UInt8(side & 0xFF)) }
            return bytes
        }
        at += 2 + length
    }
    return bytes
}

// Pango and fontconfig race when several threads set themselves up at once.
@Suite("Raster icons: JPEG, GIF, BMP, WebP, TIFF, ICO through gdk-pixbuf", .serialized)
struct RasterIconTests {
    @Test("gdk-pixbuf is installed (the test dependency libgdk-pixbuf-2.0-0): raster icons cannot be tested without it")
    func libraryIsThere() throws {
        _ = try PixbufLibrary.shared.get()
    }

    @Test(
        "The format is told by the first bytes, never by the name",
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], RasterFormat.jpeg), (Array("GIF89a".utf8), .gif), (Array("GIF87a".utf8), .gif),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp), ([0x49, 0x49, 0x2A, 0x00], .tiff), ([0x4D, 0x4D, 0x00, 0x2A], .tiff),
            (Array("BM".utf8) + Array(repeating: 0, count: 24), .bmp), ([0, 0, 1, 0, 1, 0] + Array(repeating: 0, count: 16), .ico),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], nil), (Array("<svg xmlns=".utf8), nil),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), nil), (Array("BM".utf8), nil),
            ([0, 0, 1, 0, 0, 0] + Array(repeating: 0, count: 16), nil),
            ([0xFF, 0xD8], nil), ([], nil),
        ] as [([UInt8], RasterFormat?)])
    func sniffing(bytes: [UInt8], expected: RasterFormat?) {
        #expect(RasterFormat(sniffing: bytes) == expected)
    }

    @Test(
        "A picture in each format draws in the icon's square, its proportions kept: red left, blue right, nothing above",
        arguments: [("jpeg", RasterFormat.jpeg), ("gif", .gif), ("bmp", .bmp), ("webp", .webp), ("tiff", .tiff), ("ico", .ico)])
    func drawsInTheIconSquare(format: String, expected: RasterFormat) throws {
        let pictures = try Pictures()
        // Named as a PNG: the name says nothing, the bytes do.
        let path = try pictures.halves(format, name: "\(format).png")
        #expect(RasterFormat(sniffing: try pictures.bytes("\(format).png")) == expected)
        try ToastPainter.check(icon: .file(path))
        let toast = try painter(.file(path), scale: 2)
        #expect(toast.iconWarning == nil, "\(toast.iconWarning ?? "")")
        let pixels = PixelReader(try toast.image())
        let middle = pixels.height / 2
        // The icon square is x 20..<60 at scale 2; the 2:1 picture fills 40×20 of it.
        let red = ARGB(alpha: 255, red: 255, green: 0, blue: 0)
        let blue = ARGB(alpha: 255, red: 0, green: 0, blue: 255)
        let tolerance = expected == .jpeg ? 24 : 2
        for x in [24, 30, 36] { #expect(pixels[x, middle].isNear(red, within: tolerance), "\(format) at \(x): \(pixels[x, middle])") }
        for x in [44, 50, 56] { #expect(pixels[x, middle].isNear(blue, within: tolerance), "\(format) at \(x): \(pixels[x, middle])") }
        let above = pixels[40, middle - 15]
        #expect(above.red < 40 && above.blue < 40, "\(format): above the picture \(above)")
    }

    @Test("A 4000×3000 photo is decoded at the size a toast draws, not at its own")
    func largePhotoIsDecodedSmall() throws {
        let pictures = try Pictures()
        let path = try pictures.halves("jpeg", width: 4000, height: 3000, name: "photo.jpg")
        guard case .image(let surface) = try IconImage.file(at: path) else {
            Issue.record("not a picture")
            return
        }
        #expect(surface.size == Size(width: RasterIcon.decodedSide, height: RasterIcon.decodedSide * 3 / 4))
        let small = try pictures.halves("jpeg", width: 30, height: 20, name: "small.jpg")
        guard case .image(let unscaled) = try IconImage.file(at: small) else { return }
        #expect(unscaled.size == Size(width: 30, height: 20), "never enlarged")
    }

    @Test("A JPEG named .svg is a JPEG")
    func jpegNamedSVG() throws {
        let pictures = try Pictures()
        let path = try pictures.halves("jpeg", name: "photo.svg")
        guard case .image = try IconImage.file(at: path) else {
            Issue.record("not drawn as a picture")
            return
        }
    }

    @Test("Without gdk-pixbuf a JPEG icon is one clear error, and nothing crashes")
    func missingLibrary() throws {
        let pictures = try Pictures()
        let path = try pictures.halves("jpeg", name: "photo.jpg")
        #expect {
            _ = try IconImage.file(at: path) {
                SVGLibrary.shared
            } pixbufLibrary: {
                Result { () throws(RenderError) in try PixbufLibrary("libxtoast-no-such-library.so.9") }
            }
        } throws: { error in
            let text = (error as? RenderError)?.description ?? ""
            return text.hasPrefix("cannot read icon \"\(path)\": JPEG, GIF, BMP, WebP, TIFF, ICO icons need gdk-pixbuf")
                && !text.contains("\n")
        }
    }
}

/// Pictures are anyone's: each hostile one ends within its bounds with at most one line, and the
/// toast still draws, without it.
@Suite("Raster icon bounds", .serialized)
struct RasterIconBoundTests {
    @Test("A JPEG cut in half draws what arrived, in bounded time")
    func truncatedJPEG() throws {
        let pictures = try Pictures()
        #expect(pictures.shell("convert -size 800x600 xc: +noise Random -quality 90 jpeg:whole.jpg"))
        let whole = try pictures.bytes("whole.jpg")
        let path = try pictures.write(Array(whole.prefix(whole.count / 2)), to: "half.jpg")
        let took = try seconds { _ = try IconImage.file(at: path) }
        #expect(took < 10, "took \(took) s")
        // Only the headers: nothing to draw, one line.
        let headers = try pictures.write(Array(whole.prefix(600)), to: "headers.jpg")
        do {
            _ = try IconImage.file(at: headers)
        } catch {
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("A JPEG declaring 65000×65000 pixels is refused before anything is decoded; the toast draws without it")
    func hugeDeclaredSize() throws {
        let pictures = try Pictures()
        _ = try pictures.halves("jpeg", name: "small.jpg")
        let path = try pictures.write(declaring(65000, jpeg: try pictures.bytes("small.jpg")), to: "huge.jpg")
        #expect {
            try ToastPainter.check(icon: .file(path))
        } throws: { error in
            (error as? RenderError)?.description.hasSuffix("the JPEG image is 65000x65000 pixels: at most 20000 each way") == true
        }
        let toast = try painter(.file(path))
        #expect(toast.iconWarning?.hasSuffix("showing the toast without it") == true)
        _ = try toast.image()
    }

    @Test(
        "Pictures declaring 20000×20000 pixels (1.6 GB decoded) over a few bytes end within the bounds: drawn, or one line",
        arguments: ["jpeg", "progressive", "gif", "bmp"])
    func decompressionBombs(kind: String) throws {
        let pictures = try Pictures()
        let path: String
        switch kind {
        case "jpeg", "progressive":
            #expect(pictures.shell("convert -size 64x64 xc: +noise Random \(kind == "jpeg" ? "" : "-interlace JPEG") jpeg:small.jpg"))
            path = try pictures.write(declaring(20000, jpeg: try pictures.bytes("small.jpg")), to: "bomb.jpg")
        case "gif":
            // Logical screen and image both 20000×20000, two colours, then a few bytes of LZW data.
            let side: [UInt8] = [0x20, 0x4E, 0x20, 0x4E]
            let colours: [UInt8] = [0x80, 0, 0, 255, 0, 0, 0, 0, 255]
            path = try pictures.write(
                Array("GIF89a".utf8) + side + colours + [0x2C, 0, 0, 0, 0] + side + [0, 2, 2, 0x4C, 0x01, 0, 0x3B], to: "bomb.gif")
        default:
            // A 32-bit BMP header declaring 20000×20000, and no pixels.
            var header = Array("BM".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0]
            header += [0x20, 0x4E, 0, 0, 0x20, 0x4E, 0, 0, 1, 0, 32, 0] + Array(repeating: 0, count: 24)
            path = try pictures.write(header, to: "bomb.bmp")
        }
        let took = seconds {
            // Drawn (grey where the data ends) or one line of why not: either way bounded.
            do { _ = try IconImage.file(at: path) } catch { #expect(!"\(error)".contains("\n")) }
        }
        #expect(took < 30, "\(kind) took \(took) s")
        _ = try painter(.file(path)).image()
    }

    @Test("A FIFO, a 1 GB file and a directory named photo.jpg are refused at once, never decoded")
    func notPictures() throws {
        let pictures = try Pictures()
        #expect(mkfifo(pictures.path + "/fifo.jpg", 0o600) == 0)
        // Sparse: 1 GB that takes no room, starting as a JPEG does.
        #expect(pictures.shell("printf '\\377\\330\\377' > big.jpg && truncate -s 1G big.jpg && mkdir folder.jpg"))
        for (name, reason) in [
            ("fifo.jpg", "a FIFO, not a regular file"), ("big.jpg", "larger than 16 MiB"), ("folder.jpg", "a directory"),
        ] {
            let took = seconds {
                #expect {
                    try ToastPainter.check(icon: .file(pictures.path + "/" + name))
                } throws: { error in
                    (error as? RenderError)?.description.contains(reason) == true
                }
            }
            #expect(took < 5, "\(name) took \(took) s")
        }
    }
}
