import Testing

@testable import XToastCore

@Suite("Message text")
struct MessageTextTests {
    @Test(
        "Normalized text",
        arguments: [
            ("Tagged", "Tagged"),
            ("  hello  ", "hello"),
            ("\n\thello world\t\n", "hello world"),
            ("\u{00A0}wide\u{3000}", "wide"),
            ("a\r\nb", "a\nb"),
            ("a\rb", "a\nb"),
            ("a\r\n\r\nb", "a\n\nb"),
            ("a\n\rb", "a\n\nb"),
            ("a\tb", "a\tb"),
            ("a\u{0}b", "a\u{FFFD}b"),
            ("bell\u{7}", "bell\u{FFFD}"),
            ("\u{1B}[31mred", "\u{FFFD}[31mred"),
            ("del\u{7F}", "del\u{FFFD}"),
            ("\u{0}", "\u{FFFD}"),
            ("Привет, 世界 👍🏽", "Привет, 世界 👍🏽"),
        ])
    func normalize(input: String, expected: String) throws {
        #expect(try MessageText.normalize(input) == expected)
    }

    @Test("Nothing but white space is an error", arguments: ["", " ", "   \n\n ", "\r\n", "\t\u{00A0}\u{2003}"])
    func empty(input: String) {
        #expect(throws: MessageText.Problem.empty) { try MessageText.normalize(input) }
    }

    @Test("No control character survives (other than newline and tab)")
    func noControlCharacters() throws {
        let all = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) } + ["\u{7F}"]))
        let result = try MessageText.normalize("x" + all + "x")
        for scalar in result.unicodeScalars where scalar != "\n" && scalar != "\t" {
            #expect(scalar.value >= 0x20 && scalar.value != 0x7F)
        }
        #expect(!result.unicodeScalars.contains("\u{0}"))
    }

    @Test("Text is cut at the character limit with an ellipsis", arguments: [1, 100, 5000])
    func cutAtLimit(extra: Int) throws {
        let limit = MessageText.characterLimit
        let result = try MessageText.normalize(String(repeating: "a", count: limit + extra))
        #expect(result.count == limit + 1)
        #expect(result.hasSuffix("a…"))
        #expect(result.dropLast().allSatisfy { $0 == "a" })
    }

    @Test("Text exactly at the limit, or longer only by white space, is kept whole")
    func atLimit() throws {
        let limit = MessageText.characterLimit
        let exact = String(repeating: "b", count: limit)
        #expect(try MessageText.normalize(exact) == exact)
        #expect(try MessageText.normalize("   " + exact + "  \n") == exact)
    }

    @Test("The limit counts characters, so a cut never splits one")
    func cutCountsCharacters() throws {
        let thumbs = String(repeating: "👍🏽", count: MessageText.characterLimit + 10)
        let result = try MessageText.normalize(thumbs)
        #expect(result.count == MessageText.characterLimit + 1)
        #expect(result.dropLast().allSatisfy { $0 == "👍🏽" })
        #expect(result.last == "…")
    }

    @Test(
        "Decoding repairs invalid UTF-8 and says so",
        arguments: [
            ([0x68, 0xFF, 0x69] as [UInt8], "h\u{FFFD}i"),
            ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),  // overlong "/"
            ([0x61, 0xE2, 0x82], "a\u{FFFD}"),  // truncated "€"
            ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),  // a UTF-16 surrogate
        ])
    func decodeInvalid(bytes: [UInt8], expected: String) {
        let (text, repaired) = MessageText.decode(bytes)
        #expect(repaired)
        #expect(text == expected)
    }

    @Test("Valid UTF-8 decodes unchanged", arguments: ["", "hi", "é€👍🏽", "Привет"])
    func decodeValid(text: String) {
        let decoded = MessageText.decode(Array(text.utf8))
        #expect(decoded.text == text)
        #expect(!decoded.repaired)
    }

    @Test("Separate arguments are joined with single spaces")
    func join() {
        #expect(MessageText.join(["Build", "failed: 3 errors"]) == "Build failed: 3 errors")
        #expect(MessageText.join(["one"]) == "one")
        #expect(MessageText.join([]) == "")
    }

    @Test("A letter with 100,000 combining marks keeps only a few of them")
    func combiningMarks() throws {
        let marks = String(repeating: "\u{0301}", count: 100_000)
        let result = try MessageText.normalize("a" + marks + " b")
        #expect(result.count == 3)
        #expect(result.unicodeScalars.count == MessageText.scalarsPerCharacter + 2)
        #expect(result.hasSuffix(" b"))
    }

    @Test("Whatever the input, the text is bounded in characters and scalars")
    func boundedInScalars() throws {
        let cluster = "e" + String(repeating: "\u{0300}", count: 40)
        let result = try MessageText.normalize(String(repeating: cluster, count: 10_000))
        #expect(result.count == MessageText.characterLimit + 1)
        #expect(result.unicodeScalars.count <= MessageText.characterLimit * MessageText.scalarsPerCharacter + 1)
        #expect(result.hasSuffix("…"))
    }

    @Test("Emoji sequences stay whole", arguments: ["👨🏻‍👩🏻‍👧🏻‍👦🏻", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👩🏽‍🚀", "🇺🇦"])
    func emojiSequences(emoji: String) throws {
        #expect(try MessageText.normalize("hi " + emoji) == "hi " + emoji)
    }
}
