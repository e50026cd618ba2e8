/// What an xtoast process publishes about itself on its ticket window (`_XTOAST_TICKET`), for
/// other xtoast processes: a few `key=value` lines of UTF-8. Any X client can write anything
/// there, so parsing checks everything and keeps only what it understands.
public struct Ticket: Equatable, Sendable {
    /// The protocol version this code writes and reads.
    public static let version = 1
    /// Larger property values are not read at all.
    public static let byteLimit = 4096
    /// Tags are names, not messages.
    public static let tagLimit = 256
    /// `--button` may be given this many times.
    public static let buttonLimit = 8
    /// The most notifications one toast stands for in a summary after quiet (`away-count=`).
    public static let awayCountLimit = 9999

    public var pid: Int
    public var tag: String?
    /// For a scheduled toast: when it is due, in seconds since 1970 (UTC).
    public var at: Int?
    /// For a stacked toast (`--stack`): the position it stacks at.
    public var stack: Position?
    /// Where the toast stands towards a pause (`xtoast --pause`), if anywhere.
    public var pause: PauseMark?
    /// The labels of its buttons (`--button`), for `xtoast --press LABEL`.
    public var buttons: [String] = []
    /// What it counts for in a summary after quiet (`away=`, `away-count=`): a toast that may
    /// end as part of "While you were away" once a pause, an inhibition, a locked screen or a
    /// film it waited for ends (see `AwaySummary`); nil: it shows as itself.
    public var away: Away?

    /// A toast's part of a summary after quiet: its application's name, and how many
    /// notifications it stands for (a burst's toast, "Signal · 3 new", stands for 3).
    public struct Away: Equatable, Sendable {
        public var name: String
        public var count: Int

        public init(_ name: String, count: Int = 1) {
            self.name = name
            self.count = count
        }
    }

    /// A ticket's word on a pause (`pause=`), for the toasts behind it (docs/protocol.md).
    public enum PauseMark: String, Sendable {
        /// Standing aside until the pause ends: toasts behind may pass it while the pause lasts.
        case held
        /// Going through the pause (an urgent toast), or past a toast standing aside for a
        /// fullscreen window: on screen, or about to decide whether it may be. Set before it
        /// looks, so that a held toast that looks later sees it.
        case through
        /// Standing aside for a fullscreen window (`--fullscreen delay`), in its place: toasts
        /// behind pass it, paused or not, until it looks again.
        case aside
        /// Back from standing aside (held or aside), waiting in its place again as any ticket
        /// does, with an `away=` name: the first of these whose turn comes may summarise the
        /// others (`AwaySummary`).
        case back
    }

    public init(pid: Int, tag: String?, at: Int? = nil, stack: Position? = nil, pause: PauseMark? = nil) {
        self.pid = pid
        self.tag = tag
        self.at = at
        self.stack = stack
        self.pause = pause
    }

    /// Whether a toast that came back from quiet may summarise this one: it has an `away=` name
    /// and is back, or still stands aside (it has not looked again yet).
    public var mayBeSummarised: Bool { away != nil && [.back, .held, .aside].contains(pause) }

    /// The property value: `v=1\npid=123\ntag=volume\n`.
    public var encoded: [UInt8] {
        var text = "v=\(Ticket.version)\npid=\(pid)\n"
        if let tag { text += "tag=\(tag)\n" }
        if let at { text += "at=\(at)\n" }
        if let stack { text += "stack=\(stack.rawValue)\n" }
        if let pause { text += "pause=\(pause.rawValue)\n" }
        for button in buttons { text += "button=\(button)\n" }
        if let away {
            text += "away=\(away.name)\n"
            if away.count != 1 { text += "away-count=\(away.count)\n" }
        }
        return Array(text.utf8)
    }

    /// Reads a property value; nil for anything malformed (wrong version, bad numbers, invalid
    /// UTF-8, control characters in the tag, too long).
    public init?(decoding bytes: some Collection<UInt8>) {
        guard bytes.count <= Ticket.byteLimit, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var version: Int?
        var pid: Int?
        var tag: String?
        var at: Int?
        var stack: Position?
        var pause: PauseMark?
        var buttons: [String] = []
        var away: String?
        var awayCount = 1
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            // By scalar, not by Character: a tag may start with a combining mark or a joiner,
            // which would fuse with the "=" into one Character and hide it.
            let scalars = line.unicodeScalars
            guard let equals = scalars.firstIndex(of: "=") else { return nil }
            let key = String(scalars[..<equals])
            let value = String(scalars[scalars.index(after: equals)...])
            switch key {
            case "v": version = Int(value)
            case "pid": pid = Int(value)
            case "tag":
                guard Ticket.isValidTag(value) else { return nil }
                tag = value
            case "at":
                guard let seconds = Int(value), seconds >= 0 else { return nil }
                at = seconds
            case "stack":
                guard let position = Position(rawValue: value) else { return nil }
                stack = position
            // A later version's word is no mark this version knows: the toast blocks as any.
            case "pause": pause = PauseMark(rawValue: value)
            // A label is a name as a tag is; more than a toast can have is garbage.
            case "button":
                guard Ticket.isValidTag(value), buttons.count < Ticket.buttonLimit else { return nil }
                buttons.append(value)
            case "away":
                guard Ticket.isValidTag(value) else { return nil }
                away = value
            case "away-count":
                guard let count = Int(value), (1...Ticket.awayCountLimit).contains(count) else { return nil }
                awayCount = count
            default: continue  // a later version's key: ignored, not fatal
            }
        }
        guard version == Ticket.version, let pid, pid > 0 else { return nil }
        self.init(pid: pid, tag: tag, at: at, stack: stack, pause: pause)
        self.buttons = buttons
        self.away = away.map { Away($0, count: awayCount) }
    }

    /// A tag is 1 to 256 bytes of UTF-8 without control characters (C0, DEL or C1): it is
    /// written one per line.
    public static func isValidTag(_ tag: String) -> Bool {
        !tag.isEmpty && tag.utf8.count <= tagLimit
            && !tag.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }
}

/// Commands one xtoast process sends another in a `_XTOAST_COMMAND` client message.
public enum RemoteCommand: Int, Sendable {
    /// Close the toast now (or drop it from the queue): outcome `dismissed`.
    case dismiss = 1
    /// A toast with the same tag has taken this one's place: outcome `replaced`.
    case replaced = 2
    /// A click from the keyboard (`xtoast --press`): `data.l[1]` is 0 for the toast itself, N
    /// for its button N (from 1). See `Press`.
    case press = 3
    /// The toast ends as one line of the summary the sender shows after quiet (it waited out a
    /// pause, a lock or a film with an `away=` name): outcome `summarised`, kept unseen in the
    /// history and the centre (`AwaySummary`).
    case summarised = 4
}

/// The FIFO of tickets, as stored in the root window's `_XTOAST_QUEUE` (format 32 window ids,
/// oldest first). Entries may be dead (their process is gone); they are skipped and pruned.
public enum TicketQueue {
    /// More entries than this mean someone wrote garbage: the list is cut.
    public static let entryLimit = 1024

    /// A list is read this far to be rewritten, so that a rewrite keeps the entries past
    /// `entryLimit` (more waiting toasts than that); anything longer is garbage.
    public static let rewriteLimit = 65536

    /// The queue without the `removed` entries, without 0, without duplicates, and cut at `limit`.
    ///
    /// A repeated id keeps its *last* place: the X server gives a new client the id range of
    /// one that left, so a new ticket can have the id of a dead entry still in the list, and
    /// its own place is where it was appended, at the end.
    public static func pruned(_ entries: [UInt], removing removed: Set<UInt>, limit: Int = entryLimit) -> [UInt] {
        var seen = Set<UInt>()
        let kept = entries.prefix(limit).reversed().filter { $0 != 0 && !removed.contains($0) && seen.insert($0).inserted }
        return kept.reversed()
    }

    /// The queue with `old` replaced by `new` in place (or `new` appended if `old` is absent).
    public static func replacing(_ old: UInt, with new: UInt, in entries: [UInt]) -> [UInt] {
        var result = pruned(entries, removing: [new])
        if let index = result.firstIndex(of: old) { result[index] = new } else { result.append(new) }
        return result
    }
}
