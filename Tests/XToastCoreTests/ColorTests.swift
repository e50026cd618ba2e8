import Testing

@testable import XToastCore

private func components(_ c: Color?) -> [Double]? { c.map { [$0.red, $0.green, $0.blue, $0.alpha] } }

private func close(_ a: [Double]?, _ b: [Double]) -> Bool {
    guard let a, a.count == b.count else { return false }
    return zip(a, b).allSatisfy { abs($0 - $1) < 1e-12 }
}

@Suite("Colours")
struct ColorTests {
    /// Each channel as the byte it was written as: n/255, or n·17/255 for a short form's digit.
    static let hexForms: [(String, [Int])] = [
        ("#fff", [255, 255, 255, 255]),
        ("#000", [0, 0, 0, 255]),
        ("#f80", [255, 0x88, 0, 255]),
        ("#0008", [0, 0, 0, 0x88]),
        ("#ff8000", [255, 128, 0, 255]),
        ("#000000cc", [0, 0, 0, 204]),
        ("000000cc", [0, 0, 0, 204]),
        ("3c3c3c", [60, 60, 60, 255]),
        ("#ABCDEF", [0xAB, 0xCD, 0xEF, 255]),
        ("#aBcDeF80", [0xAB, 0xCD, 0xEF, 0x80]),
    ]

    @Test("Hex forms parse, with or without '#', in either case", arguments: hexForms)
    func parses(text: String, bytes: [Int]) {
        let parsed = Color(hex: text)
        let expected: [Double] = bytes.map { Double($0) / 255 }
        #expect(close(components(parsed), expected), "\(text) → \(String(describing: parsed))")
    }

    @Test("A short form means each digit doubled", arguments: ["#abc", "#1234", "#f0f", "#9e7c"])
    func shortFormDoubles(text: String) {
        let digits = text.dropFirst()
        let doubled = "#" + digits.map { "\($0)\($0)" }.joined()
        #expect(Color(hex: text) == Color(hex: doubled))
    }

    @Test(
        "Anything else is rejected",
        arguments: [
            "", "#", "##fff", "#ff", "#fffff", "#fffffff", "#fffffffff", "#ggg", "#12345g", "# fff", "fff ",
            " #fff", "#ｆｆｆ", "rgb(0,0,0)", "black", "0xffffff", "#-12",
        ])
    func rejects(text: String) {
        #expect(Color(hex: text) == nil)
    }

    @Test(
        "description is #rrggbbaa and parses back to the same colour",
        arguments: ["#000000cc", "#3c3c3ccc", "#ffffffff", "#01234567", "#89abcdef", "#00000000"])
    func roundTrip(text: String) {
        let color = Color(hex: text)
        #expect(color?.description == text)
        #expect(color.flatMap { Color(hex: $0.description) } == color)
    }

    @Test("description rounds to the nearest byte and clamps out-of-range components")
    func descriptionRoundsAndClamps() {
        #expect(Color(red: 0, green: 0, blue: 0, alpha: 0.8).description == "#000000cc")
        #expect(Color(rgb255: 60, 60, 60, alpha: 0.8).description == "#3c3c3ccc")
        #expect(Color(red: 2, green: -1, blue: 0.5, alpha: 1).description == "#ff0080ff")
        #expect(Color(hex: "#fff")?.description == "#ffffffff")
    }

    @Test("opaque keeps the colour and drops the translucency")
    func opaque() {
        let translucent = Color(rgb255: 60, 60, 60, alpha: 0.8)
        #expect(translucent.opaque == Color(rgb255: 60, 60, 60))
        #expect(translucent.opaque.alpha == 1)
    }
}
