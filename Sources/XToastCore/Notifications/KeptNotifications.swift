/// The store of notifications kept after their toasts (the spec's `persistence`): one file per
/// notification, named by its id, in a folder of the user's own under `$XDG_RUNTIME_DIR`, so
/// that a service started again (the bus starts one for a `--press` after the last one left)
/// knows what the last one kept, and `--list` and the centre read it without a service.
///
/// A file is one line of `key=value` fields separated by tabs, values escaped as the history's
/// are. The folder is the user's own, but its files are read as hostile input all the same
/// (a crash mid-write, an editor, another program of the user's): a file that does not read
/// is skipped, everything is bounded, and a toast's command line shown again from it can only
/// hold the options the service itself writes.
public enum KeptNotifications {
    /// A file longer than this is garbage: the service's own command lines stay below it.
    public static let fileByteLimit = NotificationChild.argumentsByteLimit + 64 * 1024
    /// Files read at most: far above the dispatcher's bound of kept notifications.
    public static let fileCountLimit = 20_000

    /// The file's bytes for `notification`.
    public static func encode(_ notification: Dispatcher.Notification) -> [UInt8] {
        let toast = notification.toast
        var fields = [
            "id=\(notification.id)", "t=\(notification.time)", "expired=\(toast.whenExpired.rawValue)",
            "acted=\(toast.whenActed.rawValue)", "tag=\(escape(toast.tag))", "app=\(escape(toast.app))",
            "summary=\(escape(toast.summary))", "body=\(escape(toast.body))",
        ]
        if let picture = notification.picture { fields.append("picture=\(escape(picture))") }
        if toast.hasDefaultAction { fields.append("default=1") }
        for (key, label) in zip(toast.buttonKeys, toast.labels) { fields += ["key=\(escape(key))", "label=\(escape(label))"] }
        fields += toast.arguments.map { "arg=\(escape($0))" }
        return Array(fields.joined(separator: "\t").utf8) + [UInt8(ascii: "\n")]
    }

    /// The notification in a file's bytes, nil when they do not read: too long, not UTF-8, a
    /// field missing or out of bounds, or a command line with an option the service never writes.
    public static func decode(_ bytes: [UInt8]) -> Dispatcher.Notification? {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
        guard line.count <= fileByteLimit, !line.contains(UInt8(ascii: "\n")),
            let text = String(validating: line, as: UTF8.self)
        else { return nil }
        var values: [String: String] = [:]
        var keys: [String] = []
        var labels: [String] = []
        var arguments: [String] = []
        for field in text.split(separator: "\t", omittingEmptySubsequences: false) {
            guard let equals = field.unicodeScalars.firstIndex(of: "="),
                let value = HistoryStore.unescape(Substring(field.unicodeScalars[field.unicodeScalars.index(after: equals)...]))
            else { return nil }
            switch String(field.unicodeScalars[..<equals]) {
            case "key": keys.append(value)
            case "label": labels.append(value)
            case "arg": arguments.append(value)
            case let key: values[key] = value
            }
        }
        guard let id = values["id"].flatMap({ UInt32($0) }), id > 0, let time = values["t"].flatMap({ Int($0) }), time >= 0,
            let expired = values["expired"].flatMap(NotificationToast.Keeping.init(rawValue:)),
            let acted = values["acted"].flatMap(NotificationToast.Keeping.init(rawValue:)),
            let tag = values["tag"], Ticket.isValidTag(tag), let app = values["app"], let summary = values["summary"],
            let body = values["body"], keys.count == labels.count, keys.count <= NotificationToast.buttonLimit,
            labels.allSatisfy({ NotificationToast.label($0) == $0 }), isOurs(arguments)
        else { return nil }
        let toast = NotificationToast(
            arguments: arguments, tag: tag, buttonKeys: keys, labels: labels, hasDefaultAction: values["default"] == "1",
            app: app, summary: summary, body: body, whenExpired: expired, whenActed: acted)
        return Dispatcher.Notification(id: id, toast: toast, time: time, picture: values["picture"])
    }

    /// Whether `arguments` is a command line the service could have written: its own options
    /// and the look's (a rule's settings), then `--` and the message. Nothing that runs, reads
    /// or writes anything else (`--run`, `--stdin`, `--history`…) passes.
    static func isOurs(_ arguments: [String]) -> Bool {
        guard let end = arguments.firstIndex(of: "--"), end == arguments.count - 2 else { return false }
        var index = 0
        while index < end {
            let word = arguments[index]
            guard word.hasPrefix("--") else { return false }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            guard let definition = OptionTable.named(name), definition.scope == .look || serviceOptions.contains(name) else {
                return false
            }
            // A value in the next word, unless it came after "=" or the option takes none.
            index += definition.isFlag || word.contains("=") ? 1 : 2
        }
        return index == end
    }

    /// The options of an invocation's scope that `NotificationToast` writes.
    static let serviceOptions: Set<String> = [
        "print-outcome", "preset", "tag", "markup", "app", "title", "no-history", "button", "action", "reply", "reply-placeholder",
        "burst",
    ]

    private static func escape(_ value: String) -> String { HistoryStore.escape(value) }

    // MARK: What has been read

    /// The name of the store's read marker: the id up to which its notifications have been
    /// read, as decimal digits and a newline. Not a number, so the store never takes it for a
    /// notification. Ids only grow (the service counts them in a file of the session's), so
    /// "up to an id" is "everything that came before", whatever was closed meanwhile.
    public static let readMarkerName = "read-up-to"

    /// The id a read marker's bytes name; 0 (nothing read) for anything but up to ten ASCII
    /// digits naming an id, with or without a newline: the file is read as hostile input.
    public static func readMarker(_ bytes: [UInt8]) -> UInt32 {
        var digits = bytes[...]
        if digits.last == UInt8(ascii: "\n") { digits = digits.dropLast() }
        guard (1...10).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return 0
        }
        return UInt32(String(decoding: digits, as: UTF8.self)) ?? 0
    }

    /// A read marker's bytes for `id`.
    public static func readMarker(upTo id: UInt32) -> [UInt8] { Array("\(id)\n".utf8) }

    /// The marker to write once `ids` have been shown to the user, when it moves forward
    /// (`marker` is the one there); nil: nothing new was read.
    public static func readMarker(after ids: [UInt32], marker: UInt32) -> UInt32? {
        guard let newest = ids.max(), newest > marker else { return nil }
        return newest
    }

    // MARK: Listing

    /// Newest first, then by id: the order `--list` and the centre show them in.
    public static func newestFirst(_ notifications: [Dispatcher.Notification]) -> [Dispatcher.Notification] {
        notifications.sorted { ($0.time, $0.id) > ($1.time, $1.id) }
    }

    /// `--list`'s lines for kept notifications: `kept  id 7  18:02  Firefox: title — text
    /// buttons: Open`, each one line for a terminal, its text cut.
    public static func lines(_ notifications: [Dispatcher.Notification], time: (Int) -> String) -> [String] {
        newestFirst(notifications).map { notification in
            let toast = notification.toast
            var line = "kept".padding(to: 10) + " id \(notification.id)  " + time(notification.time) + "  "
            if !toast.app.isEmpty { line += toast.app + ": " }
            line += String(text(of: toast).prefix(listedText))
            if !toast.labels.isEmpty { line += "  buttons: " + toast.labels.joined(separator: ", ") }
            return TerminalText.line(line)
        }
    }

    /// `--list --json`'s objects for kept notifications.
    public static func json(_ notifications: [Dispatcher.Notification]) -> [String] {
        newestFirst(notifications).map { notification in
            var object = JSONLine()
            object.add("state", "kept")
            object.add("id", Int(notification.id))
            object.add("time", notification.time)
            object.add("app", notification.toast.app)
            object.add("summary", notification.toast.summary)
            object.add("body", NotificationMarkup.plain(notification.toast.body))
            object.add("buttons", notification.toast.labels)
            object.add("default-action", notification.toast.hasDefaultAction)
            return object.text
        }
    }

    /// Characters of a notification's text on its `--list` line.
    static let listedText = 200

    /// The summary and the body, as one line of plain text.
    static func text(of toast: NotificationToast) -> String {
        let body = NotificationMarkup.plain(toast.body).split(whereSeparator: \.isNewline).joined(separator: " ")
        switch (toast.summary.isEmpty, body.isEmpty) {
        case (false, false): return toast.summary + " — " + body
        case (false, true): return toast.summary
        default: return body
        }
    }
}

extension NotificationToast {
    /// A toast as the store read it.
    init(
        arguments: [String], tag: String, buttonKeys: [String], labels: [String], hasDefaultAction: Bool, app: String,
        summary: String, body: String, whenExpired: Keeping, whenActed: Keeping
    ) {
        (self.arguments, self.tag, self.buttonKeys, self.labels, self.hasDefaultAction) =
            (arguments, tag, buttonKeys, labels, hasDefaultAction)
        (self.app, self.summary, self.body, self.whenExpired, self.whenActed) = (app, summary, body, whenExpired, whenActed)
        group = nil
    }
}

extension HistoryEntry {
    /// The history's entry for a notification a burst replaced (`shown`: on screen, else before
    /// it showed).
    public init(replaced notification: Dispatcher.Notification, shown: Bool = false) {
        self.init(notification, ending: "replaced", shown: shown)
    }

    /// The history's entry for a notification that ended `ending` (`shown`: on screen).
    public init(_ notification: Dispatcher.Notification, ending: String, shown: Bool) {
        let toast = notification.toast
        let hasBody = !toast.body.allSatisfy(\.isWhitespace)
        self.init(
            time: notification.time, ending: ending, shown: shown,
            // The history keeps this much of a text: no more is held for it.
            text: String(
                (hasBody ? toast.body : NotificationMarkup.escape(toast.summary.isEmpty ? toast.app : toast.summary))
                    .prefix(HistoryStore.textLimit)))
        title = hasBody && !toast.summary.isEmpty ? NotificationMarkup.escape(toast.summary) : nil
        markup = true
        buttons = toast.labels
        action = toast.hasDefaultAction
        self.notification = true
    }
}
