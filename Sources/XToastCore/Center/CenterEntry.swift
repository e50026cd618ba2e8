/// One thing the notification centre lists: an application's notification kept after its toast
/// (its buttons still reach the application), or a toast a script showed (from the history:
/// nothing to press). Texts are plain, one paragraph, cut: what the store and the history hold
/// is hostile input, and a row shows two lines at most.
public struct CenterEntry: Equatable, Sendable {
    /// Where it comes from, and what dismissing it touches.
    public enum Source: Hashable, Sendable {
        /// A kept notification, by its id.
        case notification(UInt32)
        /// A history entry, by its key (`CenterEntry.key(of:)`).
        case toast(String)
    }

    public var source: Source
    /// Its group: the application's name, or "Toasts" for a script's.
    public var app: String
    public var title: String
    public var text: String
    /// The icon to draw (a name or a path), if any.
    public var icon: String?
    /// When it came, in seconds since 1970 (UTC).
    public var time: Int
    public var buttons: [String]
    public var hasDefaultAction: Bool
    public var unread: Bool

    /// Characters of a title or a text kept: two lines of a row show far fewer.
    static let textLimit = 300
    /// The group of scripts' toasts.
    public static let toastsGroup = "Toasts"
    /// The group of a notification whose application gave no name.
    public static let unnamedGroup = "Notifications"

    /// A kept notification; unread when it came after the read marker (`readUpTo`).
    public init(kept notification: Dispatcher.Notification, readUpTo: UInt32) {
        let toast = notification.toast
        source = .notification(notification.id)
        app = toast.app.isEmpty ? Self.unnamedGroup : toast.app
        (title, text) = Self.titleAndText(title: toast.summary, text: NotificationMarkup.plain(toast.body))
        icon = Self.icon(in: toast.arguments)
        time = notification.time
        buttons = toast.labels
        hasDefaultAction = toast.hasDefaultAction
        unread = notification.id > readUpTo
    }

    /// A script's toast from the history; nil for an application's (the store lists those while
    /// they are kept) and for one that never showed, unless it was kept from the screen to be
    /// seen here: by a rule (`popup = false`) or in a summary after quiet.
    public init?(toast entry: HistoryEntry) {
        guard entry.shown || Self.keptUnseen.contains(entry.ending), !entry.notification else { return nil }
        source = .toast(Self.key(of: entry))
        app = Self.toastsGroup
        let plain = { (text: String) in entry.markup ? NotificationMarkup.plain(text) : text }
        (title, text) = Self.titleAndText(title: entry.title.map(plain) ?? "", text: plain(entry.text))
        icon = entry.icon
        time = entry.time
        (buttons, hasDefaultAction, unread) = ([], false, false)
    }

    /// The endings of toasts that never showed and are listed all the same.
    static let keptUnseen: Set<String> = [HistoryEntry.quietEnding, Outcome.summarised(opensCenter: false).word(action: false)]

    /// The title and text as a row shows them: a text without a title becomes the title.
    static func titleAndText(title: String, text: String) -> (String, String) {
        let title = line(title)
        let text = line(text)
        return title.isEmpty ? (text, "") : (title, text)
    }

    /// One line of at most `textLimit` characters: control characters and line breaks are
    /// spaces, runs of spaces one. One pass over at most as much text as it keeps.
    static func line(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var count = 0
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            // Cc (C0, DEL, C1) and the Unicode line and paragraph separators.
            if value < 0x21 || (0x7f...0x9f).contains(value) || value == 0x2028 || value == 0x2029 {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                output.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < textLimit else {
                return String(String(output).prefix(textLimit - 1)) + "…"
            }
            output.append(scalar)
            if !(0x300...0x36f).contains(value) { count += 1 }
        }
        return String(output)
    }

    /// The value of `--icon` in a toast's command line.
    static func icon(in arguments: [String]) -> String? {
        guard let end = arguments.firstIndex(of: "--"), let index = arguments[..<end].firstIndex(of: "--icon"), index + 1 < end
        else { return nil }
        return arguments[index + 1]
    }

    /// A history entry's key: its time and a hash of its texts (FNV-1a, 64 bits: the same in
    /// every run). Two toasts alike in the same second are one entry to dismiss.
    public static func key(of entry: HistoryEntry) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (entry.title ?? "").utf8 + [0] + entry.text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\(entry.time)-" + String(hash, radix: 16)
    }

    /// Newest first, then notifications by id: an order that never rests on the input's.
    static func isNewer(_ a: CenterEntry, _ b: CenterEntry) -> Bool {
        if a.time != b.time { return a.time > b.time }
        switch (a.source, b.source) {
        case (.notification(let x), .notification(let y)): return x > y
        case (.notification, .toast): return true
        case (.toast, .notification): return false
        case (.toast(let x), .toast(let y)): return x > y
        }
    }

    /// What the centre lists: the kept notifications, and the history's script toasts less the
    /// ones dismissed from the centre (`dismissed`, their keys).
    public static func entries(
        kept: [Dispatcher.Notification], history: [HistoryEntry], dismissed: Set<String>, readUpTo: UInt32
    ) -> [CenterEntry] {
        kept.map { CenterEntry(kept: $0, readUpTo: readUpTo) }
            + history.compactMap(CenterEntry.init(toast:)).filter {
                guard case .toast(let key) = $0.source else { return false }
                return !dismissed.contains(key)
            }
    }
}

/// The history's toasts dismissed from the centre: a file of their keys, one a line, in the
/// session's runtime folder. The history stays as it was (`--history` still lists them); the
/// centre leaves them out. Read as hostile input: bounded, and a line that is not a key is
/// skipped.
public enum CenterDismissals {
    /// Keys kept: far more than the history holds (its `countLimit`).
    public static let countLimit = 4 * HistoryStore.countLimit
    /// The file is read this far.
    public static let byteLimit = countLimit * 48

    /// The keys in a file's bytes.
    public static func read(_ bytes: [UInt8]) -> Set<String> {
        Set(
            bytes.prefix(byteLimit).split(separator: UInt8(ascii: "\n")).prefix(countLimit).compactMap { line in
                guard line.count <= 40, line.allSatisfy({ isKeyByte($0) }) else { return nil }
                return String(decoding: line, as: UTF8.self)
            })
    }

    /// The file's bytes once `added` are dismissed too: only keys the history still has
    /// (`current`) stay, so the file never outgrows the history.
    public static func write(_ keys: Set<String>, adding added: [String], current: Set<String>) -> [UInt8] {
        let kept = keys.union(added).intersection(current).sorted().suffix(countLimit)
        return Array(kept.map { $0 + "\n" }.joined().utf8)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || byte == UInt8(ascii: "-")
    }
}

extension Center {
    /// How long ago `time` was, in a row's few characters: "now", "5 min", "3 h", "2 d".
    public static func age(of time: Int, now: Int) -> String {
        let seconds = max(now - time, 0)
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
