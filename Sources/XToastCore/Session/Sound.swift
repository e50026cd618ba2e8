/// A sound a toast plays as it shows (`--sound`, a rule's `sound =`, a notification's
/// `sound-name` or `sound-file`): a name of the freedesktop sound theme (`message-new-instant`,
/// `bell`), or a sound file. Both come from anyone who sends a notification: a name is a few
/// plain characters, a file an absolute path, and the player reads either with its own bounds.
public enum Sound: Equatable, Sendable, CustomStringConvertible {
    case named(String)
    case file(String)

    /// Characters of a name at most (the theme's longest are some 30).
    public static let nameLimit = 64
    /// Bytes of a path at most.
    public static let pathLimit = 4096

    /// A name (letters, digits, `-`, `_`, `.`), an absolute path or a `file://` URI; nil for
    /// anything else.
    public init?(parsing text: String) {
        if text.hasPrefix("/") || text.hasPrefix("file://") {
            guard let path = try? FileURI.path(text), path.hasPrefix("/"), path.utf8.count <= Self.pathLimit,
                !path.unicodeScalars.contains(where: { $0.value < 0x20 })
            else { return nil }
            self = .file(path)
        } else {
            guard (1...Self.nameLimit).contains(text.count),
                text.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
                }),
                text.first != "."
            else { return nil }
            self = .named(text)
        }
    }

    public var description: String {
        switch self {
        case .named(let name): name
        case .file(let path): path
        }
    }

    /// Whether a toast that shows now plays its sound: not while toasts are paused (an urgent
    /// one goes through the pause, silently). A locked screen shows no toast at all.
    public static func plays(paused: Bool) -> Bool { !paused }
}
