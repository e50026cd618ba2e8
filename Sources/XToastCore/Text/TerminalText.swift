/// What may reach the user's terminal. An error or warning quotes values that anyone may have
/// written: arguments, paths, config values, X resources, the server's words. Raw, an escape
/// sequence in one of them retitles or clears the terminal, and a newline splits the "one line".
public enum TerminalText {
    /// `text` with every scalar that `mustEscape` names written as an escape (`\n`, `\t`, `\r`,
    /// `\x1B`, `\u{9B}`, `\u{202E}`), so that it prints as one inert line. Everything else, any
    /// script included, is kept.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mustEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x80 && mustEscape(scalar): result += "\\x" + hex(scalar.value)
            case _ where mustEscape(scalar): result += "\\u{" + hex(scalar.value) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A line's worth of characters: longer ones keep their beginning and end.
    public static let lineLimit = 1000

    /// `text` escaped as by `escaped`, and at most `lineLimit` characters: a value quoted in a
    /// message may be a megabyte long, and what follows it says what was wrong.
    public static func line(_ text: String) -> String {
        let line = escaped(text)
        guard line.count > lineLimit else { return line }
        let half = lineLimit / 2
        return line.prefix(half) + "…" + line.suffix(half - 1)
    }

    /// Whether `scalar` may not reach a terminal raw (the one rule, `JSONLine` follows it too):
    /// C0, DEL and C1, which start escape sequences and end lines, and the bidirectional
    /// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder the
    /// rest of a line on a terminal that applies the bidirectional algorithm, so that a path
    /// reads as another ("Trojan Source"). The marks (U+200E, U+200F, U+061C) are kept: they
    /// steer only the neutral characters beside them, and right-to-left text needs them.
    static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}
