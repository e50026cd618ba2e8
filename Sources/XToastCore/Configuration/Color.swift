/// A straight (not premultiplied) sRGB colour with alpha, each component in 0...1.
public struct Color: Equatable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 0–255 channels, as the designs write them: `rgb(60,60,60)` at 0.8.
    public init(rgb255 r: Int, _ g: Int, _ b: Int, alpha: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
    }

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (the `#` is optional); nil otherwise.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.first == "#" { digits = digits.dropFirst() }
        let nibbles = digits.utf8.map(Color.hexValue)
        guard !nibbles.contains(nil) else { return nil }
        let n = nibbles.map { Double($0!) }
        switch n.count {
        case 3, 4:
            self.init(red: n[0] / 15, green: n[1] / 15, blue: n[2] / 15, alpha: n.count == 4 ? n[3] / 15 : 1)
        case 6, 8:
            func byte(_ i: Int) -> Double { (n[2 * i] * 16 + n[2 * i + 1]) / 255 }
            self.init(red: byte(0), green: byte(1), blue: byte(2), alpha: n.count == 8 ? byte(3) : 1)
        default:
            return nil
        }
    }

    /// The same colour with full alpha: what is drawn where nothing can blend.
    public var opaque: Color { Color(red: red, green: green, blue: blue, alpha: 1) }

    /// The same colour, `opacity` as opaque as it is.
    public func faded(_ opacity: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha * opacity) }

    /// `#rrggbbaa`, the form `--background` takes.
    public var description: String {
        func hex(_ v: Double) -> String {
            let byte = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex(red) + hex(green) + hex(blue) + hex(alpha)
    }

    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
