import Testing

@testable import XToastCore

@Suite("Display duration")
struct DisplayDurationTests {
    @Test(
        "Names and numbers parse (seconds by default, s and ms suffixes)",
        arguments: [
            ("auto", DisplayDuration.automatic),
            ("short", .seconds(2)),
            ("long", .seconds(3.5)),
            ("sticky", .sticky),
            ("1.5", .seconds(1.5)),
            ("1.5s", .seconds(1.5)),
            ("1500ms", .seconds(1.5)),
            ("2s", .seconds(2)),
            ("250ms", .seconds(0.25)),
            ("0", .seconds(0)),
            ("10", .seconds(10)),
            (".5", .seconds(0.5)),
            ("86400", .seconds(86_400)),
        ])
    func parses(text: String, expected: DisplayDuration) {
        #expect(DisplayDuration(parsing: text) == expected)
    }

    @Test("Numbers keep millisecond precision", arguments: [("1.0004", 1.0), ("1.0006", 1.001), ("0.1234ms", 0.0), ("1234.4ms", 1.234)])
    func millisecondPrecision(text: String, expected: Double) {
        guard case .seconds(let s)? = DisplayDuration(parsing: text) else {
            Issue.record("\(text) did not parse")
            return
        }
        #expect(abs(s - expected) < 1e-12)
    }

    @Test(
        "Anything else is rejected",
        arguments: [
            "", "abc", "nan", "NaN", "inf", "infinity", "-1", "-0", "+1", "1e9", "1e3", "0x10", "0x1p3",
            "s", "ms", ".", "1..2", "1.5 s", " 1", "1 ", "1h", "1sms", "1mss", "Auto", "STICKY",
            "86401",  // longer than a day: surely a typo
            "١",  // a digit, but not an ASCII one
        ])
    func rejects(text: String) {
        #expect(DisplayDuration(parsing: text) == nil)
    }

    @Test(
        "Automatic hold: clamp(0.5 s + 60 ms a character, 2 s, 10 s)",
        arguments: [
            (0, 2.0), (1, 2.0), (25, 2.0), (26, 2.06), (50, 3.5), (100, 6.5), (158, 9.98), (159, 10.0), (200, 10.0), (100_000, 10.0),
        ])
    func automaticHold(characters: Int, expected: Double) {
        #expect(abs(DisplayDuration.automaticHold(characters: characters) - expected) < 1e-9)
    }

    @Test("The automatic hold never shrinks as the text grows")
    func automaticHoldIsMonotonic() {
        var previous = 0.0
        for n in 0...300 {
            let hold = DisplayDuration.automaticHold(characters: n)
            #expect(hold >= previous)
            #expect((2...10).contains(hold))
            previous = hold
        }
    }

    @Test("hold(for:) counts characters a reader sees, not bytes")
    func holdForMessage() {
        #expect(DisplayDuration.automatic.hold(for: "Tagged") == 2)
        #expect(abs(DisplayDuration.automatic.hold(for: String(repeating: "x", count: 50))! - 3.5) < 1e-9)
        // 50 thumbs with a skin tone: 400 UTF-8 bytes, 100 scalars, 50 characters.
        #expect(abs(DisplayDuration.automatic.hold(for: String(repeating: "👍🏽", count: 50))! - 3.5) < 1e-9)
        #expect(DisplayDuration.seconds(1.25).hold(for: "anything") == 1.25)
        #expect(DisplayDuration.sticky.hold(for: "anything") == nil)
    }
}
