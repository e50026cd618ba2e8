import Testing

@testable import XToastCore

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Describes bytes for a failure message: printable ASCII as is, everything else escaped.
private func show(_ bytes: [UInt8]) -> String {
    bytes.map { (0x20..<0x7f).contains($0) ? String(UnicodeScalar($0)) : "\\x" + ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
}

@Suite("Ticket")
struct TicketTests {
    @Test("The reference encoding")
    func referenceEncoding() {
        #expect(Ticket(pid: 42, tag: "volume").encoded == bytes("v=1\npid=42\ntag=volume\n"))
        #expect(Ticket(pid: 42, tag: nil).encoded == bytes("v=1\npid=42\n"))
        #expect(Ticket(decoding: bytes("v=1\npid=42\ntag=volume\n")) == Ticket(pid: 42, tag: "volume"))
    }

    @Test(
        "Encoding then decoding gives the same ticket",
        arguments: [
            Ticket(pid: 42, tag: "volume"),
            Ticket(pid: 42, tag: nil),
            Ticket(pid: 1, tag: "a"),
            Ticket(pid: Int(Int32.max), tag: "brightness"),
            Ticket(pid: Int.max, tag: nil),
            Ticket(pid: 7, tag: "Громкость 🔊"),
            Ticket(pid: 7, tag: "音量"),
            Ticket(pid: 7, tag: "👍🏽👨‍👩‍👧"),
            Ticket(pid: 8, tag: "a=b=c"),
            Ticket(pid: 8, tag: "=leading equals"),
            Ticket(pid: 8, tag: " spaced "),
            Ticket(pid: 9, tag: "e\u{301}"),  // decomposed é
            Ticket(pid: 9, tag: "\u{301}e"),  // starts with a combining accent
            Ticket(pid: 9, tag: "\u{200D}zwj"),  // starts with a zero-width joiner
            Ticket(pid: 9, tag: String(repeating: "x", count: Ticket.tagLimit)),
            Ticket(pid: 9, tag: String(repeating: "é", count: Ticket.tagLimit / 2)),
        ])
    func roundTrip(ticket: Ticket) {
        let decoded = Ticket(decoding: ticket.encoded)
        #expect(decoded == ticket)
        // Byte for byte, not just canonically equivalent.
        #expect(decoded.map { Array($0.tag?.utf8 ?? "".utf8) } == Array(ticket.tag?.utf8 ?? "".utf8))
    }

    @Test("A toast's part of a summary after quiet: its application, and the notifications of a burst it stands for")
    func away() {
        var burst = Ticket(pid: 42, tag: nil)
        burst.away = Ticket.Away("Signal", count: 3)
        #expect(burst.encoded == bytes("v=1\npid=42\naway=Signal\naway-count=3\n"))
        #expect(Ticket(decoding: burst.encoded) == burst)
        var one = Ticket(pid: 42, tag: nil)
        one.away = Ticket.Away("Mail")
        #expect(one.encoded == bytes("v=1\npid=42\naway=Mail\n"), "one is said by saying nothing")
        // A count without a name counts nothing.
        #expect(Ticket(decoding: bytes("v=1\npid=42\naway-count=3\n"))?.away == nil)
    }

    @Test(
        "Later versions may add keys; order, blank lines and a missing final newline don't matter",
        arguments: [
            "v=1\npid=42\ntag=volume",
            "v=1\npid=42\ncolour=red\ntag=volume\nfuture=\n",
            "tag=volume\npid=42\nv=1\n",
            "\nv=1\n\n\npid=42\ntag=volume\n\n",
            "v=1\npid=42\n=\ntag=volume\n",  // an empty key is just an unknown key
        ])
    func acceptsForwardCompatible(text: String) {
        #expect(Ticket(decoding: bytes(text)) == Ticket(pid: 42, tag: "volume"))
    }

    @Test(
        "Malformed text is rejected",
        arguments: [
            "", "\n", "\n\n",
            // Version
            "v=2\npid=42\n", "pid=42\ntag=volume\n", "v=\npid=42\n", "v=one\npid=42\n", "v=1.0\npid=42\n", "V=1\npid=42\n",
            // Process id
            "v=1\npid=0\n", "v=1\npid=-1\n", "v=1\npid=-42\n", "v=1\npid=abc\n", "v=1\npid=\n", "v=1\n", "v=1\ntag=volume\n",
            "v=1\npid=42x\n", "v=1\npid= 42\n", "v=1\npid=4 2\n", "v=1\npid=0x2a\n", "v=1\npid=99999999999999999999\n",
            // Tag
            "v=1\npid=42\ntag=\n", "v=1\npid=42\ntag=a\u{1}b\n", "v=1\npid=42\ntag=a\u{7f}\n", "v=1\npid=42\ntag=\u{0}\n",
            "v=1\npid=42\ntag=a\tb\n", "v=1\npid=42\ntag=\u{1b}[31m\n", "v=1\npid=42\ntag=a\rb\n",
            "v=1\npid=42\ntag=" + String(repeating: "x", count: Ticket.tagLimit + 1) + "\n",
            "v=1\npid=42\ntag=" + String(repeating: "é", count: Ticket.tagLimit / 2 + 1) + "\n",  // 258 bytes, 129 characters
            // A summary's count
            "v=1\npid=42\naway=Signal\naway-count=0\n", "v=1\npid=42\naway=Signal\naway-count=-3\n",
            "v=1\npid=42\naway=Signal\naway-count=10000\n", "v=1\npid=42\naway=Signal\naway-count=3x\n",
            // Lines
            "v=1\npid=42\nhello\n", "v=1\npid=42\ntag\n", "v=1 pid=42\n", "v=1\r\npid=42\r\n",
        ])
    func rejects(text: String) {
        #expect(Ticket(decoding: bytes(text)) == nil)
    }

    @Test(
        "Invalid UTF-8 is rejected",
        arguments: [
            [0xff], [0xfe, 0xff], [0xc0, 0xaf],  // never valid; an overlong "/"
            bytes("v=1\npid=42\ntag=") + [0xc3] + bytes("\n"),  // a truncated é
            bytes("v=1\npid=42\ntag=") + [0xed, 0xa0, 0x80] + bytes("\n"),  // a UTF-16 surrogate
            bytes("v=1\npid=42\ntag=") + [0xf4, 0x90, 0x80, 0x80] + bytes("\n"),  // beyond U+10FFFF
            bytes("v=1\npid=42\n") + [0x80] + bytes("=x\n"),  // in an unknown key
        ] as [[UInt8]])
    func rejectsInvalidUTF8(input: [UInt8]) {
        #expect(Ticket(decoding: input) == nil)
    }

    @Test("Values up to 4096 bytes are read, longer ones are not")
    func byteLimit() {
        let ticket = bytes("v=1\npid=42\ntag=volume\n")
        // An unknown key pads the value to exactly the limit.
        let padding = bytes("pad=") + Array(repeating: UInt8(ascii: "x"), count: Ticket.byteLimit - ticket.count - 5) + bytes("\n")
        #expect((ticket + padding).count == Ticket.byteLimit)
        #expect(Ticket(decoding: ticket + padding) == Ticket(pid: 42, tag: "volume"))
        #expect(Ticket(decoding: ticket + padding + bytes("\n")) == nil)
        #expect(Ticket(decoding: ticket + Array(repeating: UInt8(ascii: "\n"), count: 100_000)) == nil)
    }

    @Test(
        "A tag is 1 to 256 bytes of UTF-8 without control characters",
        arguments: [
            ("volume", true), ("a", true), ("with space", true), ("a=b", true), ("Громкость", true), ("👍🏽", true),
            (String(repeating: "x", count: 256), true), (String(repeating: "é", count: 128), true),
            ("", false), ("a\nb", false), ("a\tb", false), ("\r", false), ("\u{0}", false), ("\u{1}", false),
            ("\u{1f}", false), ("x\u{7f}", false), ("\u{1b}[0m", false), ("a\u{85}b", false), ("\u{9f}", false), ("\u{a0}", true),
            (String(repeating: "x", count: 257), false), (String(repeating: "é", count: 129), false),
            (String(repeating: "世", count: 86), false),  // 86 characters, 258 bytes
        ])
    func isValidTag(tag: String, expected: Bool) {
        #expect(Ticket.isValidTag(tag) == expected)
    }

    @Test("Remote command numbers are part of the protocol", arguments: [(1, RemoteCommand.dismiss), (2, .replaced), (3, .press)])
    func commandNumbers(number: Int, command: RemoteCommand) {
        #expect(command.rawValue == number)
        #expect(RemoteCommand(rawValue: number) == command)
    }

    @Test("Unknown command numbers are not commands", arguments: [0, 5, -1, Int.max])
    func unknownCommands(number: Int) {
        #expect(RemoteCommand(rawValue: number) == nil)
    }

    /// Any X client can write anything to a ticket window, so decoding must survive any bytes.
    @Test("Fuzz: any bytes decode to nil or to a valid ticket that is a fixed point of encode/decode")
    func fuzz() {
        let tagPieces = ["a", "Z", "0", "-", "_", " ", "=", "é", "e\u{301}", "\u{301}", "\u{200D}", "世", "👍🏽", "🔊", "ÿ"]
        let tokens = [
            "v=1\n", "v=1\n", "v=2\n", "v=\n", "v=01\n", "pid=", "pid=", "tag=", "tag=", "42", "7", "0", "-", "+", "9223372036854775807",
            "9223372036854775808", "\n", "\n", "=", "x", "é", "\u{301}", "👍🏽", "\u{1}", "\u{7f}", "\r\n", "future=1\n", "\u{85}", "at=",
            "1700000000",
        ]
        var random = SplitMix64(state: 0x7854_6f61_7374)  // "xToast"
        var decodedCount = 0
        var failures: [String] = []
        var input: [UInt8] = []
        input.reserveCapacity(320)

        for round in 0..<200_000 {
            input.removeAll(keepingCapacity: true)
            switch round % 4 {
            case 0, 1:
                // A valid ticket, which must round trip, then flipped, inserted and deleted bytes.
                let tag: String? =
                    random.below(4) == 0 ? nil : String((0...random.below(12)).map { _ in random.pick(tagPieces) }.joined())
                let ticket = Ticket(pid: 1 + random.below(1 << 31), tag: tag)
                input = ticket.encoded
                if Ticket(decoding: input) != ticket, failures.count < 5 { failures.append("valid \(show(input)) did not round trip") }
                for _ in 0...random.below(4) {
                    let position = random.below(input.count + 1)
                    switch random.below(4) {
                    case 0 where position < input.count: input[position] ^= UInt8(1 << random.below(8))
                    case 1: input.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                    case 2 where position < input.count: input.remove(at: position)
                    default: input.insert(random.pick([0x0a, 0x3d, 0x30, 0x31, 0xc3, 0x80]), at: position)  // \n = 0 1, UTF-8 pieces
                    }
                }
            case 2:
                // Pieces of the syntax, in any order.
                for _ in 0...random.below(16) { input += random.pick(tokens).utf8 }
            default:
                // Plain noise.
                let count = random.below(301)
                while input.count < count {
                    var word = random.next()
                    for _ in 0..<min(8, count - input.count) {
                        input.append(UInt8(truncatingIfNeeded: word))
                        word >>= 8
                    }
                }
            }
            if input.count > 300 { input.removeLast(input.count - 300) }

            guard let ticket = Ticket(decoding: input) else { continue }
            decodedCount += 1
            let valid = ticket.pid > 0 && (ticket.tag.map(Ticket.isValidTag) ?? true) && (ticket.at.map { $0 >= 0 } ?? true)
            let again = Ticket(decoding: ticket.encoded)
            if !valid || again != ticket || again?.encoded != ticket.encoded, failures.count < 5 {
                failures.append("\(show(input)) decoded to \(ticket), which is invalid or not a fixed point")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        // The mutations must leave enough valid tickets for the checks above to mean something.
        #expect(decodedCount > 10_000, "only \(decodedCount) inputs decoded")
    }
}

@Suite("Ticket queue")
struct TicketQueueTests {
    @Test(
        "pruned drops 0, removed ids and repeats, a repeated id keeping its last place (an id reused by a new ticket)",
        arguments: [
            ([], [], []),
            ([1, 2, 3], [], [1, 2, 3]),
            ([0], [], []),
            ([0, 1, 0, 2, 0], [], [1, 2]),
            ([1, 2, 3], [2], [1, 3]),
            ([1, 2, 3], [1, 3, 9], [2]),
            ([3, 1, 3, 2, 1], [], [3, 2, 1]),
            ([5, 5, 5], [5], []),
            ([7, 0, 7, 8, 2, 8], [2], [7, 8]),
            ([UInt.max, 1, UInt.max], [], [1, UInt.max]),
        ] as [([UInt], Set<UInt>, [UInt])])
    func pruned(entries: [UInt], removed: Set<UInt>, expected: [UInt]) {
        #expect(TicketQueue.pruned(entries, removing: removed) == expected)
    }

    @Test("A queue longer than the limit is cut, keeping the oldest entries")
    func entryLimit() {
        let limit = TicketQueue.entryLimit
        #expect(TicketQueue.pruned((1...UInt(limit)).map { $0 }, removing: []).count == limit)
        #expect(TicketQueue.pruned((1...UInt(2 * limit)).map { $0 }, removing: []) == (1...UInt(limit)).map { $0 })
    }

    @Test(
        "replacing puts the new id in the old one's place, or at the end, and never twice",
        arguments: [
            ([1, 2, 3], 2, 9, [1, 9, 3]),
            ([2], 2, 9, [9]),
            ([1, 3], 2, 9, [1, 3, 9]),
            ([], 2, 9, [9]),
            ([9, 1, 2, 3], 2, 9, [1, 9, 3]),
            ([1, 2, 3, 9], 2, 9, [1, 9, 3]),
            ([9, 1, 3], 2, 9, [1, 3, 9]),
            ([0, 1, 1, 2, 0, 2], 2, 9, [1, 9]),
        ] as [([UInt], UInt, UInt, [UInt])])
    func replacing(entries: [UInt], old: UInt, new: UInt, expected: [UInt]) {
        #expect(TicketQueue.replacing(old, with: new, in: entries) == expected)
    }

    @Test("Random queues: no 0, no repeats, removed ids gone, order kept; a replacement appears exactly once")
    func randomQueues() {
        var random = SplitMix64(state: 2024)
        for _ in 0..<5_000 {
            // Few distinct values, so repeats and collisions are common.
            let entries = (0..<random.below(40)).map { _ in UInt(random.below(16)) }
            let removed = Set((0..<random.below(4)).map { _ in UInt(random.below(16)) })
            let old = UInt(random.below(16))
            let new = UInt(1 + random.below(15))  // a window id is never 0

            let pruned = TicketQueue.pruned(entries, removing: removed)
            #expect(!pruned.contains(0) && Set(pruned).count == pruned.count && removed.isDisjoint(with: pruned))
            // The survivors, each at its last appearance.
            var lastAppearances: [UInt] = []
            for entry in entries.reversed() where entry != 0 && !removed.contains(entry) && !lastAppearances.contains(entry) {
                lastAppearances.insert(entry, at: 0)
            }
            #expect(pruned == lastAppearances, "pruned(\(entries), removing: \(removed))")

            let replaced = TicketQueue.replacing(old, with: new, in: entries)
            #expect(!replaced.contains(0) && Set(replaced).count == replaced.count, "replacing(\(old), with: \(new), in: \(entries))")
            #expect(replaced.filter { $0 == new }.count == 1)
            #expect(Set(replaced).subtracting([new]) == Set(entries).subtracting([0, new, old]))
        }
    }
}
