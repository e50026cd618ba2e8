/// A `file:` URI, as applications and notify-send name pictures (`file:///usr/share/a.png`,
/// `file://localhost/home/me/a%20b.png`): the one place one is read, as RFC 8089 says. The
/// scheme and the host are read without regard to case; `file:/path` has no host; each `%XX`
/// is a byte of the path.
public enum FileURI {
    /// Why a `file:` URI names no file of this machine, in words for the user.
    public struct Refusal: Error, Equatable, Sendable {
        public var reason: String
    }

    /// The path `text` names: `text` itself when it is no `file:` URI, else the local path the
    /// URI names.
    public static func path(_ text: String) throws(Refusal) -> String {
        guard text.prefix(5).lowercased() == "file:" else { return text }
        var rest = text.dropFirst(5)
        if rest.hasPrefix("//") {
            let host = rest.dropFirst(2).prefix { $0 != "/" }
            // Another machine's file is not one of ours, whatever path it has here.
            guard host.isEmpty || host.lowercased() == "localhost" else {
                throw Refusal(reason: "a file on host \"\(host)\", not on this machine")
            }
            rest = rest.dropFirst(2 + host.count)
        }
        guard rest.hasPrefix("/") else { throw Refusal(reason: "not a file URI with an absolute path (file:///path)") }
        return try decoded(rest)
    }

    /// The path with its `%XX` escapes read: UTF-8, without NUL (which would end it in C).
    private static func decoded(_ path: Substring) throws(Refusal) -> String {
        var bytes: [UInt8] = []
        var rest = path.utf8
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = rest.popFirst().flatMap(hexValue), let low = rest.popFirst().flatMap(hexValue) else {
                throw Refusal(reason: "a % not followed by two hexadecimal digits")
            }
            guard high != 0 || low != 0 else { throw Refusal(reason: "a NUL byte (%00) in the path") }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw Refusal(reason: "a path that is not UTF-8") }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
