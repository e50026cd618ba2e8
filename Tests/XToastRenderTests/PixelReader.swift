import CCairo
import XToastCore
import XToastRender

/// One pixel of a Cairo ARGB32 image: premultiplied, as Cairo stores it.
struct ARGB: Equatable, CustomStringConvertible {
    var alpha: UInt8
    var red: UInt8
    var green: UInt8
    var blue: UInt8

    var description: String { "argb(\(alpha), \(red), \(green), \(blue))" }
}

/// Reads pixels straight from a Cairo image surface's memory.
struct PixelReader {
    let width: Int
    let height: Int
    private let stride: Int
    private let data: UnsafeMutablePointer<UInt8>
    /// Keeps the surface (and so its memory) alive while pixels are read.
    private let surface: CairoSurface

    init(_ surface: CairoSurface) {
        let pointer = surface.pointer
        cairo_surface_flush(pointer)
        precondition(cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_ARGB32)
        self.surface = surface
        width = Int(cairo_image_surface_get_width(pointer))
        height = Int(cairo_image_surface_get_height(pointer))
        stride = Int(cairo_image_surface_get_stride(pointer))
        data = cairo_image_surface_get_data(pointer)!
    }

    /// ARGB32 is a native-endian 32-bit word; on little-endian machines the bytes are B, G, R, A.
    subscript(x: Int, y: Int) -> ARGB {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "(\(x), \(y)) outside \(width)x\(height)")
        let word = UnsafeRawPointer(data + y * stride + 4 * x).loadUnaligned(as: UInt32.self)
        return ARGB(
            alpha: UInt8(truncatingIfNeeded: word >> 24), red: UInt8(truncatingIfNeeded: word >> 16),
            green: UInt8(truncatingIfNeeded: word >> 8), blue: UInt8(truncatingIfNeeded: word))
    }

    /// Every pixel in `rows` × `columns` for which `predicate` holds.
    func pixels(x columns: Range<Int>? = nil, y rows: Range<Int>? = nil, where predicate: (ARGB) -> Bool) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for y in rows ?? 0..<height {
            for x in columns ?? 0..<width where predicate(self[x, y]) {
                found.append((x, y))
            }
        }
        return found
    }
}

extension ARGB {
    /// Fully covered and (nearly) white: the middle of a glyph stroke.
    var isSolidWhite: Bool { alpha == 255 && red > 200 && green > 200 && blue > 200 }
    /// Brighter than the black background: some of a glyph is here.
    var isInk: Bool { red > 64 || green > 64 || blue > 64 }

    /// Nothing drawn at all.
    static let clear = ARGB(alpha: 0, red: 0, green: 0, blue: 0)

    /// An opaque colour as Cairo stores it.
    init(opaque color: Color) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        self.init(alpha: 255, red: byte(color.red), green: byte(color.green), blue: byte(color.blue))
    }

    /// Whether every channel is within `tolerance` of `expected`'s (antialiasing, rounding).
    func isNear(_ expected: ARGB, within tolerance: Int = 2) -> Bool {
        [(alpha, expected.alpha), (red, expected.red), (green, expected.green), (blue, expected.blue)]
            .allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }
}
