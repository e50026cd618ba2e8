import CCairo
import XToastCore

/// What a PNG says about itself before it is decoded.
enum PNGHeader {
    /// The image's size from its IHDR chunk, nil when the bytes are not a PNG.
    static func size(of bytes: [UInt8]) -> Size? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // The signature, then IHDR's length (13) and type, then its width and height.
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func bigEndian(at offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return Size(width: bigEndian(at: 16), height: bigEndian(at: 20))
    }

    /// Hands the bytes of a file already read to cairo's PNG decoder, in the pieces it asks for.
    final class Reader {
        private let bytes: [UInt8]
        private var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func read(into data: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
            guard count <= bytes.count - offset else { return CAIRO_STATUS_READ_ERROR }
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                data.update(from: base + offset, count: count)
            }
            offset += count
            return CAIRO_STATUS_SUCCESS
        }
    }
}
