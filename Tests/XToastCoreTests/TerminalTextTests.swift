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

    /// Trojan Source (CVE-2021-42574): an embedding, override or isolate that is never closed
    /// reorders the rest of the line on a terminal that applies the bidirectional algorithm.
    @Test(
        "Bidirectional embeddings, overrides and isolates are escaped, on a terminal and in JSON",
        arguments: [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] as [UInt32])
    func bidirectionalControls(value: UInt32) throws {
        let text = "invoice\(Character(try #require(Unicode.Scalar(value))))fdp.exe"
        let hex = String(value, radix: 16)
        #expect(TerminalText.escaped(text) == "invoice\\u{\(hex.uppercased())}fdp.exe")
        #expect(TerminalText.line(text) == TerminalText.escaped(text))
        #expect(JSONLine.quoted(text) == "\"invoice\\u\(hex)fdp.exe\"")
    }

    /// The marks steer only the neutral characters beside them (they move no letter), and
    /// right-to-left text needs them before its punctuation: kept, as any script is.
    @Test("The left-to-right, right-to-left and Arabic letter marks are kept", arguments: ["שלום\u{200F}!", "a\u{200E}b", "ب\u{061C}1"])
    func directionalMarks(text: String) {
        #expect(TerminalText.escaped(text) == text)
        #expect(JSONLine.quoted(text) == "\"" + text + "\"")
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
