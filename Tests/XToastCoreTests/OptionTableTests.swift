import Testing

@testable import XToastCore

/// The parts of a configuration that the look options set, to compare with `==`.
private struct Look: Equatable {
    var style: Style
    var duration: DisplayDuration
    var monitor: MonitorChoice
    var scale: Double?
    var title: String?
    var icon: Icon?
    var progress: Progress?
    var markup: Bool
    var announce: Bool
    var stack: Bool
    var tag: String?
    var inHistory: Bool

    init(_ configuration: Configuration) {
        style = configuration.style
        duration = configuration.duration
        monitor = configuration.monitor
        scale = configuration.scale
        title = configuration.title
        icon = configuration.icon
        progress = configuration.progress
        markup = configuration.markup
        announce = configuration.announce
        stack = configuration.stack
        tag = configuration.tag
        inHistory = configuration.inHistory
    }
}

/// Applies options in order, as the command line would: a flag gets "true".
private func configure(_ options: [(name: String, value: String)]) throws(OptionError) -> Configuration {
    var configuration = Configuration()
    for (name, value) in options { try OptionTable.named(name)!.apply(value, to: &configuration) }
    return configuration
}

private func flags(_ names: String...) throws(OptionError) -> Configuration {
    try configure(names.map { ($0, "true") })
}

@Suite("Option table")
struct OptionTableTests {
    // MARK: The table itself

    @Test("Long names are unique lowercase words joined by '-', so `--name=value`, `name = value` and `xtoast.name:` all read them")
    func longNames() {
        let names = OptionTable.all.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            let wellFormed = name.allSatisfy { ("a"..."z").contains($0) || $0 == "-" } && name.first != "-" && name.last != "-"
            #expect(wellFormed, "\(name)")
        }
    }

    @Test("Short names are unique: -b and -h")
    func shortNames() {
        let shorts = OptionTable.all.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
        #expect(shorts.sorted() == ["b", "h"])
        #expect(OptionTable.named(short: "b")?.name == "detach")
        #expect(OptionTable.named(short: "h")?.name == "help")
        #expect(OptionTable.named(short: "z") == nil)
    }

    @Test("Every option has help, and every value option a placeholder")
    func help() {
        for option in OptionTable.all {
            let hasHelp = !option.help.allSatisfy(\.isWhitespace)
            #expect(hasHelp, "\(option.name)")
            #expect(option.value.map { !$0.isEmpty } ?? true, "\(option.name)")
        }
    }

    @Test("named(_:) finds an option by its long name without dashes, nothing else")
    func named() {
        #expect(OptionTable.named("radius")?.name == "radius")
        #expect(OptionTable.named("--radius") == nil)
        #expect(OptionTable.named("Radius") == nil)
        #expect(OptionTable.named("b") == nil)
        #expect(OptionTable.named("") == nil)
    }

    @Test(
        "Synopses, as --help and error messages show them",
        arguments: [
            ("duration", "--duration <time>"), ("offset", "--offset <x,y>"), ("stack", "--stack"),
            ("detach", "-b, --detach"), ("help", "-h, --help"), ("generate-completion", "--generate-completion <shell>"),
        ])
    func synopsis(name: String, expected: String) {
        #expect(OptionTable.named(name)?.synopsis == expected)
    }

    @Test("The look options, in --help order; only they may be set in a file or X resources")
    func lookOptions() {
        let look = OptionTable.all.filter { $0.scope == .look }.map(\.name)
        #expect(
            look == [
                "duration", "position", "offset", "monitor", "fullscreen", "idle", "font", "foreground", "background", "radius", "padding",
                "max-width", "max-lines", "fade-in", "fade-out", "easing", "scale", "title", "sound", "icon", "progress", "markup",
                "announce",
                "animation", "stack", "click-through", "urgent", "tag", "in-history",
            ])
    }

    @Test("Hidden options (tools for packagers, the service's word to its toasts) are invocation-only, so --print-config misses no setting")
    func hiddenOptions() {
        let hidden = OptionTable.all.filter(\.hidden)
        #expect(hidden.map(\.name) == ["burst", "generate-manual", "generate-markdown", "generate-completion"])
        #expect(hidden.allSatisfy { $0.scope == .invocation })
    }

    // MARK: Defaults

    /// Look defaults that describe a value computed at run time rather than write one.
    static let descriptiveDefaults: Set<String> = ["max-width", "scale"]

    @Test("The default texts of the look options, as --help and --print-config show them")
    func defaultTexts() {
        var texts: [String: String] = [:]
        for option in OptionTable.all where option.scope == .look { texts[option.name] = option.defaultText ?? "(none)" }
        #expect(
            texts == [
                "duration": "auto", "position": "bottom", "offset": "0,0", "monitor": "pointer", "fullscreen": "auto", "idle": "120",
                "font": "Sans 14",
                "foreground": "#ffffffff", "background": "#000000cc", "radius": "5", "padding": "10",
                "max-width": "a third of the monitor", "max-lines": "12", "fade-in": "0.2", "fade-out": "0.8", "easing": "ease-in-out",
                "scale": "Xft.dpi/96", "title": "(none)", "sound": "(none)", "icon": "(none)", "progress": "(none)", "markup": "(none)",
                "announce": "true", "animation": "fade", "stack": "(none)", "click-through": "(none)", "urgent": "auto", "tag": "(none)",
                "in-history": "true",
            ])
    }

    @Test("Only the descriptive defaults fail to parse: each other default text is a value")
    func descriptiveDefaultsAreTheOnlyUnparseableOnes() {
        let unparseable = OptionTable.all.filter { option in
            guard option.scope == .look, let text = option.defaultText else { return false }
            var configuration = Configuration()
            return (try? option.apply(text, to: &configuration)) == nil
        }
        #expect(Set(unparseable.map(\.name)) == Self.descriptiveDefaults)
    }

    /// A value other than the default for each look option with a real default.
    static let otherValues: [String: String] = [
        "duration": "sticky", "position": "top", "offset": "3,-4", "monitor": "1", "font": "Mono 9", "foreground": "#102030",
        "background": "#ff0000", "radius": "12", "padding": "3", "max-lines": "2", "fade-in": "0", "fade-out": "1.5",
        "easing": "linear", "animation": "bounce", "announce": "false", "fullscreen": "drop", "idle": "0", "urgent": "true",
        "in-history": "false",
    ]

    @Test(
        "A look option's default text, applied over another value, gives back the default configuration",
        arguments: OptionTable.all.filter { $0.scope == .look && $0.defaultText != nil && !descriptiveDefaults.contains($0.name) }
            .map(\.name))
    func defaultTextRoundTrips(name: String) throws {
        let option = try #require(OptionTable.named(name))
        let other = try #require(Self.otherValues[name], "no other value for \(name)")
        var configuration = Configuration()
        try option.apply(other, to: &configuration)
        #expect(Look(configuration) != Look(Configuration()), "\(other) is the default")
        try option.apply(option.defaultText!, to: &configuration)
        #expect(Look(configuration) == Look(Configuration()))
    }

    // MARK: Value lists

    /// Value options whose values are numbers or free text: nothing to list. A new value option
    /// either lists its words (from its type) or goes here, so that no closed set is forgotten
    /// by the completions and the docs.
    static let openValueOptions: Set<String> = [
        "app", "category", "offset", "idle", "font", "foreground", "background", "radius", "padding", "max-width", "max-lines", "fade-in",
        "fade-out",
        "scale", "title", "progress", "tag", "button", "in", "at", "tz", "display", "notification", "keep-notifications",
        "keep-notifications-for", "reply", "reply-placeholder", "burst",
    ]

    @Test("Every value option lists its words or a file, or is one whose values are numbers or free text")
    func valueOptionsListTheirValues() {
        for option in OptionTable.all where !option.isFlag {
            let listed = !option.values.isEmpty || option.takesFile
            #expect(listed != Self.openValueOptions.contains(option.name), "\(option.name)")
        }
    }

    @Test("Every setting that is a flag lists true and false; other flags list nothing")
    func flagValues() {
        for option in OptionTable.all where option.isFlag {
            if option.scope == .look {
                #expect(option.values.contains("true") && option.values.contains("false"), "\(option.name)")
            } else {
                #expect(option.values.isEmpty, "\(option.name)")
            }
        }
    }

    @Test(
        "Every listed word is a value the option takes",
        arguments: OptionTable.all.flatMap { option in option.values.map { (option.name, $0) } })
    func listedWordsAreValues(name: String, word: String) throws {
        let option = try #require(OptionTable.named(name))
        var configuration = Configuration()
        #expect(throws: Never.self) { try option.apply(word, to: &configuration) }
    }

    @Test(
        "The lists come from the types",
        arguments: [
            ("position", Position.allCases.map(\.rawValue)), ("animation", Style.Animation.allCases.map(\.rawValue)),
            ("fullscreen", ["show", "delay", "drop", "auto"]), ("monitor", ["pointer", "focus", "primary", "all"]),
            ("duration", ["auto", "short", "long", "sticky"]), ("easing", ["linear", "ease", "ease-in", "ease-out", "ease-in-out"]),
            ("icon", ["success", "error", "info", "warning"]), ("preset", Style.presets.keys.sorted()),
            ("urgent", ["auto", "true", "false"]), ("generate-completion", ["bash", "zsh", "fish"]),
        ])
    func listsFromTypes(name: String, expected: [String]) {
        #expect(OptionTable.named(name)?.values == expected)
    }

    @Test("Files are offered for the options that take a path")
    func fileOptions() {
        #expect(Set(OptionTable.all.filter(\.takesFile).map(\.name)) == ["icon", "sound", "render-png", "config"])
    }

    // MARK: Values

    @Test(
        "Values as the user types them",
        arguments: [
            ("radius", "0", 0.0), ("radius", "1000", 1000), ("radius", "2.5", 2.5), ("radius", ".5", 0.5), ("padding", "7", 7),
            ("max-width", "24", 24), ("max-width", "100000", 100_000), ("fade-in", "60", 60), ("fade-out", "0.05", 0.05),
            ("scale", "0.5", 0.5), ("scale", "4", 4), ("scale", "1.25", 1.25), ("max-lines", "3.0", 3), ("max-lines", "1", 1),
        ])
    func numbers(name: String, text: String, expected: Double) throws {
        let configuration = try configure([(name, text)])
        let value: Double? =
            switch name {
            case "radius": configuration.style.cornerRadius
            case "padding": configuration.style.padding
            case "max-width": configuration.style.maximumWidth
            case "fade-in": configuration.style.fadeIn
            case "fade-out": configuration.style.fadeOut
            case "scale": configuration.scale
            case "max-lines": Double(configuration.style.maximumLines)
            default: nil
            }
        #expect(value == expected)
    }

    @Test("Other values, one per option")
    func otherKindsOfValue() throws {
        let c = try configure([
            ("duration", "1500ms"), ("position", "top-right"), ("offset", "-20,0"), ("monitor", "DP-1"), ("font", "Sans Bold 12"),
            ("foreground", "#abc"), ("background", "#00000080"), ("easing", "cubic-bezier(0.1, 2, 0.9, -1)"), ("tag", "volume"),
            ("preset", "urgent"), ("in", "1h30m"), ("at", "14:00"), ("tz", "Europe/London"), ("render-png", "/tmp/toast.png"),
            ("display", ":1"), ("config", "/etc/xtoast"), ("generate-completion", "zsh"), ("title", "Build"),
            ("icon", "/usr/share/pixmaps/debian-logo.png"), ("progress", "40.5!"), ("markup", "true"), ("animation", "spring"),
        ])
        #expect(c.duration == .seconds(1.5))
        #expect(c.style.position == .topRight)
        #expect(c.style.offset == Offset(x: -20, y: 0))
        #expect(c.monitor == .named("DP-1"))
        #expect(c.style.font == "Sans Bold 12")
        #expect(c.style.foreground == Color(red: 10 / 15, green: 11 / 15, blue: 12 / 15))
        #expect(c.style.background == Color(red: 0, green: 0, blue: 0, alpha: 128 / 255))
        #expect(c.style.easing == .cubicBezier(0.1, 2, 0.9, -1))
        #expect(c.tag == "volume")
        #expect(c.preset == "urgent")
        #expect(c.delay == 5400)
        #expect(c.at == Schedule.WallTime(date: nil, hour: 14, minute: 0, second: 0))
        #expect(c.timeZone == "Europe/London")
        #expect(c.renderPNG == "/tmp/toast.png")
        #expect(c.display == ":1")
        #expect(c.configFile == "/etc/xtoast")
        #expect(c.mode == .generateCompletion(.zsh))
        #expect(c.title == "Build")
        #expect(c.icon == .file("/usr/share/pixmaps/debian-logo.png"))
        #expect(c.progress == Progress(percent: 40.5, alternate: true))
        #expect(c.markup)
        #expect(c.style.animation == .spring)
    }

    @Test(
        "icon: the four built-in names, a path (it has a /) or a theme name",
        arguments: [
            ("success", Icon.success), ("error", .error), ("info", .info), ("warning", .warning), ("./done.png", .file("./done.png")),
            ("dialog-information", .named("dialog-information")), ("file:///usr/share/a%20b.png", .file("/usr/share/a b.png")),
            ("file://localhost/x.png", .file("/x.png")),
        ])
    func icons(text: String, expected: Icon) throws {
        #expect(try configure([("icon", text)]).icon == expected)
    }

    @Test("A blank title is no title; a title follows the message's rules, markup characters kept")
    func titles() throws {
        #expect(try configure([("title", "")]).title == nil)
        #expect(try configure([("title", " \n ")]).title == nil)
        #expect(try configure([("title", "Build")]).title == "Build")
        #expect(try configure([("title", "<b> & ")]).title == "<b> &")
        #expect(try configure([("title", "\u{1B}[2Jx")]).title == "\u{FFFD}[2Jx")
        let long = try #require(try configure([("title", String(repeating: "t", count: 100_000))]).title)
        #expect(long.count == MessageText.characterLimit + 1)
    }

    @Test("easing takes a spring too: the hud's motion, from a file or the command line")
    func springEasing() throws {
        #expect(try configure([("easing", "spring(0.7,0.5)")]).style.easing == .spring(damping: 0.7, velocity: 0.5))
    }

    @Test(
        "animation: each kind by its name",
        arguments: [("fade", Style.Animation.fade), ("bounce", .bounce), ("spring", .spring), ("none", .none)])
    func animations(text: String, expected: Style.Animation) throws {
        #expect(try configure([("animation", text)]).style.animation == expected)
    }

    /// Bad text for every value option that checks its value, and what the message calls the
    /// value: the option's name, except where the value has a name of its own.
    static let badValues: [(name: String, text: String, called: String)] = [
        ("duration", "soon", "duration"), ("duration", "-1", "duration"),
        ("position", "middle", "position"), ("position", "Top", "position"),
        ("offset", "20", "offset"), ("offset", "1,2,3", "offset"), ("offset", "nan,0", "offset"),
        ("monitor", "", "monitor"),
        ("burst", "0", "burst"), ("burst", "10000", "burst"), ("burst", "2.5", "burst"),
        ("idle", "-1", "idle"), ("idle", "forever", "idle"), ("idle", "1e9", "idle"),
        ("fullscreen", "hide", "fullscreen policy"), ("fullscreen", "", "fullscreen policy"), ("fullscreen", "Show", "fullscreen policy"),
        ("font", "", "font"), ("font", " \t", "font"), ("font", "Sans 100000", "font"), ("font", "Sans Bold 1001px", "font"),
        ("font", "Sans 0", "font"), ("font", "Mono -5 @wght=300", "font"),
        ("foreground", "white", "foreground colour"), ("background", "#12345", "background colour"),
        ("radius", "-1", "radius"), ("radius", "1001", "radius"), ("radius", "5px", "radius"), ("radius", "nan", "radius"),
        ("radius", "1e2", "radius"), ("radius", "0x10", "radius"), ("radius", "", "radius"), ("radius", "1-2", "radius"),
        ("padding", "ten", "padding"),
        ("max-width", "23", "max-width"),
        ("max-lines", "2.5", "max-lines"), ("max-lines", "0", "max-lines"),
        ("fade-in", "61", "fade-in"), ("fade-out", "-0.1", "fade-out"),
        ("easing", "bounce", "easing"), ("easing", "cubic-bezier(2,0,0,1)", "easing"), ("easing", "spring(0.7)", "easing"),
        ("easing", "spring(0,1)", "easing"),
        ("scale", "0.4", "scale"), ("scale", "5", "scale"),
        ("icon", "", "icon"), ("icon", "bad name!", "icon"), ("icon", "a b", "icon"), ("icon", "file://server/x.png", "icon"),
        ("progress", "101x", "progress"), ("progress", "-1", "progress"), ("progress", "201", "progress"), ("progress", "", "progress"),
        ("progress", "40!!", "progress"), ("progress", "nan", "progress"),
        ("markup", "maybe", "markup"), ("announce", "maybe", "announce"),
        ("animation", "wobble", "animation"), ("animation", "Fade", "animation"), ("animation", "", "animation"),
        ("stack", "maybe", "stack"), ("click-through", "maybe", "click-through"),
        ("tag", "", "tag"), ("tag", "a\nb", "tag"), ("button", "", "button"), ("button", " ", "button"),
        ("button", String(repeating: "b", count: 65), "button"), ("reply", "", "reply"), ("reply", "\n", "reply"),
        ("reply-placeholder", "", "reply placeholder"), ("reply-placeholder", String(repeating: "p", count: 201), "reply placeholder"),
        ("preset", "a.b", "preset"), ("preset", "", "preset"), ("preset", "my preset", "preset"),
        // --in takes a delay, --at a time, --generate-completion a shell.
        ("in", "soon", "delay"), ("in", "30m1h", "delay"), ("at", "25:00", "time"),
        ("generate-completion", "powershell", "shell"),
        ("notification", "0", "notification id"), ("notification", "x", "notification id"), ("notification", "-3", "notification id"),
        ("notification", "4294967296", "notification id"),
        ("keep-notifications", "-1", "keep-notifications"), ("keep-notifications", "10001", "keep-notifications"),
        ("keep-notifications", "2.5", "keep-notifications"), ("keep-notifications-for", "30s", "keep-notifications-for"),
        ("keep-notifications-for", "forever", "keep-notifications-for"), ("bursts", "grouped", "bursts"),
        ("service-idle", "0s", "service-idle"), ("service-idle", "always", "service-idle"), ("bursts", "", "bursts"),
        ("after-quiet", "never", "after-quiet"),
        ("sound", "bell; rm", "sound"), ("sound", "relative/file.oga", "sound"),
    ]

    /// Value options that take any text: a file name, a display, a time zone, a title.
    static let freeTextOptions: Set<String> = ["tz", "render-png", "display", "config", "title", "app", "category"]

    @Test("Bad text is rejected with a message that starts: invalid, what the value is called, the text", arguments: badValues)
    func rejects(name: String, text: String, called: String) throws {
        let option = try #require(OptionTable.named(name))
        var configuration = Configuration()
        let error = #expect(throws: OptionError.self) { try option.apply(text, to: &configuration) }
        let prefix = "invalid \(called) \"\(text)\": "
        #expect(error?.message.hasPrefix(prefix) == true, "\(error?.message ?? "")")
    }

    @Test("Every value option either checks its value or takes any text")
    func everyValueOptionIsChecked() {
        let values = Set(OptionTable.all.filter { !$0.isFlag }.map(\.name))
        #expect(
            values
                == Set(Self.badValues.map(\.name)).subtracting(["stack", "markup", "announce", "click-through"]).union(Self.freeTextOptions)
        )
    }

    @Test(
        "Whole messages: what was wrong and what is expected",
        arguments: [
            ("radius", "-1", "invalid radius \"-1\": expected a number from 0 to 1000"),
            ("max-lines", "2.5", "invalid max-lines \"2.5\": expected a whole number from 1 to 1000"),
            ("scale", "5", "invalid scale \"5\": expected a number from 0.5 to 4"),
            ("stack", "maybe", "invalid stack \"maybe\": expected true or false"),
            ("foreground", "white", "invalid foreground colour \"white\": expected #rrggbb or #rrggbbaa"),
            ("offset", "20", "invalid offset \"20\": expected X,Y in pixels, like 0,-40"),
            ("generate-completion", "powershell", "invalid shell \"powershell\": expected bash, zsh or fish"),
            ("progress", "201", "invalid progress \"201\": expected a number from 0 to 200, optionally followed by !"),
            ("icon", "bad name!", "invalid icon \"bad name!\": expected success, error, info, warning, a file path or an icon name"),
            ("animation", "wobble", "invalid animation \"wobble\": expected fade, bounce, spring or none"),
            ("markup", "maybe", "invalid markup \"maybe\": expected true or false"),
            (
                "easing", "spring(0.7)",
                "invalid easing \"spring(0.7)\": expected linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1,y1,x2,y2) with x in 0...1 or spring(damping,velocity)"
            ),
        ])
    func message(name: String, text: String, expected: String) {
        #expect(throws: OptionError(expected)) { try configure([(name, text)]) }
    }

    @Test("A rejected value leaves the configuration as it was")
    func rejectionChangesNothing() throws {
        var configuration = try configure([("radius", "8"), ("duration", "3")])
        #expect(throws: OptionError.self) { try OptionTable.named("radius")!.apply("big", to: &configuration) }
        #expect(throws: OptionError.self) { try OptionTable.named("duration")!.apply("soon", to: &configuration) }
        #expect(configuration.style.cornerRadius == 8)
        #expect(configuration.duration == .seconds(3))
    }

    // MARK: Flags

    @Test(
        "stack is a boolean: true, yes, on, 1 and false, no, off, 0, in any case",
        arguments: [
            ("true", true), ("yes", true), ("on", true), ("1", true), ("TRUE", true), ("Yes", true), ("oN", true),
            ("false", false), ("no", false), ("off", false), ("0", false), ("FALSE", false), ("No", false), ("oFF", false),
        ])
    func stack(text: String, expected: Bool) throws {
        var configuration = Configuration()
        configuration.stack = !expected
        try OptionTable.named("stack")!.apply(text, to: &configuration)
        #expect(configuration.stack == expected)
    }

    @Test("stack rejects other words", arguments: ["maybe", "", "2", "y", "t", "enabled", " true", "true "])
    func stackRejects(text: String) {
        #expect(throws: OptionError("invalid stack \"\(text)\": expected true or false")) { try configure([("stack", text)]) }
    }

    @Test("markup is a boolean like stack, off unless asked for")
    func markup() throws {
        #expect(!Configuration().markup)
        #expect(try flags("markup").markup)
        #expect(try configure([("markup", "yes")]).markup)
        #expect(try !configure([("markup", "true"), ("markup", "off")]).markup)
    }

    @Test("announce is a boolean that is on unless turned off: announce = false in a file, --no-announce for one call")
    func announce() throws {
        #expect(Configuration().announce)
        #expect(try !configure([("announce", "false")]).announce)
        #expect(try configure([("announce", "off"), ("announce", "yes")]).announce)
        #expect(try !flags("no-announce").announce)
        #expect(OptionTable.named("no-announce")?.scope == .invocation)
    }

    @Test("Each invocation flag sets its field")
    func invocationFlags() throws {
        let none = Configuration()
        #expect(!none.action && !none.detach && !none.printOutcome && !none.noConfig)
        #expect(try flags("action").action)
        #expect(try flags("detach").detach)
        #expect(try flags("print-outcome").printOutcome)
        #expect(try flags("no-config").noConfig)
    }

    // MARK: Modes

    @Test(
        "Each mode option sets its mode",
        arguments: [
            ("dismiss", Configuration.Mode.dismiss), ("dismiss-all", .dismissAll), ("cancel-scheduled", .cancelScheduled),
            ("print-config", .printConfig), ("version", .version), ("help", .help), ("generate-manual", .generateManual),
            ("generate-markdown", .generateMarkdown),
        ])
    func modes(name: String, expected: Configuration.Mode) throws {
        #expect(Configuration().mode == .show)
        #expect(try flags(name).mode == expected)
    }

    @Test(
        "--dismiss, --dismiss-all and --cancel-scheduled cannot be combined",
        arguments: [
            ("dismiss", "dismiss-all"), ("dismiss-all", "dismiss"), ("dismiss", "cancel-scheduled"), ("cancel-scheduled", "dismiss-all"),
        ]
    )
    func exclusiveModes(first: String, second: String) {
        #expect(throws: OptionError("--dismiss, --dismiss-all and --cancel-scheduled cannot be used together")) {
            try flags(first, second)
        }
    }

    @Test(
        "Repeating one of them is fine",
        arguments: [("dismiss", Configuration.Mode.dismiss), ("dismiss-all", .dismissAll), ("cancel-scheduled", .cancelScheduled)])
    func repeatedMode(name: String, expected: Configuration.Mode) throws {
        #expect(try flags(name, name).mode == expected)
        #expect(try flags(name, name, name).mode == expected)
    }

    @Test(
        "--help wins over every other mode, before or after it",
        arguments: ["dismiss", "dismiss-all", "cancel-scheduled", "print-config", "generate-manual", "version"])
    func helpWins(other: String) throws {
        #expect(try flags("help", other).mode == .help)
        if other != "version" { #expect(try flags(other, "help").mode == .help) }
    }

    @Test("--help wins over --generate-completion, before or after it")
    func helpWinsOverCompletion() throws {
        #expect(try configure([("help", "true"), ("generate-completion", "bash")]).mode == .help)
        #expect(try configure([("generate-completion", "bash"), ("help", "true")]).mode == .help)
    }

    @Test("--version wins too; between --help and --version the first one given wins")
    func versionWins() throws {
        #expect(try flags("dismiss", "version").mode == .version)
        #expect(try flags("version", "print-config").mode == .version)
        #expect(try flags("version", "help").mode == .version)
        #expect(try flags("help", "version").mode == .help)
    }

    // MARK: plain(_:)

    @Test(
        "plain(_:) writes numbers as a user types them",
        arguments: [(5.0, "5"), (0.2, "0.2"), (-3, "-3"), (0.5, "0.5"), (1000, "1000"), (1e20, "1e+20")])
    func plainNumbers(value: Double, expected: String) {
        #expect(plain(value) == expected)
    }

    @Test(
        "The size in a Pango font description",
        arguments: [
            ("Sans 14", 14.0), ("Sans Bold 12px", 12), ("Mono 9 @wght=300", 9), ("DejaVu Sans, 10.5", 10.5), ("Sans", nil),
            ("Sans Bold", nil), ("Noto Sans CJK JP", nil),
        ] as [(String, Double?)])
    func fontSizes(font: String, expected: Double?) {
        #expect(OptionTable.fontSize(in: font) == expected)
    }

    @Test("Buttons keep their order, follow the message's rules, and stop at eight")
    func buttons() throws {
        let labels = (1...8).map { "Choice \($0)" }
        #expect(try configure(labels.map { ("button", $0) }).buttons == labels)
        #expect(try configure([("button", " Yes\u{7} ")]).buttons == ["Yes\u{FFFD}"])
        #expect(throws: OptionError.self) { try configure((1...9).map { ("button", "Choice \($0)") }) }
        // A reply button is one of the eight, and goes last whatever the order given.
        let replying = try configure([("reply", "Answer")] + labels.prefix(7).map { ("button", $0) })
        #expect(replying.buttonRow.labels == Array(labels.prefix(7)) + ["Answer"])
        #expect(replying.buttonRow.reply == ReplyField(button: 7, placeholder: ReplyField.defaultPlaceholder))
        #expect(throws: OptionError.self) { try configure([("reply", "Answer")] + labels.map { ("button", $0) }) }
        #expect(throws: OptionError.self) { try configure(labels.map { ("button", $0) } + [("reply", "Answer")]) }
    }
}

/// `--print-outcome` prints a button's label as one line: line breaks and tabs in a label are
/// spaces, as the button draws it.
@Test("A button's label is one line", arguments: [("Yes\nplease", "Yes please"), ("a\tb\r\nc", "a b c"), ("\nOK\n", "OK")])
func buttonLabelIsOneLine(given: String, label: String) throws {
    #expect(try configure([("button", given)]).buttons == [label])
}
