import CCairo

/// A gzip-compressed SVG document (`.svgz`), expanded here with a bound on what it expands to,
/// so that librsvg only ever sees plain XML within `SVGIcon.byteLimit`: a few hundred
/// kilobytes of gzip can expand to gigabytes.
enum CompressedSVG {
    /// Whether `bytes` start as gzip does.
    static func isCompressed(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x1f, 0x8b]) }

    /// The expanded document, at most `limit` bytes; past it, or when the stream is not gzip,
    /// an error that says which.
    static func expand(_ bytes: [UInt8], limit: Int) throws(RenderError) -> [UInt8] {
        var stream = z_stream()
        guard xtoast_inflate_init_gzip(&stream) == Z_OK else { throw RenderError(message: "cannot expand the compressed SVG image") }
        defer { inflateEnd(&stream) }
        // One byte past the limit tells that there is more.
        var output = [UInt8](repeating: 0, count: limit + 1)
        var input = bytes
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        let produced = Int(stream.total_out)
        if produced > limit {
            throw RenderError(message: "a compressed SVG image that expands past \(limit >> 20) MiB", overBudget: true)
        }
        guard result == Z_STREAM_END else {
            let reason = stream.msg.map { String(cString: $0) } ?? "it ends early"
            throw RenderError(message: "not a compressed SVG image zlib reads (\(reason))")
        }
        output.removeLast(output.count - produced)
        return output
    }
}
