/// The commands rules run as notifications come (`run = COMMAND ARGS…` in a `[rule NAME]`, as
/// dunst's `script` and mako's `on-notify`): part of the dispatcher's state. A command runs
/// beside the toasts, never holding them: at most `limit` at once (past that one is skipped,
/// with a warning), each for at most `time` seconds (then killed, with a warning); a command
/// that fails is one warning. What it is told comes in its environment (`environment(…)`).
public struct RuleCommands: Equatable, Sendable {
    /// A command running: its name for the warnings, and until when it may (nil: killed).
    public struct Running: Equatable, Sendable {
        public var name: String
        public var until: Double?
    }

    /// How a command ended.
    public enum End: Equatable, Sendable {
        /// Its status as a shell says it (128 + the signal's number for a signal).
        case status(Int32)
        /// It could not be started: why.
        case couldNotStart(String)
    }

    public private(set) var running: [Int: Running] = [:]
    private var next = 1

    public init() {}

    /// Starts `commands` for notification `id` (each with `environment` added to the service's):
    /// the dispatcher's effects.
    mutating func start(_ commands: [[String]], environment: [String], limits: Dispatcher.Limits, at now: Double) -> [Dispatcher.Effect] {
        commands.compactMap { command in
            guard let name = command.first else { return nil }
            guard running.count < limits.commands else {
                return .warn("a rule's command \"\(TerminalText.line(name))\" is not run: \(limits.commands) are running")
            }
            let id = next
            next += 1
            running[id] = Running(name: name, until: now + limits.commandTime)
            return .runCommand(id, command: command, environment: environment)
        }
    }

    /// Command `id` ended: a warning unless it succeeded.
    mutating func ended(_ id: Int, _ end: End, limits: Dispatcher.Limits) -> [Dispatcher.Effect] {
        guard let command = running.removeValue(forKey: id) else { return [] }
        let name = TerminalText.line(command.name)
        guard command.until != nil else {
            return [.warn("a rule's command \"\(name)\" ran over \(Int(limits.commandTime)) s and was killed")]
        }
        switch end {
        case .status(0): return []
        case .status(let status): return [.warn("a rule's command \"\(name)\" ended with status \(status)")]
        case .couldNotStart(let why): return [.warn("cannot run a rule's command \"\(name)\": \(why)")]
        }
    }

    /// Kills the commands past their time at `now`.
    mutating func tick(at now: Double) -> [Dispatcher.Effect] {
        running.keys.sorted().compactMap { id in
            guard let until = running[id]?.until, now >= until else { return nil }
            running[id]?.until = nil
            return .killCommand(id)
        }
    }

    /// Kills every command: the service ends.
    mutating func killAll() -> [Dispatcher.Effect] {
        running.keys.sorted().map { id in
            running[id]?.until = nil
            return .killCommand(id)
        }
    }

    /// When the next command's time is up.
    var deadline: Double? { running.values.compactMap(\.until).min() }

    /// What a command is told, as `NAME=value` environment entries: `XTOAST_ID`, `XTOAST_APP`,
    /// `XTOAST_SUMMARY`, `XTOAST_BODY` (plain text, cut), `XTOAST_URGENCY` and `XTOAST_CATEGORY`.
    /// No value holds a NUL (D-Bus strings cannot).
    public static func environment(id: UInt32, request: NotificationRequest, urgency: String) -> [String] {
        [
            "XTOAST_ID=\(id)", "XTOAST_APP=\(String(request.appName.prefix(NotificationToast.sourceLimit)))",
            "XTOAST_SUMMARY=\(String(request.summary.prefix(NotificationToast.summaryLimit)))",
            "XTOAST_BODY=\(String(NotificationMarkup.plain(request.body).prefix(bodyLimit)))", "XTOAST_URGENCY=\(urgency)",
            "XTOAST_CATEGORY=\(String((request.hints.category ?? "").prefix(NotificationToast.sourceLimit)))",
        ].map { String($0.unicodeScalars.filter { $0 != "\0" }.map(Character.init)) }
    }

    /// Characters of the body a command is told.
    static let bodyLimit = 4096
    /// Commands a notification runs at most (the matching rules' first ones).
    static let perNotification = 4
}

/// A rule's command line: words split as a shell splits them (spaces; 'single' and "double"
/// quotes; a backslash), but never given to a shell: `run = sh -c '…'` is how to ask for one.
public enum CommandWords {
    /// The longest command line a rule may give, in bytes, and its most words.
    static let byteLimit = 4096
    static let wordLimit = 64

    /// The words of `text`; nil when a quote is not closed, a backslash ends it, or it is empty
    /// or past the bounds.
    public static func split(_ text: String) -> [String]? {
        guard text.utf8.count <= byteLimit else { return nil }
        var words: [String] = []
        var word: String?
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word = (word ?? "") + String(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == "\\" {
                escaped = true
            } else if character.isWhitespace {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        guard quote == nil, !escaped else { return nil }
        if let done = word { words.append(done) }
        guard !words.isEmpty, words.count <= wordLimit else { return nil }
        return words
    }
}
