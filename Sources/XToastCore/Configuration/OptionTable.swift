/// One option, defined once: the command line, the config file, X resources, `--help`, the
/// man page, the shell completions and `--print-config` are all made from this.
public struct OptionDefinition: Sendable {
    /// Whether an option describes the toast (and may be set in the config file, X resources
    /// and presets), only this one call (command line only), or the notification service (its
    /// command line, or the config file's general part).
    public enum Scope: Sendable { case look, invocation, service }

    public let name: String
    public let short: Character?
    /// The placeholder of the value (`colour`); nil for a flag.
    public let value: String?
    public let scope: Scope
    public let help: String
    /// The compiled default, as it would be written; nil when there is none to show.
    public let defaultText: String?
    /// The words it takes, from the value's type: all of them for a closed set (`--position`),
    /// the keywords of an open one (`--monitor`'s, besides names and numbers), `true` and
    /// `false` for a setting that is a flag (`--stack=false`). Completions offer them and the
    /// docs list them; empty for free text and numbers.
    public let values: [String]
    /// A file name is a value too: completions offer files.
    public let takesFile: Bool
    /// Left out of `--help`, the man page and completions (tools for packagers).
    public let hidden: Bool
    /// A look option's value in a configuration, as it would be written (`--print-config`).
    public let current: (@Sendable (Configuration) -> String?)?
    let apply: @Sendable (inout Configuration, String) throws(OptionError) -> Void

    public var isFlag: Bool { value == nil }

    /// `--name <value>` as help texts show it.
    public var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let value { text += " <\(value)>" }
        return text
    }

    /// Applies a value (for a flag: "true", or a boolean word from a file) to `configuration`.
    public func apply(_ text: String, to configuration: inout Configuration) throws(OptionError) {
        try apply(&configuration, text)
    }

    init(
        _ name: String, short: Character? = nil, value: String? = nil, scope: Scope, help: String, default defaultText: String? = nil,
        values: [String] = [], takesFile: Bool = false, hidden: Bool = false, current: (@Sendable (Configuration) -> String?)? = nil,
        apply: @escaping @Sendable (inout Configuration, String) throws(OptionError) -> Void
    ) {
        self.values = values
        self.takesFile = takesFile
        self.current = current
        self.name = name
        self.short = short
        self.value = value
        self.scope = scope
        self.help = help
        self.defaultText = defaultText
        self.hidden = hidden
        self.apply = apply
    }
}

/// Every option xtoast has, in the order `--help` lists them.
public enum OptionTable {
    public static let all: [OptionDefinition] = [
        OptionDefinition(
            "duration", value: "time", scope: .look,
            help: "How long it stays, fades not counted: seconds (1.5, 1500ms), short (2), long (3.5), auto or sticky.",
            default: "auto", values: DisplayDuration.words, current: { $0.duration.description }
        ) { config, text throws(OptionError) in
            guard let duration = DisplayDuration(parsing: text) else {
                throw OptionError(
                    "invalid duration \"\(text)\": expected seconds (1.5, 1500ms, at most a day), short, long, auto or sticky")
            }
            config.duration = duration
        },
        OptionDefinition(
            "position", value: "where", scope: .look,
            help: "top, center, bottom, top-left, top-right, bottom-left or bottom-right.", default: Style.toast.position.rawValue,
            values: Position.allCases.map(\.rawValue), current: { $0.style.position.rawValue }
        ) { config, text throws(OptionError) in
            guard let position = Position(rawValue: text) else {
                throw OptionError("invalid position \"\(text)\": expected \(Position.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            config.style.position = position
        },
        OptionDefinition(
            "offset", value: "x,y", scope: .look, help: "Move the toast by X,Y logical pixels (x right, y down).", default: "0,0",
            current: { "\(plain($0.style.offset.x)),\(plain($0.style.offset.y))" }
        ) { config, text throws(OptionError) in
            guard let offset = Offset(parsing: text) else {
                throw OptionError("invalid offset \"\(text)\": expected X,Y in pixels, like 0,-40")
            }
            config.style.offset = offset
        },
        OptionDefinition(
            "monitor", value: "which", scope: .look,
            help: "pointer, focus (the active window's), primary, all, a RandR monitor name, or its index from 0.", default: "pointer",
            values: MonitorChoice.keywords.map(\.description), current: { $0.monitor.description }
        ) { config, text throws(OptionError) in
            guard let monitor = MonitorChoice(parsing: text) else {
                throw OptionError("invalid monitor \"\(text)\": expected pointer, focus, primary, all, a name or an index")
            }
            config.monitor = monitor
        },
        OptionDefinition(
            "fullscreen", value: "policy", scope: .look,
            help:
                "While a fullscreen window is on top of the toast's monitor: show, delay (until it is not), drop, or auto: show a --progress, --tag or --stdin toast (an OSD), delay others. The hud and critical presets show, low drops.",
            default: "auto", values: FullscreenChoice.allCases.map(\.description), current: { $0.style.fullscreen.description }
        ) { config, text throws(OptionError) in
            guard let choice = FullscreenChoice(parsing: text) else {
                throw OptionError("invalid fullscreen policy \"\(text)\": expected \(oneOf(FullscreenChoice.allCases.map(\.description)))")
            }
            config.style.fullscreen = choice
        },
        OptionDefinition(
            "idle", value: "seconds", scope: .look,
            help:
                "A toast that appears after this long without keyboard or pointer input waits for the user to come back, then holds what was left of its time; 0: never.",
            default: plain(Style.toast.idleThreshold), current: { plain($0.style.idleThreshold) }
        ) { config, text throws(OptionError) in config.style.idleThreshold = try number(text, "idle", 0...86_400) },
        OptionDefinition(
            "font", value: "font", scope: .look, help: "Pango font; the size is in logical pixels.", default: Style.toast.font,
            current: { $0.style.font }
        ) { config, text throws(OptionError) in
            guard !text.allSatisfy(\.isWhitespace) else {
                throw OptionError("invalid font \"\(text)\": expected a Pango font like \"Sans 14\"")
            }
            // Cairo cannot scale glyphs past about 32,000 px (Pango then warns and draws
            // nothing): 1000 px is the largest size, at every --scale up to 4.
            if let size = fontSize(in: text), !(1...1000).contains(size) {
                throw OptionError("invalid font \"\(text)\": the size must be from 1 to 1000")
            }
            config.style.font = text
        },
        OptionDefinition(
            "foreground", value: "colour", scope: .look, help: "Text colour, #rrggbb or #rrggbbaa.",
            default: Style.toast.foreground.description, current: { $0.style.foreground.description }
        ) { config, text throws(OptionError) in config.style.foreground = try color(text, "foreground") },
        OptionDefinition(
            "background", value: "colour", scope: .look, help: "Box colour, #rrggbb or #rrggbbaa; alpha needs a compositor.",
            default: Style.toast.background.description, current: { $0.style.background.description }
        ) { config, text throws(OptionError) in config.style.background = try color(text, "background") },
        OptionDefinition(
            "radius", value: "px", scope: .look, help: "Corner radius, logical pixels.", default: plain(Style.toast.cornerRadius),
            current: { plain($0.style.cornerRadius) }
        ) { config, text throws(OptionError) in config.style.cornerRadius = try number(text, "radius", 0...1000) },
        OptionDefinition(
            "padding", value: "px", scope: .look, help: "Space around the text, logical pixels.", default: plain(Style.toast.padding),
            current: { plain($0.style.padding) }
        ) { config, text throws(OptionError) in config.style.padding = try number(text, "padding", 0...1000) },
        OptionDefinition(
            "max-width", value: "px", scope: .look, help: "Widest box before the text wraps, logical pixels.",
            default: "a third of the monitor", current: { $0.style.maximumWidth.map(plain) }
        ) { config, text throws(OptionError) in config.style.maximumWidth = try number(text, "max-width", 24...100_000) },
        OptionDefinition(
            "max-lines", value: "n", scope: .look, help: "Lines shown before the text is ellipsized.",
            default: String(Style.toast.maximumLines), current: { String($0.style.maximumLines) }
        ) { config, text throws(OptionError) in
            config.style.maximumLines = Int(try number(text, "max-lines", 1...1000, whole: true))
        },
        OptionDefinition(
            "fade-in", value: "seconds", scope: .look, help: "Seconds to fade in, with a compositor.", default: plain(Style.toast.fadeIn),
            current: { plain($0.style.fadeIn) }
        ) { config, text throws(OptionError) in config.style.fadeIn = try number(text, "fade-in", 0...60) },
        OptionDefinition(
            "fade-out", value: "seconds", scope: .look, help: "Seconds to fade out, with a compositor.",
            default: plain(Style.toast.fadeOut), current: { plain($0.style.fadeOut) }
        ) { config, text throws(OptionError) in config.style.fadeOut = try number(text, "fade-out", 0...60) },
        OptionDefinition(
            "easing", value: "curve", scope: .look,
            help: "Fade curve: linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1,y1,x2,y2) or spring(damping,velocity).",
            default: "ease-in-out", values: TimingCurve.named.map(\.description), current: { $0.style.easing.description }
        ) { config, text throws(OptionError) in
            guard let curve = TimingCurve(parsing: text) else {
                throw OptionError(
                    "invalid easing \"\(text)\": expected linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1,y1,x2,y2) with x in 0...1 or spring(damping,velocity)"
                )
            }
            config.style.easing = curve
        },
        OptionDefinition(
            "scale", value: "factor", scope: .look, help: "Device pixels per logical pixel.", default: "Xft.dpi/96",
            current: { $0.scale.map(plain) }
        ) { config, text throws(OptionError) in config.scale = try number(text, "scale", 0.5...4) },
        OptionDefinition(
            "title", value: "text", scope: .look, help: "A bold first line above the message.", current: { $0.title }
        ) { config, text in
            // The message's rules (bounded, no control characters); a blank title is none.
            config.title = try? MessageText.normalize(text)
        },
        OptionDefinition(
            "sound", value: "sound", scope: .look,
            help:
                "Play a sound as the toast shows: a name of the freedesktop sound theme (message-new-instant, bell, complete), a sound file, or none. Not while toasts are paused (an urgent toast goes through a pause silently). Played through libcanberra, loaded only then.",
            takesFile: true, current: { $0.sound?.description }
        ) { config, text throws(OptionError) in
            if text == "none" {
                config.sound = nil
                return
            }
            guard let sound = Sound(parsing: text) else {
                throw OptionError("invalid sound \"\(text)\": expected a sound name (message-new-instant), an absolute path or none")
            }
            config.sound = sound
        },
        OptionDefinition(
            "icon", value: "icon", scope: .look,
            help:
                "success, error, info, warning, an image file (PNG, SVG, JPEG, GIF, BMP, WebP, TIFF, ICO), or an icon name from the icon theme (-symbolic icons take the text colour).",
            values: Icon.builtIn.map(\.description), takesFile: true, current: { $0.icon?.description }
        ) { config, text throws(OptionError) in
            let path: String
            do throws(FileURI.Refusal) { path = try FileURI.path(text) } catch {
                throw OptionError("invalid icon \"\(text)\": \(error.reason)")
            }
            guard let icon = Icon(parsing: path) else {
                throw OptionError("invalid icon \"\(text)\": expected success, error, info, warning, a file path or an icon name")
            }
            config.icon = icon
        },
        OptionDefinition(
            "progress", value: "percent", scope: .look,
            help: "A progress bar at 0 to 100 (up to 200 shows the overflow); N! in the alternate colour.",
            current: { $0.progress?.description }
        ) { config, text throws(OptionError) in
            guard let progress = Progress(parsing: text) else {
                throw OptionError("invalid progress \"\(text)\": expected a number from 0 to 200, optionally followed by !")
            }
            config.progress = progress
        },
        OptionDefinition(
            "markup", scope: .look,
            help: "The message and title are Pango markup (<b>, <i>, <span>; <a href> opens on a click); bad markup shows as plain text.",
            values: booleanWords, current: { String($0.markup) }
        ) { config, text throws(OptionError) in config.markup = try boolean(text, "markup") },
        OptionDefinition(
            "announce", scope: .look,
            help: "Announce the text to a running screen reader (Orca, Speech Dispatcher) as the toast appears.", default: "true",
            values: booleanWords, current: { String($0.announce) }
        ) { config, text throws(OptionError) in config.announce = try boolean(text, "announce") },
        OptionDefinition("no-announce", scope: .invocation, help: "Do not announce this toast to a screen reader.") { config, _ in
            config.announce = false
        },
        OptionDefinition(
            "animation", value: "kind", scope: .look, help: "fade, bounce (the alert's), spring (the hud's) or none.", default: "fade",
            values: Style.Animation.allCases.map(\.rawValue), current: { $0.style.animation.rawValue }
        ) { config, text throws(OptionError) in
            guard let animation = Style.Animation(rawValue: text) else {
                throw OptionError("invalid animation \"\(text)\": expected \(oneOf(Style.Animation.allCases.map(\.rawValue)))")
            }
            config.style.animation = animation
        },
        OptionDefinition(
            "stack", scope: .look, help: "Show alongside the toasts on screen, stacked from the edge, instead of after them.",
            values: booleanWords, current: { String($0.stack) }
        ) { config, text throws(OptionError) in config.stack = try boolean(text, "stack") },
        OptionDefinition(
            "click-through", scope: .look,
            help: "Clicks go to the window below the toast; the pointer over it still holds it.",
            values: booleanWords, current: { String($0.clickThrough) }
        ) { config, text throws(OptionError) in config.clickThrough = try boolean(text, "click-through") },
        OptionDefinition(
            "urgent", scope: .look,
            help: "Show even while toasts are paused (xtoast --pause); auto: when it has a progress bar or a tag.",
            default: "auto", values: ["auto"] + booleanWords, current: { $0.style.urgent.map { String($0) } ?? "auto" }
        ) { config, text throws(OptionError) in
            config.style.urgent = text.lowercased() == "auto" ? nil : try boolean(text, "urgent")
        },
        OptionDefinition(
            "tag", value: "name", scope: .look,
            help: "A toast with the same tag, on screen or waiting, is replaced in place instead of queued.", current: { $0.tag }
        ) { config, text throws(OptionError) in
            guard Ticket.isValidTag(text) else {
                throw OptionError("invalid tag \"\(text)\": expected 1 to \(Ticket.tagLimit) bytes without control characters")
            }
            config.tag = text
        },
        OptionDefinition(
            "in-history", scope: .look, help: "Keep the toast in the history (xtoast --history) once it has shown.", default: "true",
            values: booleanWords, current: { String($0.inHistory) }
        ) { config, text throws(OptionError) in config.inHistory = try boolean(text, "in-history") },
        OptionDefinition("no-history", scope: .invocation, help: "Keep this toast out of the history.") { config, _ in
            config.inHistory = false
        },
        OptionDefinition(
            "spinner", scope: .invocation, help: "A turning activity indicator in the icon's place, while the toast is up."
        ) { config, _ in config.spinner = true },
        OptionDefinition(
            "stdin", scope: .invocation,
            help:
                "Each line read from standard input updates the toast: a number sets the progress, N! in the alternate colour, other text the message."
        ) { config, _ in config.followStandardInput = true },
        OptionDefinition(
            "run", scope: .invocation,
            help:
                "Run the command after --; if it takes longer than half a second, a spinner shows until it ends, then success or error; exit with its status."
        ) { config, _ in config.run = true },
        OptionDefinition(
            "preset", value: "name", scope: .invocation,
            help: "Start from a design: toast, alert or hud; or a [section] of the config file / xtoast.NAME.* X resources.",
            values: Style.presets.keys.sorted()
        ) { config, text throws(OptionError) in
            guard !text.isEmpty, !text.contains(where: { $0 == "." || $0 == "]" || $0.isWhitespace }) else {
                throw OptionError("invalid preset \"\(text)\": expected a name without dots, brackets or spaces")
            }
            config.preset = text
        },
        OptionDefinition(
            "action", scope: .invocation, help: "A click means yes: exit 0 when clicked, 2 when it expired or was dismissed or replaced."
        ) { config, _ in config.action = true },
        OptionDefinition(
            "button", value: "label", scope: .invocation,
            help: "A button under the text (give it up to 8 times): a click on it prints its label and ends the toast."
        ) { config, text throws(OptionError) in
            // The message's rules: bounded, no control characters; a label is a word or two, on
            // one line (it is printed as one line of the answer: line breaks and tabs are spaces).
            let label = try Configuration.buttonLabel(text)
            guard config.buttonCount < 8 else { throw OptionError("invalid button \"\(text)\": at most 8 buttons") }
            config.buttons.append(label)
        },
        OptionDefinition(
            "reply", value: "label", scope: .invocation,
            help:
                "A button that opens a one-line entry in the button row; only then does the toast take the keyboard. Enter prints the reply and ends the toast, Escape closes the entry."
        ) { config, text throws(OptionError) in
            let label = try Configuration.buttonLabel(text, option: "reply")
            guard config.reply != nil || config.buttonCount < 8 else { throw OptionError("invalid reply \"\(text)\": at most 8 buttons") }
            config.reply = label
        },
        OptionDefinition(
            "reply-placeholder", value: "text", scope: .invocation, help: "What the empty reply entry shows.",
            default: ReplyField.defaultPlaceholder
        ) { config, text throws(OptionError) in
            guard let line = try? MessageText.normalize(String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })), line.count <= 200
            else { throw OptionError("invalid reply placeholder \"\(text)\": expected 1 to 200 characters") }
            config.replyPlaceholder = line
        },
        OptionDefinition("in", value: "delay", scope: .invocation, help: "Show it after a delay: 90s, 25m, 1h30m, 2d.") {
            config, text throws(OptionError) in
            guard let seconds = Schedule.delay(parsing: text) else {
                throw OptionError("invalid delay \"\(text)\": expected a duration like 90s, 25m, 1h30m or 2d (at most a year)")
            }
            config.delay = seconds
        },
        OptionDefinition(
            "at", value: "time", scope: .invocation, help: "Show it at a time: 14:00 (the next one) or 2026-12-01T09:00."
        ) { config, text throws(OptionError) in
            guard let time = Schedule.wallTime(parsing: text) else {
                throw OptionError("invalid time \"\(text)\": expected HH:MM[:SS] or YYYY-MM-DDTHH:MM[:SS]")
            }
            config.at = time
        },
        OptionDefinition(
            "tz", value: "zone", scope: .invocation, help: "The time zone of --at, like Europe/London.", default: "the local zone"
        ) { config, text in config.timeZone = text },
        OptionDefinition(
            "detach", short: "b", scope: .invocation,
            help: "Return at once, as soon as the toast is queued; it shows from a detached process."
        ) { config, _ in config.detach = true },
        OptionDefinition(
            "dismiss", scope: .invocation, help: "Close the toast on screen (with --tag: every toast with that tag) and exit."
        ) { config, _ throws(OptionError) in try setMode(&config, .dismiss) },
        OptionDefinition("dismiss-all", scope: .invocation, help: "Close the toast on screen and drop every waiting one, then exit.") {
            config, _ throws(OptionError) in try setMode(&config, .dismissAll)
        },
        OptionDefinition(
            "cancel-scheduled", scope: .invocation,
            help: "Cancel the toasts waiting for their --in/--at time (with --tag: those with that tag) and exit."
        ) { config, _ throws(OptionError) in try setMode(&config, .cancelScheduled) },
        OptionDefinition(
            "pause", scope: .invocation,
            help:
                "Do not disturb: toasts wait (urgent ones show) until --resume, or for the length given after it (30m, 1h, at most a year); then exit."
        ) { config, _ throws(OptionError) in try setMode(&config, .pause) },
        OptionDefinition("resume", scope: .invocation, help: "End a pause: the toasts that waited show, in order; then exit.") {
            config, _ throws(OptionError) in try setMode(&config, .resume)
        },
        OptionDefinition(
            "press", scope: .invocation,
            help:
                "Click the toast on screen (its --action) from a keybinding, or with a label after it its button of that label (xtoast --press Yes); then exit, 1 when no toast on screen has it."
        ) { config, _ throws(OptionError) in try setMode(&config, .press) },
        OptionDefinition(
            "inhibit", scope: .invocation,
            help:
                "Run the command after -- and hold toasts while it runs (a presentation, a screen share): applications' notifications are kept unseen, in the centre, scripts' toasts wait (urgent ones show), and as it ends (however it ends, even killed) one toast says what came. Through the notification service's Inhibit, as KDE's applications ask it. A signal sent to it goes on to the command; exit with the command's status."
        ) { config, _ throws(OptionError) in try setMode(&config, .inhibit) },
        OptionDefinition(
            "list", scope: .invocation,
            help:
                "Print the toasts on the display, one a line: showing, waiting, paused (standing aside for --pause or an inhibition), delayed (by a fullscreen window or a locked screen) or scheduled, with its pid, [tag] and buttons; first \"paused until …\" while toasts are paused, and \"inhibited by …\" while an application (or --inhibit's command) holds notifications and toasts. Then exit."
        ) { config, _ throws(OptionError) in try setMode(&config, .list) },
        OptionDefinition(
            "watch", scope: .invocation,
            help:
                "For status bars: print a JSON line now and another each time it changes, without polling, until the reader goes: count and unread (applications' notifications kept after their toasts, and those not read yet), paused and until (xtoast --pause), inhibited and by (who holds notifications: --inhibit, KDE's Inhibit), showing and waiting (toasts)."
        ) { config, _ throws(OptionError) in try setMode(&config, .watch) },
        OptionDefinition(
            "center", scope: .invocation,
            help:
                "Open the notification centre, or close it if it is open (bind it to one key): applications' notifications kept after their toasts, grouped by application, newest first, with their buttons, and the toasts scripts showed. Up, Down, Page Up/Down, Home, End (or j, k) choose; Enter or a click acts, Tab chooses a button; Delete dismisses an entry or a group, Shift+Delete everything; d switches do not disturb (--pause); Escape, q or a click outside closes it. Opening it marks what it lists read."
        ) { config, _ throws(OptionError) in try setMode(&config, .center) },
        OptionDefinition(
            "history", scope: .invocation,
            help:
                "Print the toasts that showed, newest first, one a line: when, how it ended, [tag], title and text (the last \(HistoryStore.countLimit), kept in $XDG_STATE_HOME/xtoast/history); then exit."
        ) { config, _ throws(OptionError) in try setMode(&config, .history) },
        OptionDefinition(
            "reshow", scope: .invocation,
            help: "Show the newest toast of the history again as it was, or with a number after it the Nth newest (xtoast --reshow 2)."
        ) { config, _ throws(OptionError) in try setMode(&config, .reshow) },
        OptionDefinition(
            "notification", value: "id", scope: .invocation,
            help:
                "With --press, --dismiss or --reshow: the application's notification of that id (--list shows them), on screen or kept after its toast; its action reaches the application, which the session bus starts the service for."
        ) { config, text throws(OptionError) in
            guard text.allSatisfy(\.isASCII), let id = UInt32(text), id > 0 else {
                throw OptionError("invalid notification id \"\(text)\": expected a number from 1")
            }
            config.notification = id
        },
        OptionDefinition(
            "keep-notifications", value: "count", scope: .service,
            help:
                "Applications' notifications kept after their toasts at most (the newest; 0: none, each closed when its toast's time is up).",
            default: "100", current: { String($0.keptNotifications) }
        ) { config, text throws(OptionError) in
            config.keptNotifications = Int(try number(text, "keep-notifications", 0...10_000, whole: true))
        },
        OptionDefinition(
            "keep-notifications-for", value: "time", scope: .service,
            help: "How long an application's notification is kept after its toast at most: 90m, 12h, 7d.", default: "1d",
            current: { Schedule.text(seconds: $0.keptNotificationAge) }
        ) { config, text throws(OptionError) in
            guard let seconds = Schedule.delay(parsing: text), seconds >= 60 else {
                throw OptionError(
                    "invalid keep-notifications-for \"\(text)\": expected a duration like 90m, 12h or 7d (a minute to a year)")
            }
            config.keptNotificationAge = seconds
        },
        OptionDefinition(
            "service-idle", value: "time", scope: .service,
            help:
                "How long the notification service stays on the bus with nothing to show before it exits (the bus starts it again for the next notification): 30s, 5m; or never, for the X session's lifetime, for applications that look for a server before they send (kdialog): start it with the session.",
            default: "30s", values: ["never"], current: { $0.serviceIdle.isFinite ? Schedule.text(seconds: $0.serviceIdle) : "never" }
        ) { config, text throws(OptionError) in
            if text == "never" {
                config.serviceIdle = .infinity
                return
            }
            guard let seconds = Schedule.delay(parsing: text), seconds >= 1 else {
                throw OptionError("invalid service-idle \"\(text)\": expected a duration like 30s or 5m, or never")
            }
            config.serviceIdle = seconds
        },
        OptionDefinition(
            "bursts", value: "kind", scope: .service,
            help:
                "What notifications of one application make while one of its toasts shows or waits: joined, one toast that counts them (\"Signal · 4 new\") with the newest text, the others kept; or queued, a toast each in turn.",
            default: "joined", values: ["joined", "queued"], current: { $0.bursts.rawValue }
        ) { config, text throws(OptionError) in
            guard let bursts = Dispatcher.Bursts(rawValue: text) else {
                throw OptionError("invalid bursts \"\(text)\": expected joined or queued")
            }
            config.bursts = bursts
        },
        OptionDefinition(
            "after-quiet", value: "kind", scope: .service,
            help:
                "What the toasts and notifications that waited out quiet (a pause, an inhibition, a locked screen, a film) make as it ends, three or more: summary (one toast, \"While you were away: 12\", that opens the centre, where they are; applications' notifications wait there unseen meanwhile) or replay (each shows in turn). Tagged, urgent ones and those a script waits on show as themselves.",
            default: "summary", values: ["summary", "replay"], current: { $0.afterQuiet.rawValue }
        ) { config, text throws(OptionError) in
            guard let kind = Dispatcher.AfterQuiet(rawValue: text) else {
                throw OptionError("invalid after-quiet \"\(text)\": expected summary or replay")
            }
            config.afterQuiet = kind
        },
        OptionDefinition(
            "notification-service", scope: .invocation,
            help:
                "Serve applications' notifications (org.freedesktop.Notifications) on the session bus as toasts in the same queue; the bus starts it, and it exits after 30 s with nothing to show. Exits 69 if another program owns the name."
        ) { config, _ throws(OptionError) in try setMode(&config, .notificationService) },
        OptionDefinition(
            "print-outcome", scope: .invocation,
            help:
                "Print how the toast ended: expired, clicked, action, button (its label on the next line), replaced, dismissed, dropped, summarised (one line of a summary after quiet) or terminated."
        ) { config, _ in config.printOutcome = true },
        OptionDefinition(
            "app", value: "name", scope: .invocation,
            help:
                "The application this toast is from, as the config file's [rule NAME] sections match it (app = NAME); without it a script's toast is from xtoast. With --print-config: which rules a toast with this text would match, and what they would do.",
            default: ScriptToastRules.defaultApp
        ) { config, text in config.app = text },
        OptionDefinition(
            "category", value: "name", scope: .invocation,
            help:
                "The kind of notification this toast is (email.arrived, im.received…), as the config file's rules match it (category = NAME; email matches email.arrived too)."
        ) { config, text in config.category = text.isEmpty ? nil : text },
        OptionDefinition(
            "burst", value: "count", scope: .invocation,
            help: "How many notifications this toast stands for in a summary after quiet (the notification service's bursts).",
            hidden: true
        ) { config, text throws(OptionError) in
            config.burst = Int(try number(text, "burst", 1...Double(Ticket.awayCountLimit), whole: true))
        },
        OptionDefinition("json", scope: .invocation, help: "--history and --list print JSON Lines, one object a toast.") {
            config, _ in config.json = true
        },
        OptionDefinition(
            "render-png", value: "file", scope: .invocation, help: "Draw the toast into a PNG file instead; needs no X server.",
            takesFile: true
        ) { config, text in config.renderPNG = text },
        OptionDefinition("display", value: "name", scope: .invocation, help: "The X display.", default: "$DISPLAY") { config, text in
            config.display = text
        },
        OptionDefinition(
            "config", value: "file", scope: .invocation, help: "Read this config file.", default: "$XDG_CONFIG_HOME/xtoast/config",
            takesFile: true
        ) { config, text in config.configFile = text },
        OptionDefinition("no-config", scope: .invocation, help: "Read no config file.") { config, _ in config.noConfig = true },
        OptionDefinition(
            "print-config", scope: .invocation, help: "Print the value of every setting and where it came from, then exit."
        ) { config, _ throws(OptionError) in try setMode(&config, .printConfig) },
        OptionDefinition("version", scope: .invocation, help: "Show the version.") { config, _ throws(OptionError) in
            try setMode(&config, .version)
        },
        OptionDefinition("help", short: "h", scope: .invocation, help: "Show this help.") { config, _ throws(OptionError) in
            try setMode(&config, .help)
        },
        OptionDefinition("generate-manual", scope: .invocation, help: "Print the man page (roff).", hidden: true) {
            config, _ throws(OptionError) in try setMode(&config, .generateManual)
        },
        OptionDefinition(
            "generate-markdown", scope: .invocation, help: "Print the option reference in Markdown (docs/options.md).", hidden: true
        ) { config, _ throws(OptionError) in try setMode(&config, .generateMarkdown) },
        OptionDefinition(
            "generate-completion", value: "shell", scope: .invocation, help: "Print a completion script: bash, zsh or fish.",
            values: Configuration.Shell.allCases.map(\.rawValue), hidden: true
        ) { config, text throws(OptionError) in
            guard let shell = Configuration.Shell(rawValue: text) else {
                throw OptionError("invalid shell \"\(text)\": expected \(oneOf(Configuration.Shell.allCases.map(\.rawValue)))")
            }
            try setMode(&config, .generateCompletion(shell))
        },
    ]

    /// The option called `name` (long name, without dashes).
    public static func named(_ name: String) -> OptionDefinition? { all.first { $0.name == name } }

    static func named(short: Character) -> OptionDefinition? { all.first { $0.short == short } }

    // MARK: Value checks shared by several options

    static func color(_ text: String, _ option: String) throws(OptionError) -> Color {
        guard let color = Color(hex: text) else { throw OptionError("invalid \(option) colour \"\(text)\": expected #rrggbb or #rrggbbaa") }
        return color
    }

    static func number(_ text: String, _ option: String, _ range: ClosedRange<Double>, whole: Bool = false) throws(OptionError)
        -> Double
    {
        // Double() also reads "nan", "inf" and hex floats: accept only plain decimals.
        let isPlainDecimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
        guard isPlainDecimal, let value = Double(text), range.contains(value), !whole || value == value.rounded() else {
            let kind = whole ? "a whole number" : "a number"
            throw OptionError(
                "invalid \(option) \"\(text)\": expected \(kind) from \(plain(range.lowerBound)) to \(plain(range.upperBound))")
        }
        return value
    }

    /// The size in a Pango font description ("Sans Bold 14", "Mono 12px @wght=300"): the last
    /// word before any variations, as a number with or without "px"; nil when it has none.
    static func fontSize(in font: String) -> Double? {
        let words = font.split { $0 == " " || $0 == "," }.filter { !$0.hasPrefix("@") && !$0.hasPrefix("#") }
        guard var last = words.last else { return nil }
        if last.hasSuffix("px") { last = last.dropLast(2) }
        guard last.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return Double(last)
    }

    /// The words a setting that is a flag is written with (`stack = false`); `boolean` reads
    /// yes, no, on, off, 1 and 0 too.
    static let booleanWords = ["true", "false"]

    /// "a, b or c": a list of words in an error message.
    static func oneOf(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    static func boolean(_ text: String, _ option: String) throws(OptionError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw OptionError("invalid \(option) \"\(text)\": expected true or false")
        }
    }

    /// The commands of the control surface (#21): each is one call's whole job.
    static let controlCommands: [Configuration.Mode] = [.press, .history, .reshow, .list, .watch, .center, .inhibit]

    static func setMode(_ config: inout Configuration, _ mode: Configuration.Mode) throws(OptionError) {
        let exclusive: [Configuration.Mode] = [.dismiss, .dismissAll, .cancelScheduled]
        if exclusive.contains(config.mode) && exclusive.contains(mode) && config.mode != mode {
            throw OptionError("--dismiss, --dismiss-all and --cancel-scheduled cannot be used together")
        }
        let pausing: [Configuration.Mode] = [.pause, .resume]
        if (pausing.contains(config.mode) && (pausing + exclusive).contains(mode)
            || pausing.contains(mode) && exclusive.contains(config.mode))
            && config.mode != mode
        {
            throw OptionError("--pause and --resume cannot be used together or with --dismiss, --dismiss-all or --cancel-scheduled")
        }
        // --help and --version win over everything else, as in every other tool.
        if config.mode == .help || config.mode == .version { return }
        if (controlCommands.contains(mode) || controlCommands.contains(config.mode)) && config.mode != .show && config.mode != mode
            && mode != .help && mode != .version
        {
            throw OptionError(
                "--press, --list, --watch, --center, --inhibit, --history and --reshow are each a whole call: one at a time, without --dismiss, --pause or --print-config"
            )
        }
        config.mode = mode
    }
}

/// 5 rather than 5.0, 0.2 as 0.2: numbers as a user types them.
public func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
