/// The rules that turn what the user gave into the text a toast shows.
public enum MessageText {
    /// More characters than this are cut (with an ellipsis) before layout: nobody reads more
    /// in a toast, and laying out a megabyte would take seconds.
    public static let characterLimit = 4096

    public enum Problem: Error, Equatable {
        /// Nothing but white space was given.
        case empty
    }

    /// Several words given as separate arguments are joined with spaces.
    public static func join(_ arguments: [String]) -> String {
        arguments.joined(separator: " ")
    }

    /// Decodes bytes as UTF-8, replacing each invalid sequence with U+FFFD; `repaired` tells
    /// whether any was replaced.
    public static func decode(_ bytes: some Collection<UInt8>) -> (text: String, repaired: Bool) {
        if let valid = String(validating: bytes, as: UTF8.self) { return (valid, false) }
        return (String(decoding: bytes, as: UTF8.self), true)
    }

    /// A character (grapheme cluster) keeps at most this many Unicode scalars. One letter with
    /// 100,000 combining marks is one `Character`, so `characterLimit` alone does not bound the
    /// text, and shaping a cluster costs the square of its length. The longest emoji sequences
    /// (families with skin tones, subdivision flags) have 11 scalars.
    public static let scalarsPerCharacter = 16

    /// The text to show: line ends unified, control characters made visible, white space at
    /// both ends trimmed, each character cut to `scalarsPerCharacter` scalars, and the whole cut
    /// at `characterLimit`. The work is bounded by the limits, not by the input's length, past
    /// one scan of the input. Throws `.empty` when nothing is left.
    public static func normalize(_ text: String) throws(Problem) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        var kept = 0
        var index = text.startIndex
        while index < text.endIndex, kept < characterLimit {
            let character = text[index]
            index = text.index(after: index)
            // Leading white space is dropped before it counts.
            if kept == 0 && character.isWhitespace { continue }
            kept += 1
            for scalar in character.unicodeScalars.prefix(scalarsPerCharacter) {
                defer { previousWasCR = scalar == "\r" }
                switch scalar {
                case "\n" where previousWasCR: continue
                case "\r": scalars.append("\n")
                case "\n", "\t": scalars.append(scalar)
                // NUL would end the C string Pango is given; other controls draw as hex boxes.
                case _ where scalar.value < 0x20 || scalar.value == 0x7f: scalars.append("\u{FFFD}")
                default: scalars.append(scalar)
                }
            }
        }
        var result = Substring(String(scalars))
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        guard !result.isEmpty else { throw .empty }
        // Cut only if something other than white space was left out.
        let cut = text[index...].contains { !$0.isWhitespace }
        return cut ? String(result) + "…" : String(result)
    }
}
