import Testing

@testable import XToastCore

@Suite("Terminal text")
struct TerminalTextTests {
    @Test(
        "Control characters are written as escapes",
        arguments: [
            ("plain", "plain"),
            ("Привет 世界 👍🏽", "Привет 世界 👍🏽"),
            ("two\nlines", "two\\nlines"),
            ("\u{1B}]0;pwned\u{7}", "\\x1B]0;pwned\\x07"),
            ("\u{1B}[2J", "\\x1B[2J"),
            ("tab\there\r", "tab\\there\\r"),
            ("del\u{7F}", "del\\x7F"),
            ("csi\u{9B}31m", "csi\\u{9B}31m"),
            ("nel\u{85}", "nel\\u{85}"),
            ("\u{0}", "\\x00"),
        ])
    func escapes(input: String, expected: String) {
        #expect(TerminalText.escaped(input) == expected)
    }

    @Test("No C0, C1 or DEL survives, and the result is one line")
    func noControlLeft() {
        let all = String(String.UnicodeScalarView((0..<0xA0).compactMap { Unicode.Scalar(UInt32($0)) }))
        let result = TerminalText.escaped(all)
        #expect(!result.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!result.contains("\n"))
    }

    @Test("A line keeps its beginning and end, at most lineLimit characters", arguments: [10, 999, 1000, 1001, 1_000_000])
    func lineLimit(length: Int) {
        let text = "invalid duration \"" + String(repeating: "x", count: length) + "\": expected seconds"
        let line = TerminalText.line(text)
        #expect(line.count == min(text.count, TerminalText.lineLimit))
        #expect(line.hasPrefix("invalid duration \"x"))
        #expect(line.hasSuffix("x\": expected seconds"))
    }
}
