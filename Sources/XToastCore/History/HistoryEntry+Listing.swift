/// How `xtoast --history` prints an entry: one line for a person, or a JSON object for a script.
extension HistoryEntry {
    /// The ending of one kept from the screen by a rule (`popup = false`), in the history and
    /// the centre, and `--print-outcome`'s word for it.
    public static let quietEnding = "quiet"

    /// `when  how  [tag] title: text`, one inert line: what came from the file is escaped and
    /// bounded (`TerminalText.line`), a message's line breaks are spaces.
    public func line(when: String) -> String {
        var how = ending
        if let choice { how += " " + choice }
        if !shown { how += " (not shown)" }
        var what = tag.map { "[\($0)] " } ?? ""
        if let title { what += title + ": " }
        what += text
        let column = 10
        let padded = how.count < column ? how + String(repeating: " ", count: column - how.count) : how
        return when + "  " + TerminalText.line(padded) + "  " + TerminalText.line(what.split(separator: "\n").joined(separator: " "))
    }

    /// The entry as JSON (`--history --json`): `time` in seconds since 1970 (UTC).
    public var json: String {
        var object = JSONLine()
        object.add("time", time)
        object.add("ending", ending)
        object.add("choice", choice)
        object.add("shown", shown)
        object.add("title", title)
        object.add("text", text)
        object.add("tag", tag)
        object.add("icon", icon)
        object.add("progress", progress)
        object.add("buttons", buttons)
        object.add("action", action)
        object.add("markup", markup)
        object.add("preset", preset)
        return object.text
    }
}

/// What goes into the history when a toast ends.
extension HistoryEntry {
    /// Whether a toast that ended so is kept: one that showed, and one that never did because
    /// it was dropped (a fullscreen window) or dismissed while it waited (`--dismiss-all`,
    /// `--cancel-scheduled`) or summarised after quiet, so that nothing that came while the user
    /// was away is lost without a trace. A quick `--run` success that needed no toast, and a toast replaced
    /// by a newer one with its tag before it showed, are not.
    public static func isKept(_ outcome: Outcome, shown: Bool) -> Bool {
        if case .summarised = outcome { return true }
        return shown || outcome == .dropped || outcome == .dismissed
    }

    /// The entry for a toast with `content` that ended with `outcome`; `time`: when it showed,
    /// else when it ended.
    public init(content: ToastContent, settings: Configuration, outcome: Outcome, shown: Bool, time: Int) {
        self.init(time: time, ending: outcome.word(action: settings.action), shown: shown, text: content.message)
        if case .button(let index) = outcome, content.buttons.indices.contains(index) { choice = content.buttons[index] }
        title = content.title
        tag = settings.tag
        icon = content.icon?.description
        progress = content.progress?.description
        markup = content.markup
        buttons = content.buttons
        action = settings.action
        preset = settings.preset
    }
}
