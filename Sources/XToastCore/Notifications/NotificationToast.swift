/// A notification as an xtoast command line: the service runs one `xtoast` per notification,
/// an ordinary toast in the display's queue, and reads how it ended from `--print-outcome`.
public struct NotificationToast: Equatable, Sendable {
    /// The arguments after the program's name.
    public var arguments: [String]
    /// The tag the toast has: a later notification with the same id (or stack tag) replaces it.
    public var tag: String
    /// The key of each `--button`, in order.
    public var buttonKeys: [String]
    /// Whether a click on the body is the `default` action.
    public var hasDefaultAction: Bool
    /// The label of each button, as the toast prints it.
    public var labels: [String]
    /// The application's name, the summary (plain text) and the body (markup, sanitised), each
    /// cut as the toast shows them: what the centre and `--list` say of it.
    public var app: String
    public var summary: String
    public var body: String
    /// The burst it may join (its application's name, without case): a notification of the same
    /// group that comes while this one's toast shows or waits takes its place, one toast counting
    /// them. Nil for one that must show as itself: with a stack tag (the application replaces it
    /// in place itself), critical, transient, or from no named application.
    public var group: String?
    /// What becomes of the notification when its toast's time is up: kept (the spec's
    /// `persistence`: in the centre, its actions still reaching the application) when the server
    /// chose the time; closed as `expired` when the application gave a time of its own (the spec:
    /// it "should automatically close" then) or said it is `transient`.
    public var whenExpired: Keeping
    /// What becomes of it once an action is taken: closed, or kept when it is `resident` (the
    /// spec: it stays until the user or the application removes it).
    public var whenActed: Keeping
    /// Whether it shows as it comes, or the rules send it to the centre unseen or drop it.
    public var arrival = NotificationRule.Arrival.shown
    /// The matching rules' commands (`run = …`), and what they are told in their environment.
    public var commands: [[String]] = []
    public var commandEnvironment: [String] = []

    /// Kept after its toast, or closed.
    public enum Keeping: String, Equatable, Sendable {
        case kept, closed
    }

    /// How a toast's end leaves its notification.
    public enum End: Equatable, Sendable {
        /// Kept after its toast.
        case kept
        /// Closed: `NotificationClosed` with this reason.
        case closed(NotificationClosedReason)
    }

    /// Buttons shown at most (the command's own bound): more actions are left out.
    public static let buttonLimit = 8
    /// A summary longer than this is cut before it is sent on.
    public static let summaryLimit = 200
    /// A button label longer than this is cut.
    public static let labelLimit = 64
    /// An application's name or an origin longer than this is cut: a site's name that needs
    /// more is hiding something (Chromium shortens longer origins to the registered domain).
    public static let sourceLimit = 64
    /// The longest `expire_timeout` honoured: the command's bound on --duration (a day).
    public static let longestTimeout: Int32 = 86_400_000

    /// The tag of notification `id`, when it has no stack tag.
    public static func tag(id: UInt32) -> String { "fdn-\(id)" }

    /// The urgency's preset name.
    public static func urgency(_ request: NotificationRequest) -> String {
        NotifySend.urgencies[min(max(request.hints.urgency ?? 1, 0), 2)]
    }

    /// The command line for notification `id` of `request`; `icon` is the icon to show, when the
    /// caller found one it can read (the image-data's file, image-path, app_icon); `rules` are
    /// the config file's.
    public init(id: UInt32, request: NotificationRequest, icon: String?, rules: [NotificationRule] = []) {
        let urgency = Self.urgency(request)
        let verdict = RuleVerdict(rules, on: request, urgency: urgency)
        let preset = verdict.preset ?? urgency
        let settings = verdict.settings.map(\.setting)
        (arrival, commands) = (verdict.arrival, verdict.commands)
        if !commands.isEmpty { commandEnvironment = RuleCommands.environment(id: id, request: request, urgency: urgency) }
        tag = request.hints.stackTag.flatMap { Ticket.isValidTag($0) ? $0 : nil } ?? Self.tag(id: id)
        let display = request.hints.displayAppName.map { Self.plainLine($0, limit: Self.sourceLimit) } ?? ""
        app = display.isEmpty ? Self.plainLine(request.appName, limit: Self.summaryLimit) : display
        var arguments = ["--print-outcome", "--preset", preset, "--tag", tag, "--markup"]
        // Its name in a summary after quiet (`Configuration.awayName`): one without shows as itself.
        if Ticket.isValidTag(app) { arguments += ["--app", app] }
        // The application's sound, before the rules' settings (a rule's `sound =` wins); none
        // for a transient one, or when it asks for none.
        if !request.hints.suppressSound, !request.hints.transient,
            let sound = (request.hints.soundFile.flatMap(Sound.init(parsing:)) ?? request.hints.soundName.flatMap(Sound.init(parsing:)))
        {
            arguments += ["--sound", sound.description]
        }
        for setting in settings {
            guard let definition = OptionTable.named(setting.key) else { continue }
            arguments += definition.isFlag ? ["--\(setting.key)=\(setting.value)"] : ["--\(setting.key)", setting.value]
        }
        switch request.expireTimeout {
        case ..<0: break  // the toast's own automatic duration (or the preset's)
        case 0: arguments += ["--duration", "sticky"]
        default: arguments += ["--duration", "\(min(request.expireTimeout, Self.longestTimeout))ms"]
        }
        if let icon { arguments += ["--icon", icon] }
        if let value = request.hints.value { arguments += ["--progress", String(value)] }

        let actions = Self.actions(of: request)
        arguments += actions.arguments
        if request.hints.transient { arguments.append("--no-history") }
        (buttonKeys, labels, hasDefaultAction) = (actions.keys, actions.labels, actions.hasDefault)
        whenExpired = request.expireTimeout < 0 && !request.hints.transient ? .kept : .closed
        whenActed = request.hints.resident && !request.hints.transient ? .kept : .closed

        let summary = Self.summary(of: request)
        let body = NotificationMarkup.sanitize(request.body)
        (self.summary, self.body) = (summary, body)
        arguments += Self.text(of: request, summary: summary, body: body)
        self.arguments = arguments
        let mustShowAlone = request.hints.stackTag != nil || urgency == "critical" || request.hints.transient || app.isEmpty
        group = mustShowAlone ? nil : app.lowercased()
    }

    /// The actions as the toast's options: they come in key, label pairs; "default" is a click
    /// on the body, `inline-reply` the reply button, the rest buttons (eight at most in all).
    static func actions(of request: NotificationRequest) -> (arguments: [String], keys: [String], labels: [String], hasDefault: Bool) {
        var arguments: [String] = []
        var keys: [String] = []
        var labels: [String] = []
        var hasDefault = false
        var pairs = request.actions.prefix(2 * 64)[...]
        // The spec's `inline-reply` is no button of the application's: it opens the entry, and
        // what is typed comes back as `NotificationReplied` (it takes one of the eight places).
        let reply = replyLabel(in: pairs)
        while pairs.count >= 2 {
            let key = pairs.removeFirst()
            let label = pairs.removeFirst()
            if key == "default" {
                hasDefault = true
                continue
            }
            guard key != replyAction, keys.count < buttonLimit - (reply == nil ? 0 : 1), !keys.contains(key),
                let text = self.label(label.isEmpty ? key : label), !labels.contains(text)
            else { continue }
            keys.append(key)
            labels.append(text)
            arguments += ["--button", text]
        }
        if let reply {
            arguments += ["--reply", reply]
            let placeholder = request.hints.replyPlaceholder.map { plainLine($0, limit: labelLimit * 2) } ?? ""
            if !placeholder.isEmpty { arguments += ["--reply-placeholder", placeholder] }
        }
        if hasDefault { arguments.append("--action") }
        return (arguments, keys, labels, hasDefault)
    }

    /// The action key of an inline reply (the spec's, and KDE's).
    public static let replyAction = "inline-reply"

    /// The reply button's label, when the actions hold an `inline-reply` ("Reply" when its label
    /// is empty or cannot be shown).
    static func replyLabel(in pairs: ArraySlice<String>) -> String? {
        var index = pairs.startIndex
        while index + 1 < pairs.endIndex {
            if pairs[index] == replyAction { return label(pairs[index + 1]) ?? "Reply" }
            index += 2
        }
        return nil
    }

    /// The text a toast's report says was replied, if it says so.
    public func reply(in report: NotificationChild.Report) -> String? {
        guard report.outcome.first == "replied", report.outcome.count > 1 else { return nil }
        return Self.plainLine(report.outcome[1], limit: ReplyDraft.limit)
    }

    /// This toast as the newest of a burst of `count` of its group: the title counts them
    /// ("Signal · 4 new"), the message is its own summary and body, and it takes `tag`, the tag
    /// of the toast it replaces in place (nil: its own).
    public func joining(count: Int, tag replaced: String? = nil) -> NotificationToast {
        var toast = self
        guard let end = arguments.lastIndex(of: "--") else { return self }
        var options = Array(arguments[..<end])
        for option in ["--title", "--burst"] {
            while let index = options.firstIndex(of: option), index + 1 < options.count { options.removeSubrange(index...(index + 1)) }
        }
        if let replaced, let index = options.firstIndex(of: "--tag"), index + 1 < options.count {
            options[index + 1] = replaced
            toast.tag = replaced
        }
        let hasBody = !body.allSatisfy(\.isWhitespace)
        let message = [NotificationMarkup.escape(summary), hasBody ? body : ""].filter { !$0.isEmpty }.joined(separator: "\n")
        toast.arguments =
            options + [
                // Counted so in a summary after quiet too.
                "--burst", String(min(count, Ticket.awayCountLimit)),
                "--title", NotificationMarkup.escape("\(app) · \(count) new"), "--",
                message.isEmpty ? NotificationMarkup.escape(app) : message,
            ]
        return toast
    }

    /// The summary as the title shows it: plain text, an origin (a browser's site) first.
    static func summary(of request: NotificationRequest) -> String {
        let origin = request.hints.originName.map { plainLine($0, limit: sourceLimit) } ?? ""
        return [origin, plainLine(request.summary, limit: summaryLimit)].filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// The title and message: summary over body, as daemons draw them; one of them alone is the
    /// message. The title is markup too under --markup: the summary is plain text, escaped. An
    /// origin (a browser's site) leads the title; with nothing else, the source is the message.
    static func text(of request: NotificationRequest, summary: String, body: String) -> [String] {
        let origin = request.hints.originName.map { plainLine($0, limit: sourceLimit) } ?? ""
        let hasBody = !body.allSatisfy(\.isWhitespace)
        switch (summary.isEmpty, hasBody) {
        case (false, true): return ["--title", NotificationMarkup.escape(summary), "--", body]
        case (false, false) where origin.isEmpty || summary != origin: return ["--", NotificationMarkup.escape(summary)]
        case (true, true): return ["--", body]
        case (_, false):
            // Something must show: where it comes from, or a word.
            return ["--", NotificationMarkup.escape(source(of: request) ?? "Notification")]
        }
    }

    /// Where a notification comes from, as shown: the application's name (its display name when
    /// it gives one), then the origin inside it; nil when it says neither.
    public static func source(of request: NotificationRequest) -> String? {
        let display = request.hints.displayAppName.map { plainLine($0, limit: sourceLimit) } ?? ""
        let name = display.isEmpty ? plainLine(request.appName, limit: sourceLimit) : display
        let origin = request.hints.originName.map { plainLine($0, limit: sourceLimit) } ?? ""
        let parts = [name, origin].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// What a toast's end means for the application: the action it invoked, if any, and what
    /// becomes of the notification. `report` is what the toast wrote (`--print-outcome`'s word,
    /// then a button's label); `closedByCall` says whether CloseNotification asked for the end.
    public func ending(_ report: NotificationChild.Report, closedByCall: Bool) -> (action: String?, end: End) {
        let lines = report.outcome
        switch lines.first ?? "" {
        case "expired": return (nil, closedByCall ? .closed(.closedByCall) : whenExpired.end(.expired))
        // One line of a summary after a lock: unseen, as one expired is.
        case "summarised": return (nil, closedByCall ? .closed(.closedByCall) : whenExpired.end(.expired))
        case "clicked": return (nil, .closed(.dismissed))
        case "action": return hasDefaultAction ? ("default", whenActed.end(.dismissed)) : (nil, .closed(.dismissed))
        case "button":
            guard lines.count > 1, let key = key(ofButton: lines[1]) else { return (nil, .closed(.dismissed)) }
            return (key, whenActed.end(.dismissed))
        case "dismissed": return (nil, .closed(closedByCall ? .closedByCall : .dismissed))
        // Answered as an action is: closed, or kept when resident.
        case "replied": return (nil, whenActed.end(.dismissed))
        default: return (nil, .closed(closedByCall ? .closedByCall : .undefined))  // replaced by another tag's toast, dropped, failed
        }
    }

    /// The action a press asks for: the default action (`label` nil), or the key of the button
    /// labelled `label`; nil when it has none.
    public func action(label: String?) -> String? {
        guard let label else { return hasDefaultAction ? "default" : nil }
        return key(ofButton: label)
    }

    /// The action key of the button labelled `label`.
    public func key(ofButton label: String) -> String? {
        labels.firstIndex(of: label).map { buttonKeys[$0] }
    }

    /// A label as `--button` takes it (1 to 64 characters, no control characters), nil when
    /// nothing is left.
    static func label(_ text: String) -> String? {
        let line = plainLine(text, limit: labelLimit)
        return line.isEmpty ? nil : line
    }

    /// One line of plain text: control characters and line breaks as spaces, trimmed, cut.
    static func plainLine(_ text: String, limit: Int) -> String {
        var line = ""
        for character in text.prefix(limit) {
            line.append(character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f } ? " " : character)
        }
        return line.trimmingCharacters
    }
}

extension NotificationToast.Keeping {
    /// Kept, or closed for `reason`.
    func end(_ reason: NotificationClosedReason) -> NotificationToast.End {
        self == .kept ? .kept : .closed(reason)
    }
}
