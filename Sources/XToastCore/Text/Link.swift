/// A link in a toast's text (`<a href="…">text</a>`: an application's `body-hyperlinks`, or a
/// script's `--markup`): which URLs a click may open, and with what. The URL comes from anyone
/// on the session bus, so only what is needed gets through: the web and mail, written out in
/// plain ASCII, never a file, a script, a scheme an application registered, or anything a shell
/// or the opener could read as more than one word.
public enum Link {
    /// The schemes a link may have (in any case): nothing else is ever opened.
    public static let schemes = ["http", "https", "mailto"]
    /// A longer URL is refused: links in notifications are short, and the sanitiser looks for a
    /// tag's end within 1024 characters anyway.
    public static let lengthLimit = 1000
    /// The desktop's opener, looked up on `PATH`: it hands the URL to the user's browser or mail
    /// program.
    public static let opener = "xdg-open"

    /// `url` if a click may open it, nil if it may not: one of `schemes`, at most `lengthLimit`
    /// characters, each of them one a URI may have (RFC 3986's unreserved and reserved
    /// characters, and `%` before two hex digits), less the apostrophe. So no space, control
    /// character, quote, backslash, backquote, `<`, `>`, or non-ASCII letter (an address in
    /// another script must come percent-encoded, which also keeps look-alike letters and bidi
    /// controls out). A web address needs a host (`https://` and something that is not a
    /// path), a mail address anything after `mailto:`.
    public static func openable(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard !bytes.isEmpty, bytes.count <= lengthLimit, bytes.allSatisfy(isAllowed), percentEscapesAreWhole(bytes),
            let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let rest = bytes[(colon + 1)...]
        switch scheme {
        case "http", "https":
            guard rest.starts(with: "//".utf8), let first = rest.dropFirst(2).first, !"/?#".utf8.contains(first) else { return nil }
        case "mailto":
            guard !rest.isEmpty else { return nil }
        default:
            return nil
        }
        return url
    }

    /// The command that opens `url`, nil when it may not be opened (`openable`).
    public static func command(opening url: String) -> [String]? {
        openable(url).map { [opener, $0] }
    }

    /// An ASCII letter, digit, or one of `-._~:/?#[]@!$&()*+,;=%`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~:/?#[]@!$&()*+,;=%".utf8.contains(byte)
        }
    }

    /// Whether every `%` starts an escape of two hex digits.
    private static func percentEscapesAreWhole(_ bytes: [UInt8]) -> Bool {
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
        }
        return true
    }
}
