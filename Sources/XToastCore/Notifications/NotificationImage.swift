/// The `image-data` hint (`(iiibiiay)`: width, height, rowstride, has alpha, bits per sample,
/// channels, bytes): raw RGB or RGBA rows, as GdkPixbuf keeps them. Firefox, Discord and
/// Spotify send pictures this way; the sizes come from the client and are checked against the
/// bytes before anything reads them.
public struct NotificationImage: Equatable, Sendable {
    public var width: Int32
    public var height: Int32
    public var rowstride: Int32
    public var hasAlpha: Bool
    public var bitsPerSample: Int32
    public var channels: Int32
    public var bytes: [UInt8]

    public init(width: Int32, height: Int32, rowstride: Int32, hasAlpha: Bool, bitsPerSample: Int32, channels: Int32, bytes: [UInt8]) {
        (self.width, self.height, self.rowstride, self.hasAlpha) = (width, height, rowstride, hasAlpha)
        (self.bitsPerSample, self.channels, self.bytes) = (bitsPerSample, channels, bytes)
    }

    /// The bounds a PNG icon has: at most 4096 pixels each way and 16 MiB of pixels.
    public static let maximumSide = 4096
    public static let maximumBytes = 16 << 20
    /// The largest side of the picture the service writes for a toast: a toast's icon is never
    /// drawn larger (the presets' icons are 20 to 36 pixels, at most 3.5 times that at HiDPI), and
    /// what waits on disk and in memory stays small however large the pictures that come.
    public static let pictureSide = 128

    /// Why an image cannot be used, in words for the one warning.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Checks the sizes against each other, the bounds and the byte count; the last row may
    /// stop at its pixels (GdkPixbuf does not pad it).
    public func check() throws(Problem) {
        let side = 1...Int32(Self.maximumSide)
        guard side.contains(width), side.contains(height) else {
            throw Problem(description: "image-data is \(width)x\(height): expected 1 to \(Self.maximumSide) pixels each way")
        }
        guard bitsPerSample == 8 else { throw Problem(description: "image-data has \(bitsPerSample) bits per sample: expected 8") }
        guard channels == (hasAlpha ? 4 : 3) else {
            throw Problem(
                description: "image-data has \(channels) channels \(hasAlpha ? "with" : "without") alpha: expected \(hasAlpha ? 4 : 3)")
        }
        let rowBytes = Int(width) * Int(channels)
        guard Int(rowstride) >= rowBytes, Int(rowstride) <= rowBytes + 64 else {
            throw Problem(description: "image-data's rowstride \(rowstride) does not fit \(width) pixels of \(channels) bytes")
        }
        let needed = Int(rowstride) * (Int(height) - 1) + rowBytes
        guard needed <= Self.maximumBytes else { throw Problem(description: "image-data is larger than 16 MiB") }
        guard bytes.count >= needed, bytes.count <= Int(rowstride) * Int(height) else {
            throw Problem(
                description: "image-data has \(bytes.count) bytes: \(width)x\(height) with rowstride \(rowstride) needs \(needed)")
        }
    }

    /// Cairo's ARGB32 pixels (premultiplied, native-endian words), `width` a row.
    public func premultipliedARGB() throws(Problem) -> [UInt32] {
        try check()
        let (w, h, stride, step) = (Int(width), Int(height), Int(rowstride), Int(channels))
        var pixels = [UInt32](repeating: 0, count: w * h)
        bytes.withUnsafeBufferPointer { source in
            for y in 0..<h {
                for x in 0..<w {
                    let at = y * stride + x * step
                    let alpha = hasAlpha ? UInt32(source[at + 3]) : 255
                    func channel(_ offset: Int) -> UInt32 { (UInt32(source[at + offset]) * alpha + 127) / 255 }
                    pixels[y * w + x] = alpha << 24 | channel(0) << 16 | channel(1) << 8 | channel(2)
                }
            }
        }
        return pixels
    }
}
