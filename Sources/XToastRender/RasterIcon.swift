import CCairo
import Glibc
import XToastCore

/// The raster formats besides PNG that icons and applications' pictures come in (a photo as
/// `notify-send -i photo.jpg`, a contact's picture as `image-path`), told apart by their first
/// bytes, never by the file's name. Each is given to gdk-pixbuf's loader of that one format, so
/// a file that starts as a JPEG never reaches another loader (its SVG, XPM or ANI loaders).
enum RasterFormat: String, CaseIterable {
    case jpeg, gif, bmp, webp, tiff, ico

    /// The format `bytes` start as, nil for none of these.
    init?(sniffing bytes: [UInt8]) {
        func starts(with prefix: String, at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.utf8.count && bytes[offset..<offset + prefix.utf8.count].elementsEqual(prefix.utf8)
        }
        func starts(with prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(with: "GIF87a") || starts(with: "GIF89a") {
            self = .gif
        } else if starts(with: "RIFF") && starts(with: "WEBP", at: 8) {
            self = .webp
        } else if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts(with: "BM") && bytes.count >= 26 {
            // BITMAPFILEHEADER (14 bytes) and at least the oldest info header's sizes.
            self = .bmp
        } else if starts(with: [0, 0, 1, 0]) && bytes.count >= 22 && (bytes[4] != 0 || bytes[5] != 0) {
            // ICONDIR with at least one entry.
            self = .ico
        } else {
            return nil
        }
    }

    /// As messages name it.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .bmp: "BMP"
        case .webp: "WebP"
        case .tiff: "TIFF"
        case .ico: "ICO"
        }
    }
}

/// gdk-pixbuf's functions, found with `dlopen` the first time a JPEG (GIF, BMP…) icon is read:
/// the desktop's own image loader, with a loader per format. Linked into the binary, it would
/// load libjpeg and gdk-pixbuf at every start, also for the toasts that show no picture.
final class PixbufLibrary: @unchecked Sendable {  // immutable after init; the library is never closed
    /// The soname Debian's libgdk-pixbuf-2.0-0 installs (2.32 and later: `gdk_pixbuf_read_pixels`).
    static let soname = "libgdk_pixbuf-2.0.so.0"

    let newLoader: xtoast_pixbuf_loader_new_with_type
    let setSize: xtoast_pixbuf_loader_set_size
    let write: xtoast_pixbuf_loader_write
    let close: xtoast_pixbuf_loader_close
    let pixbuf: xtoast_pixbuf_loader_get_pixbuf
    let width, height, rowstride, channels, bitsPerSample, hasAlpha: xtoast_pixbuf_get_number
    let pixels: xtoast_pixbuf_read_pixels

    /// gdk-pixbuf, opened once per process.
    static let shared: Result<PixbufLibrary, RenderError> = Result { () throws(RenderError) in try PixbufLibrary(soname) }

    /// Opens the library `name`; a missing library or function is an error that says so.
    init(_ name: String) throws(RenderError) {
        let formats = RasterFormat.allCases.map(\.name).joined(separator: ", ")
        // RTLD_LOCAL: its symbols (and those of what it loads) do not take the place of ours.
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw RenderError(message: "\(formats) icons need gdk-pixbuf (\(name), Debian's libgdk-pixbuf-2.0-0): \(reason)")
        }
        let names = [
            "gdk_pixbuf_loader_new_with_type", "gdk_pixbuf_loader_set_size", "gdk_pixbuf_loader_write", "gdk_pixbuf_loader_close",
            "gdk_pixbuf_loader_get_pixbuf", "gdk_pixbuf_get_width", "gdk_pixbuf_get_height", "gdk_pixbuf_get_rowstride",
            "gdk_pixbuf_get_n_channels", "gdk_pixbuf_get_bits_per_sample", "gdk_pixbuf_get_has_alpha", "gdk_pixbuf_read_pixels",
        ]
        let found = names.compactMap { dlsym(library, $0) }
        guard found.count == names.count else {
            dlclose(library)
            throw RenderError(message: "\(formats) icons need gdk-pixbuf 2.32 or later (\(name) lacks some of its functions)")
        }
        newLoader = unsafeBitCast(found[0], to: xtoast_pixbuf_loader_new_with_type.self)
        setSize = unsafeBitCast(found[1], to: xtoast_pixbuf_loader_set_size.self)
        write = unsafeBitCast(found[2], to: xtoast_pixbuf_loader_write.self)
        close = unsafeBitCast(found[3], to: xtoast_pixbuf_loader_close.self)
        pixbuf = unsafeBitCast(found[4], to: xtoast_pixbuf_loader_get_pixbuf.self)
        (width, height, rowstride) = (number(found[5]), number(found[6]), number(found[7]))
        (channels, bitsPerSample, hasAlpha) = (number(found[8]), number(found[9]), number(found[10]))
        pixels = unsafeBitCast(found[11], to: xtoast_pixbuf_read_pixels.self)
    }
}

private func number(_ symbol: UnsafeMutableRawPointer) -> xtoast_pixbuf_get_number {
    unsafeBitCast(symbol, to: xtoast_pixbuf_get_number.self)
}

/// A JPEG, GIF, BMP, WebP, TIFF or ICO picture, decoded by gdk-pixbuf in `ImageSandbox`'s child
/// (a picture is anyone's: a decompression bomb, a truncated file, a loader that aborts) and
/// scaled while it decodes to what a toast draws: a 50-megapixel photo costs what its icon does.
enum RasterIcon {
    /// Pictures are decoded to fit this square, or the icon's own size when larger: the largest
    /// icon the presets draw is 36 px, 144 at HiDPI scale 4. One size for every icon size, so
    /// that the check at start-up and the toast's painter share one decoding.
    static let decodedSide = 256
    /// A picture declaring more pixels a side is refused before anything is decoded: JPEG
    /// allows 65535, and a few kilobytes can declare it. The largest cameras' photos (200
    /// megapixels) are 16320 wide.
    static let declaredSideLimit = 20_000

    /// The picture in `bytes` (of `format`), at most `pixelSize` (or `decodedSide`) a side,
    /// its proportions kept, never enlarged.
    static func decode(
        _ bytes: [UInt8], format: RasterFormat, pixelSize: Int, library: PixbufLibrary, budget: ImageSandbox.Budget = .standard
    ) throws(RenderError) -> CairoSurface {
        let side = max(decodedSide, pixelSize)
        let job = ImageSandbox.Job(
            image: "the \(format.name) image", library: "gdk-pixbuf", bytes: bytes, size: Size(width: side, height: side),
            budget: budget
        ) { canvas in
            decode(bytes, format: format, library: library, on: canvas)
        }
        return try ImageSandbox.draw(job).image
    }

    /// What the loader's size-prepared handler needs: it cannot capture.
    private struct SizeRequest {
        var library: PixbufLibrary
        var canvas: ImageSandbox.Canvas
        var format: RasterFormat
    }

    /// The child's part: the format's own loader, told the size to decode at as soon as the
    /// picture's header says how large it is (JPEG then decodes at an eighth, a quarter or half
    /// its size), then the pixels premultiplied into the canvas.
    private static func decode(_ bytes: [UInt8], format: RasterFormat, library: PixbufLibrary, on canvas: ImageSandbox.Canvas)
        -> Result<Size, ImageSandbox.Failure>
    {
        var error: UnsafeMutablePointer<GError>?
        guard let loader = format.rawValue.withCString({ library.newLoader($0, &error) }) else {
            return .failure(.init(message: "gdk-pixbuf has no \(format.name) loader here (\(ImageSandbox.take(error)))"))
        }
        let request = UnsafeMutablePointer<SizeRequest>.allocate(capacity: 1)
        request.initialize(to: SizeRequest(library: library, canvas: canvas, format: format))
        xtoast_connect_size_prepared(
            loader,
            { loader, width, height, data in
                guard let request = data?.assumingMemoryBound(to: SizeRequest.self).pointee else { return }
                let limit = RasterIcon.declaredSideLimit
                guard (1...limit).contains(Int(width)), (1...limit).contains(Int(height)) else {
                    request.canvas.fail("the \(request.format.name) image is \(width)x\(height) pixels: at most \(limit) each way")
                }
                let fit = RasterIcon.fit(Size(width: Int(width), height: Int(height)), in: request.canvas.size)
                if fit.width < width || fit.height < height { request.library.setSize(loader, Int32(fit.width), Int32(fit.height)) }
            }, request)
        let wrote = bytes.withUnsafeBufferPointer { library.write(loader, $0.baseAddress, gsize($0.count), &error) }
        guard wrote != 0, library.close(loader, &error) != 0 else {
            return .failure(.init(message: "not a \(format.name) image gdk-pixbuf reads (\(ImageSandbox.take(error)))"))
        }
        guard let pixbuf = library.pixbuf(loader) else {
            return .failure(.init(message: "gdk-pixbuf found no picture in the \(format.name) image"))
        }
        let size = Size(width: Int(library.width(pixbuf)), height: Int(library.height(pixbuf)))
        guard (1...canvas.size.width).contains(size.width), (1...canvas.size.height).contains(size.height) else {
            return .failure(.init(message: "gdk-pixbuf decoded the \(format.name) image at \(size.width)x\(size.height), not as asked"))
        }
        let (rowstride, channels) = (Int(library.rowstride(pixbuf)), Int(library.channels(pixbuf)))
        // GdkPixbuf does not pad the last row.
        let count = rowstride * (size.height - 1) + size.width * channels
        guard let start = library.pixels(pixbuf), rowstride >= size.width * channels else {
            return .failure(.init(message: "gdk-pixbuf gave no pixels for the \(format.name) image"))
        }
        let picture = NotificationImage(
            width: Int32(size.width), height: Int32(size.height), rowstride: Int32(rowstride), hasAlpha: library.hasAlpha(pixbuf) != 0,
            bitsPerSample: library.bitsPerSample(pixbuf), channels: Int32(channels),
            bytes: Array(UnsafeBufferPointer(start: start, count: count)))
        let argb: [UInt32]
        do throws(NotificationImage.Problem) { argb = try picture.premultipliedARGB() } catch {
            return .failure(.init(message: "gdk-pixbuf's \(format.name) picture: \(error.description)"))
        }
        argb.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<size.height {
                (canvas.pixels + row * canvas.stride).copyMemory(from: base + row * size.width * 4, byteCount: size.width * 4)
            }
        }
        return .success(size)
    }

    /// `size` scaled down to fit `box`, its proportions kept (at least a pixel each way).
    static func fit(_ size: Size, in box: Size) -> Size {
        let factor = min(1, Double(box.width) / Double(max(size.width, 1)), Double(box.height) / Double(max(size.height, 1)))
        return Size(
            width: max(Int((Double(size.width) * factor).rounded()), 1), height: max(Int((Double(size.height) * factor).rounded()), 1))
    }
}
