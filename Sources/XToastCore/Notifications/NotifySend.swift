/// xtoast invoked as `notify-send` (a link of that name): notify-send's command line, turned into
/// the closest xtoast command line, with no daemon. Scripts written for libnotify's notify-send
/// keep working: every command line libnotify 0.8's notify-send accepts is accepted and shown
/// (GLib's syntax: `-t 500`, `--expire-time=500`, `--expire-time 500`, grouped short options
/// whose values follow in order: `-eu low`), values it takes that xtoast's own options would
/// refuse are brought within them (a tag too long, a label with a line break, an expiry of
/// weeks), and what it refuses is refused with its status (1).
public enum NotifySend {
    /// What to do.
    public struct Invocation: Equatable, Sendable {
        public enum Mode: Equatable, Sendable { case show, help, version }
        public var mode: Mode
        /// The xtoast command line that shows the notification.
        public var arguments: [String] = []
        /// `-p`: the id to print, which a later `-r` names to replace this notification.
        public var printedID: Int?
        /// `-A`: the actions shown as buttons, `NAME=Text` or `Text` (named by its index among
        /// the `-A` options); the name of the one clicked is printed.
        public var actions: [(name: String, label: String)] = []
        /// Whether the caller waits (`-w`, or an action to answer); without, notify-send
        /// returns at once and so does this (`--detach`).
        public var waits = false
        /// What was left out, one warning each (an icon on another host): never a reason not to show.
        public var warnings: [String] = []

        public static func == (a: Invocation, b: Invocation) -> Bool {
            a.mode == b.mode && a.arguments == b.arguments && a.printedID == b.printedID && a.waits == b.waits
                && a.actions.map(\.name) == b.actions.map(\.name) && a.actions.map(\.label) == b.actions.map(\.label)
        }
    }

    /// The tag of notification `id`, for `-p` and `-r`.
    public static func tag(id: Int) -> String { "notify-send-\(id)" }

    /// The presets urgency levels map to: built in, and restyled by a `[critical]` section of
    /// the config file or `xtoast.critical.*` resources like any preset.
    public static let urgencies = ["low", "normal", "critical"]

    /// Reads notify-send's command line; `newID` is the id a notification gets when `-p` asks
    /// for one without `-r`.
    public static func invocation(_ arguments: [String], newID: Int) throws(OptionError) -> Invocation {
        let line = try CommandLine(arguments)
        var request = Request()
        for (name, value) in line.options { try request.apply(name, value) }
        var invocation = Invocation(mode: request.mode)
        invocation.warnings = request.warnings
        guard invocation.mode == .show else { return invocation }
        guard let summary = line.words.first, !summary.isEmpty else { throw OptionError("no summary given") }
        guard line.words.count <= 2 else { throw OptionError("too many words: give the summary and the body, each quoted") }
        invocation.waits = request.waits || !request.actions.isEmpty
        invocation.actions = request.actions
        if request.printsID { invocation.printedID = request.replaceID ?? newID }
        invocation.arguments = request.xtoastArguments(
            summary: summary, body: line.words.count == 2 ? line.words[1] : "", id: invocation.printedID, waits: invocation.waits)
        return invocation
    }

    /// `notify-send --help`.
    public static let help = """
        Usage: notify-send [OPTION…] <SUMMARY> [BODY]  (xtoast, without a notification daemon)

          -u, --urgency=LEVEL         low, normal or critical: the preset of that name (critical
                                      stays until clicked; restyle them in xtoast's config)
          -t, --expire-time=TIME      milliseconds to show (at most a day); 0: until clicked
          -a, --app-name=APP_NAME     not shown; the config file's rules match it (app)
          -i, --icon=ICON             an icon name or a file; one that cannot be read is left
                                      out, with a warning
          -c, --category=TYPE[,TYPE…] the config file's rules match it (category)
          -e, --transient             kept out of the history (xtoast --history)
          -h, --hint=TYPE:NAME:VALUE  int:value:N (a progress bar), string:x-dunst-stack-tag:T and
                                      string:x-canonical-private-synchronous:T (replace in place),
                                      string:image-path:P (the icon); others are ignored
          -p, --print-id              print the notification's id
          -r, --replace-id=ID         replace the notification with this id
          -w, --wait                  wait until it is closed
          -A, --action=[NAME=]Text    a button (up to 8); a click on it prints NAME
          -v, --version               the version
          -?, --help                  this help

        """
}

extension NotifySend {
    /// What the options asked for, as libnotify's notify-send reads them.
    struct Request {
        var mode = Invocation.Mode.show
        var urgency: String?
        var expireTime: Int?
        var icon: String?
        var progress: String?
        var tag: String?
        var replaceID: Int?
        var printsID = false
        var waits = false
        /// `-e` or the `transient` hint: kept out of the history.
        var transient = false
        /// `-a`: the rules' `app` (issue #30).
        var appName: String?
        /// `-c`: the rules' `category`.
        var category: String?
        var actions: [(name: String, label: String)] = []
        /// How many `-A` options were given: an action without a name is named by its index.
        var actionCount = 0
        var warnings: [String] = []

        mutating func apply(_ name: String, _ value: String?) throws(OptionError) {
            let value = value ?? ""
            switch name {
            case "urgency":
                guard let level = NotifySend.urgencies.first(where: { $0 == value.lowercased() }) else {
                    throw OptionError("invalid urgency \"\(value)\": expected low, normal or critical")
                }
                urgency = level
            case "expire-time": expireTime = try NotifySend.integer(value, option: "expire time")
            case "replace-id":
                // libnotify says a negative id is out of range and replaces nothing.
                let id = try NotifySend.integer(value, option: "replace id")
                replaceID = id > 0 ? id : nil
            case "icon": setIcon(value)
            case "hint": try apply(try NotifySend.Hint(value))
            case "action": addAction(value)
            case "print-id": printsID = true
            case "transient": transient = true
            case "wait": waits = true
            case "app-name": appName = value.isEmpty ? nil : value
            case "category": category = value.isEmpty ? nil : value
            case "version": mode = .version
            case "help": mode = .help
            default: break
            }
        }

        /// `-i` or `image-path`: a name or a path, a `file:` URI read as the path it names. A
        /// file on another host is left out with a warning (and an icon given before it stays),
        /// as a daemon shows a notification whose picture it cannot read.
        mutating func setIcon(_ text: String) {
            do throws(FileURI.Refusal) {
                icon = try FileURI.path(text)
            } catch {
                warnings.append("icon \"\(text)\": \(error.reason); showing the toast without it")
            }
        }

        /// `NAME=Text` or `Text`: a button, when the label leaves something to show (libnotify
        /// skips an empty one); at most `NotificationToast.buttonLimit` are shown.
        mutating func addAction(_ text: String) {
            defer { actionCount += 1 }
            let equals = text.firstIndex(of: "=")
            let name = equals.map { String(text[..<$0]) } ?? String(actionCount)
            let given = equals.map { String(text[text.index(after: $0)...]) } ?? text
            guard actions.count < NotificationToast.buttonLimit, let label = NotificationToast.label(given) else { return }
            actions.append((name, label))
        }

        /// The hints xtoast has a use for; the others are accepted and ignored.
        mutating func apply(_ hint: NotifySend.Hint) throws(OptionError) {
            switch (hint.name, hint.value) {
            case ("value", .number(let number)): progress = plain(min(max(number.rounded(), 0), 100))
            case ("x-dunst-stack-tag", _), ("x-canonical-private-synchronous", _), ("synchronous", _), ("private-synchronous", _):
                tag = NotifySend.tag(hint.text)
            case ("image-path", _), ("image_path", _): setIcon(hint.text)
            case ("urgency", .number(let level)): urgency = NotifySend.urgencies[min(Int(level), 2)]
            case ("transient", .number(let number)): transient = number != 0
            case ("transient", _): transient = hint.text.lowercased() == "true"
            case ("category", _): category = hint.text.isEmpty ? nil : hint.text
            default: break
            }
        }

        /// The xtoast command line: summary and body as a title over the message, as
        /// notification daemons draw them.
        func xtoastArguments(summary: String, body: String, id: Int?, waits: Bool) -> [String] {
            var xtoast = ["--preset", urgency ?? "normal", "--markup"]
            if let expireTime, expireTime >= 0 {
                // Weeks are accepted; a day is the longest xtoast holds a toast.
                let milliseconds = min(expireTime, Int(DisplayDuration.maximum * 1000))
                xtoast += ["--duration", milliseconds == 0 ? "sticky" : "\(milliseconds)ms"]
            }
            if let icon, !icon.isEmpty { xtoast += ["--icon", icon] }
            if let progress { xtoast += ["--progress", progress] }
            if let tag = tag ?? (replaceID ?? id).map(NotifySend.tag(id:)) { xtoast += ["--tag", tag] }
            for action in actions { xtoast += ["--button", action.label] }
            if transient { xtoast.append("--no-history") }
            if let appName { xtoast += ["--app", appName] }
            if let category { xtoast += ["--category", category] }
            if !waits { xtoast += ["--detach"] }
            // The text is markup: a lone "-" written as a character reference, so that xtoast
            // does not read it as "standard input".
            let message = body.isEmpty ? summary : body
            let words = message == "-" ? ["&#45;"] : [message]
            return xtoast + (body.isEmpty ? [] : ["--title", summary]) + ["--"] + words
        }
    }
}
