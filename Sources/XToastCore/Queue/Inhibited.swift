/// Do not disturb held by applications (KDE's `Inhibit` on the notification service, `xtoast
/// --inhibit -- COMMAND`): who holds it, as the service publishes it for `--list`, `--watch` and
/// the centre.
///
/// Where it lives: the root's `_XTOAST_INHIBITED` (type `WINDOW`, format 32, one value) names a
/// window of the service's own, never mapped, whose `_XTOAST_INHIBITED` (type `UTF8_STRING`)
/// is `encoded`. The text is on the service's window, not on the root, so that it dies with the
/// service: the X server destroys a client's windows when its connection closes, however the
/// process ended (even `kill -9`), and a pointer to a window that is gone reads as nothing. A
/// pid in the value would need a reader on the same host (`ssh -X`), `/proc`, and luck with
/// reused pids; a window's end is the server's word. Readers follow the window's
/// `DestroyNotify`; the service sets the root's pointer again at every change, so that the
/// root's `PropertyNotify` says the text changed.
///
/// Any client can write both properties: every reader takes the value as hostile (bounded,
/// UTF-8 or nothing, no control or reordering characters, each name cut, few holders).
public struct Inhibited: Equatable, Sendable {
    /// One application holding it: its name (a desktop entry, or the command's for `--inhibit`),
    /// and why, as it said.
    public struct Holder: Equatable, Sendable {
        public var name: String
        public var reason: String?

        /// A holder as shown: both cleaned and cut to `fieldLimit`; nil for an empty name. A
        /// reason that only says the name again is none.
        public init?(name: String, reason: String?) {
            let name = Inhibited.cleaned(name)
            guard !name.isEmpty else { return nil }
            let reason = reason.map(Inhibited.cleaned) ?? ""
            self.name = name
            self.reason = reason.isEmpty || reason == name ? nil : reason
        }

        /// `obs (screen sharing)`, or the name alone.
        public var text: String { reason.map { "\(name) (\($0))" } ?? name }
    }

    /// At least one holder, in the order they came; the same one twice is listed once.
    public let holders: [Holder]

    /// Holders listed at most: an application that inhibits 256 times is one line, not 256.
    public static let holderLimit = 8
    /// A name and a reason are cut to this many characters (Unicode scalars).
    public static let fieldLimit = 64
    /// Longer values are not read: more than `holderLimit` holders of `fieldLimit` scalars each
    /// (four bytes at most) ever take.
    public static let byteLimit = holderLimit * (2 * fieldLimit * 4 + 2)

    /// `holders` (the first `holderLimit` different ones); nil for none.
    public init?(holders: [Holder]) {
        var distinct: [Holder] = []
        for holder in holders where !distinct.contains(holder) {
            guard distinct.count < Self.holderLimit else { break }
            distinct.append(holder)
        }
        guard !distinct.isEmpty else { return nil }
        self.holders = distinct
    }

    /// The window's property: a holder a line, its name and reason separated by a tab (neither
    /// can hold a control character).
    public var encoded: [UInt8] {
        Array(holders.map { $0.name + ($0.reason.map { "\t" + $0 } ?? "") }.joined(separator: "\n").utf8)
    }

    /// What the window's property says; nil when there is none (no pointer on the root, the
    /// window gone with its service, another type), or it is longer than `byteLimit`, not
    /// UTF-8, or names nobody.
    public static func reading(_ bytes: [UInt8]?) -> Inhibited? {
        guard let bytes, bytes.count <= byteLimit, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let holders = text.unicodeScalars.split(separator: "\n").compactMap { line -> Holder? in
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let reason = fields.count > 1 ? String(String.UnicodeScalarView(fields[1])) : nil
            return Holder(name: String(String.UnicodeScalarView(fields[0])), reason: reason)
        }
        return Inhibited(holders: holders)
    }

    /// The holders, `obs (screen sharing), sleep (sleep 30)`.
    public var text: String { holders.map(\.text).joined(separator: ", ") }

    /// `text` without what may not reach a terminal or a bar raw (control characters, the
    /// bidirectional overrides: `TerminalText.mustEscape`), without the spaces around it, and
    /// at most `fieldLimit` scalars.
    static func cleaned(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { !TerminalText.mustEscape($0) }
        let trimmed = String(String(String.UnicodeScalarView(kept)).trimmingSpaces)
        return String(String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(fieldLimit))).trimmingSpaces)
    }
}

extension JSONLine {
    /// The display's quiet as `--list --json` and `--watch` say it: `"paused":true,"until":N`
    /// (`until` only while paused, null until `--resume`), then `"inhibited":true,"by":["obs
    /// (screen sharing)"]` (`by` only while inhibited).
    mutating func add(pause: Pause?, inhibited: Inhibited?) {
        add("paused", pause != nil)
        if let pause { add("until", pause.end) }
        add("inhibited", inhibited != nil)
        if let inhibited { add("by", inhibited.holders.map(\.text)) }
    }
}
