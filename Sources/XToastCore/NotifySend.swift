/// xtoast invoked as `notify-send` (a link of that name): notify-send's command line, turned into
/// the closest xtoast command line, with no daemon. Scripts written for libnotify's notify-send
/// keep working: the same command lines are accepted (GLib's syntax: `-t 500`,
/// `--expire-time=500`, `--expire-time 500`, grouped short options whose values follow in order:
/// `-eu low`), and options with no meaning here are accepted and ignored.
public enum NotifySend {
    /// What to do.
    public struct Invocation: Equatable, Sendable {
        public enum Mode: Equatable, Sendable { case show, help, version }
        public var mode: Mode
        /// The xtoast command line that shows the notification.
        public var arguments: [String] = []
        /// `-p`: the id to print, which a later `-r` names to replace this notification.
        public var printedID: Int?
        /// `-A`: the actions, `NAME=Text` or `Text` (named by its index), shown as buttons; the
        /// name of the one clicked is printed.
        public var actions: [(name: String, label: String)] = []
        /// Whether the caller waits (`-w`, or an action to answer); without, notify-send
        /// returns at once and so does this (`--detach`).
        public var waits = false

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
        var invocation = Invocation(mode: .show)
        var words: [String] = []
        var urgency: String?
        var expireTime: Int?
        var icon: String?
        var progress: String?
        var tag: String?
        var replaceID: Int?
        var printsID = false
        var transient = false
        var index = 0

        /// The options that take a value, long name by short letter.
        let valued: [Character: String] = [
            "u": "urgency", "t": "expire-time", "a": "app-name", "i": "icon", "c": "category", "h": "hint", "r": "replace-id",
            "A": "action",
        ]
        let flags: [Character: String] = ["e": "transient", "p": "print-id", "w": "wait", "v": "version", "?": "help"]

        func apply(_ name: String, _ value: String?) throws(OptionError) {
            switch name {
            case "urgency":
                guard let value, urgencies.contains(value.lowercased()) else {
                    throw OptionError("invalid urgency \"\(value ?? "")\": expected low, normal or critical")
                }
                urgency = value.lowercased()
            case "expire-time":
                guard let value, let milliseconds = Int(value) else {
                    throw OptionError("invalid expire time \"\(value ?? "")\": expected milliseconds")
                }
                expireTime = milliseconds
            case "icon": icon = value.map(fileURLPath)
            case "hint": try hint(value ?? "")
            case "replace-id":
                guard let value, let id = Int(value), id >= 0 else { throw OptionError("invalid replace id \"\(value ?? "")\"") }
                replaceID = id
            case "action":
                let text = value ?? ""
                let equals = text.firstIndex(of: "=")
                let name = equals.map { String(text[..<$0]) } ?? String(invocation.actions.count)
                let label = equals.map { String(text[text.index(after: $0)...]) } ?? text
                invocation.actions.append((name, label))
            case "print-id": printsID = true
            case "transient": transient = true
            case "wait": invocation.waits = true
            case "version": invocation.mode = .version
            case "help": invocation.mode = .help
            default: break  // app-name, category: nothing to do without a daemon
            }
        }

        /// `TYPE:NAME:VALUE`, as notify-send checks it; the names xtoast understands are used.
        func hint(_ text: String) throws(OptionError) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { throw OptionError("invalid hint \"\(text)\": expected TYPE:NAME:VALUE") }
            let (type, name, value) = (parts[0], parts[1], parts[2])
            guard ["int", "double", "string", "byte", "boolean", "variant"].contains(type) else {
                throw OptionError("invalid hint type \"\(type)\": expected int, double, string, byte, boolean or variant")
            }
            switch name {
            case "value" where type == "int" || type == "double":
                guard let number = Double(value), number.isFinite else { throw OptionError("invalid hint value \"\(value)\"") }
                progress = plain(min(max(number.rounded(), 0), 100))
            case "x-dunst-stack-tag", "x-canonical-private-synchronous", "synchronous", "private-synchronous":
                tag = value
            case "image-path", "image_path":
                icon = fileURLPath(value)
            case "urgency" where type == "byte" || type == "int":
                guard let level = Int(value), urgencies.indices.contains(level) else {
                    throw OptionError("invalid urgency hint \"\(value)\"")
                }
                urgency = urgencies[level]
            default: break
            }
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                words += arguments[index...]
                break
            } else if argument.hasPrefix("--") && argument.count > 2 {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let given = name.count < body.count ? String(body.dropFirst(name.count + 1)) : nil
                if valued.values.contains(name) {
                    guard let value = given ?? (index < arguments.count ? arguments[index] : nil) else {
                        throw OptionError("missing value for '--\(name)'")
                    }
                    if given == nil { index += 1 }
                    try apply(name, value)
                } else if flags.values.contains(name) {
                    try apply(name, nil)
                } else {
                    throw OptionError("unknown option '--\(name)'")
                }
            } else if argument.hasPrefix("-") && argument.count > 1 {
                // GLib's short options: grouped letters, each option that takes a value takes
                // the next argument (`-t500` is -t, -5, -0, -0, as GLib reads it).
                for letter in argument.dropFirst() {
                    if let name = flags[letter] {
                        try apply(name, nil)
                    } else if let name = valued[letter] {
                        guard index < arguments.count else { throw OptionError("missing value for '-\(letter)'") }
                        index += 1
                        try apply(name, arguments[index - 1])
                    } else {
                        throw OptionError("unknown option '-\(letter)'")
                    }
                }
            } else {
                words.append(argument)
            }
        }
        guard invocation.mode == .show else { return invocation }
        guard let summary = words.first, !summary.isEmpty else { throw OptionError("no summary given") }
        guard words.count <= 2 else { throw OptionError("too many words: give the summary and the body, each quoted") }

        // Summary and body: a title over the message, as notification daemons draw them.
        var xtoast = ["--preset", urgency ?? "normal", "--markup"]
        if let expireTime, expireTime >= 0 {
            xtoast += ["--duration", expireTime == 0 ? "sticky" : "\(expireTime)ms"]
        }
        if let icon, !icon.isEmpty { xtoast += ["--icon", icon] }
        if let progress { xtoast += ["--progress", progress] }
        if let replaceID { tag = tag ?? Self.tag(id: replaceID) }
        if printsID {
            let id = replaceID ?? newID
            invocation.printedID = id
            tag = tag ?? Self.tag(id: id)
        }
        if let tag { xtoast += ["--tag", tag] }
        if !invocation.actions.isEmpty {
            invocation.waits = true
            for action in invocation.actions.prefix(8) { xtoast += ["--button", action.label.isEmpty ? action.name : action.label] }
        }
        if transient { xtoast.append("--no-history") }
        if !invocation.waits { xtoast += ["--detach"] }
        if words.count == 2 && !words[1].isEmpty { xtoast += ["--title", summary, "--", words[1]] } else { xtoast += ["--", summary] }
        invocation.arguments = xtoast
        return invocation
    }

    /// `file:///path` as a path; anything else as it is.
    static func fileURLPath(_ text: String) -> String {
        text.hasPrefix("file://") ? String(text.dropFirst("file://".count)) : text
    }

    /// `notify-send --help`.
    public static let help = """
        Usage: notify-send [OPTION…] <SUMMARY> [BODY]  (xtoast, without a notification daemon)

          -u, --urgency=LEVEL         low, normal or critical: the preset of that name (critical
                                      stays until clicked; restyle them in xtoast's config)
          -t, --expire-time=TIME      milliseconds to show; 0: until clicked
          -a, --app-name=APP_NAME     accepted, not shown
          -i, --icon=ICON             an icon name or a file
          -c, --category=TYPE[,TYPE…] accepted, not used
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
