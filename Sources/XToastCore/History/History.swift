/// One toast in the history (`xtoast --history`): what it said and how it ended, enough to
/// show it again as it was (`--reshow`).
public struct HistoryEntry: Equatable, Sendable {
    /// When it showed (or ended, if it never did), in seconds since 1970 (UTC).
    public var time: Int
    /// The word `--print-outcome` prints for its end: expired, clicked, action, button,
    /// replaced, dismissed or dropped.
    public var ending: String
    /// The label of the button that ended it.
    public var choice: String?
    /// Whether it was on screen at all (a dropped or cancelled one was not).
    public var shown: Bool
    public var text: String
    public var title: String?
    public var tag: String?
    public var icon: String?
    public var progress: String?
    public var markup = false
    public var buttons: [String] = []
    public var action = false
    public var preset: String?
    /// Whether an application's notification showed it (the notification service's toast, or
    /// one of a burst): the centre lists those from the store of kept notifications instead.
    public var notification = false

    public init(time: Int, ending: String, shown: Bool, text: String) {
        self.time = time
        self.ending = ending
        self.shown = shown
        self.text = text
    }

    /// The command line that shows it again as it was (`--reshow`), without the program's name.
    public var arguments: [String] {
        var arguments: [String] = []
        if let preset { arguments += ["--preset", preset] }
        if let title { arguments += ["--title", title] }
        if let icon { arguments += ["--icon", icon] }
        if let progress { arguments += ["--progress", progress] }
        if markup { arguments.append("--markup") }
        if let tag { arguments += ["--tag", tag] }
        for button in buttons { arguments += ["--button", button] }
        if action { arguments.append("--action") }
        return arguments + ["--", text]
    }
}

/// The history's storage: one entry a line of `key=value` fields separated by tabs, oldest
/// first, values with `\\`, `\t`, `\n` and `\r` escaped. The file is the user's own, but it is
/// read as hostile input all the same (a crash mid-write, a disk full, an editor): lines that do
/// not read are skipped, and everything is bounded.
///
/// Writing is decided here, without I/O (`recording`): an entry is appended while the file is
/// clean and small, and every so often the file is written anew with the newest `countLimit`
/// entries, so that it never grows past `byteLimit` however many toasts come.
public enum HistoryStore {
    /// Entries kept: `--history` lists at most this many.
    public static let countLimit = 50
    /// A line longer than this is garbage; an entry's text and title are cut to fit.
    public static let lineByteLimit = 16 * 1024
    /// The file is read this far (its end, the newest entries) and never written past it.
    public static let byteLimit = 256 * 1024
    /// Characters of a message kept; a toast never shows more than a few lines of it.
    public static let textLimit = 2048

    /// What a file holds: its entries oldest first, and how many lines did not read.
    public struct Contents: Equatable, Sendable {
        public var entries: [HistoryEntry] = []
        public var garbage = 0

        public init(entries: [HistoryEntry] = [], garbage: Int = 0) {
            self.entries = entries
            self.garbage = garbage
        }
    }

    /// Reads the file's bytes; `cut`: they are the end of a longer file (the first line may be
    /// a part of one, and is skipped).
    public static func read(_ bytes: some Collection<UInt8>, cut: Bool = false) -> Contents {
        var contents = Contents()
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)[...]
        if cut, !lines.isEmpty { lines = lines.dropFirst() }
        for line in lines {
            if let entry = decode(line) { contents.entries.append(entry) } else { contents.garbage += 1 }
        }
        return contents
    }

    /// How to record `entry` in a file that holds `bytes` (`cut`: the end of a longer one).
    public enum Write: Equatable, Sendable {
        /// Add these bytes at the end.
        case append([UInt8])
        /// Write the file anew with these bytes.
        case replace([UInt8])
    }

    /// Records `entry`: appended while the file is clean and under its bounds; else the file is
    /// written anew with the newest entries. An entry with a tag takes the place of the older
    /// ones with that tag (a volume key's toasts are one entry, as they are one toast on screen).
    public static func recording(_ entry: HistoryEntry, in bytes: [UInt8], cut: Bool = false) -> Write {
        let line = encode(entry)
        let clean = !cut && (bytes.isEmpty || bytes.last == UInt8(ascii: "\n"))
        if clean && bytes.count + line.count <= byteLimit / 2 && takesAnother(entry, bytes) { return .append(line) }
        let contents = read(bytes, cut: cut)
        var kept = Array(contents.entries.filter { entry.tag == nil || $0.tag != entry.tag }.suffix(countLimit - 1)) + [entry]
        var written = kept.flatMap(encode)
        while written.count > byteLimit / 2, kept.count > 1 {
            kept.removeFirst()
            written = kept.flatMap(encode)
        }
        return .replace(written)
    }

    /// Whether a clean file's lines all read, are fewer than `2 * countLimit`, and none has
    /// `entry`'s tag. One line is decoded at a time and none is kept: most toasts append, and
    /// the decoded entries of a full file were as large again as the file at the toast's end.
    private static func takesAnother(_ entry: HistoryEntry, _ bytes: [UInt8]) -> Bool {
        var count = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard count < 2 * countLimit - 1, let old = decode(line), entry.tag == nil || old.tag != entry.tag else { return false }
            count += 1
        }
        return true
    }

    /// The newest entries first, at most `countLimit`: what `--history` lists.
    public static func newestFirst(_ contents: Contents) -> [HistoryEntry] {
        Array(contents.entries.suffix(countLimit).reversed())
    }

    // MARK: The line format

    /// One line, newline included, at most `lineByteLimit` bytes (the text and title are cut).
    public static func encode(_ entry: HistoryEntry) -> [UInt8] {
        var entry = entry
        entry.text = String(entry.text.prefix(textLimit))
        while true {
            let line = Array(fields(of: entry).utf8) + [UInt8(ascii: "\n")]
            guard line.count > lineByteLimit, !entry.text.isEmpty else { return line }
            // Many bytes per character (combining marks): cut until it fits.
            entry.text = String(entry.text.prefix(entry.text.count / 2))
            entry.title = entry.title.map { String($0.prefix(256)) }
        }
    }

    private static func fields(of entry: HistoryEntry) -> String {
        var fields = ["t=\(entry.time)", "end=\(escape(entry.ending))", "shown=\(entry.shown ? 1 : 0)"]
        if let choice = entry.choice { fields.append("choice=\(escape(choice))") }
        if let title = entry.title { fields.append("title=\(escape(title))") }
        if let tag = entry.tag { fields.append("tag=\(escape(tag))") }
        if let icon = entry.icon { fields.append("icon=\(escape(icon))") }
        if let progress = entry.progress { fields.append("progress=\(escape(progress))") }
        if entry.markup { fields.append("markup=1") }
        fields += entry.buttons.map { "button=\(escape($0))" }
        if entry.action { fields.append("action=1") }
        if let preset = entry.preset { fields.append("preset=\(escape(preset))") }
        if entry.notification { fields.append("n=1") }
        fields.append("text=\(escape(entry.text))")
        return fields.joined(separator: "\t")
    }

    /// An entry from a line, nil when it does not read: too long, not UTF-8, a bad escape or
    /// number, no time, ending or text.
    static func decode(_ line: some Collection<UInt8>) -> HistoryEntry? {
        guard line.count <= lineByteLimit, let text = String(validating: line, as: UTF8.self) else { return nil }
        var values: [String: String] = [:]
        var buttons: [String] = []
        for field in text.split(separator: "\t", omittingEmptySubsequences: false) {
            guard let equals = field.unicodeScalars.firstIndex(of: "=") else { return nil }
            let key = String(field.unicodeScalars[..<equals])
            guard let value = unescape(Substring(field.unicodeScalars[field.unicodeScalars.index(after: equals)...])) else {
                return nil
            }
            if key == "button" {
                guard buttons.count < Ticket.buttonLimit else { return nil }
                buttons.append(value)
            } else {
                values[key] = value
            }
        }
        guard let time = values["t"].flatMap({ Int($0) }), time >= 0, let ending = values["end"], !ending.isEmpty,
            let message = values["text"], let shown = values["shown"], shown == "0" || shown == "1"
        else { return nil }
        var entry = HistoryEntry(time: time, ending: ending, shown: shown == "1", text: String(message.prefix(textLimit)))
        entry.choice = values["choice"]
        entry.title = values["title"]
        entry.tag = values["tag"]
        entry.icon = values["icon"]
        entry.progress = values["progress"]
        entry.markup = values["markup"] == "1"
        entry.buttons = buttons
        entry.action = values["action"] == "1"
        entry.preset = values["preset"]
        entry.notification = values["n"] == "1"
        return entry
    }

    static func escape(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return value }
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func unescape(_ value: Substring) -> String? {
        guard value.contains("\\") else { return String(value) }
        var result = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case "\\": result += "\\"
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: return nil
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return escaping ? nil : result
    }
}
