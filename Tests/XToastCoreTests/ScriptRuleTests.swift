import Testing

@testable import XToastCore

/// The config file's rules on a script's toast (issue #30): it is a notification from
/// `--app NAME` (`xtoast` without it), its title the summary over the message.
@Suite("Rules for scripts' toasts")
struct ScriptRuleTests {
    static let rules = NotificationRule.rules(
        in: ConfigFile(
            parsing: """
                [rule backups]
                app = backup
                popup = false

                [rule mine]
                app = xtoast
                summary = *disk*
                run = sh -c 'echo "$XTOAST_SUMMARY"'
                preset = alert

                [rule loud]
                urgency = critical
                sound = bell
                position = top

                [rule spam]
                app = spam
                drop = true

                [rule later]
                app = backup
                position = top-right

                [rule mail]
                category = email
                sound = message-new-email
                """)
    ).rules

    static func verdict(
        app: String? = nil, category: String? = nil, title: String? = nil, _ message: String, preset: String? = nil
    ) -> RuleVerdict {
        ScriptToastRules.verdict(rules, app: app, category: category, title: title, message: message, preset: preset)
    }

    @Test("Without --app a toast is xtoast's; the message is the summary, or the title over it")
    func appAndSummary() {
        #expect(Self.verdict("Disk almost full").matched == ["mine"])
        #expect(Self.verdict(title: "Disk", "almost full").matched == ["mine"])
        #expect(Self.verdict(title: "Note", "disk almost full").matched.isEmpty)
        #expect(Self.verdict(app: "other", "Disk almost full").matched.isEmpty)
    }

    @Test("What they do: the preset, the command, kept unseen or dropped, the settings with their rule")
    func effects() {
        let mine = Self.verdict("Disk almost full")
        #expect(mine.preset == "alert" && mine.arrival == .shown)
        #expect(mine.commands == [["sh", "-c", #"echo "$XTOAST_SUMMARY""#]])
        #expect(Self.verdict(app: "backup", "Done").arrival == .quiet)
        #expect(Self.verdict(app: "spam", "Buy").arrival == .dropped)
        // A later rule adds its settings: every matching rule applies.
        let backup = Self.verdict(app: "backup", "Done")
        #expect(backup.matched == ["backups", "later"])
        #expect(backup.settings == [RuleVerdict.Setting(rule: "later", setting: .init(key: "position", value: "top-right"))])
    }

    @Test("--category (notify-send's -c) is matched as an application's category hint is")
    func category() {
        #expect(Self.verdict(category: "email.arrived", "New mail").matched == ["mail"])
        #expect(Self.verdict(category: "EMAIL", "New mail").matched == ["mail"])
        #expect(Self.verdict(category: "emailer", "New mail").matched.isEmpty)
        #expect(Self.verdict("New mail").matched.isEmpty)
        // notify-send's -c takes a list: any of its kinds matches.
        #expect(Self.verdict(category: "device,email.arrived", "New mail").matched == ["mail"])
        #expect(Self.verdict(category: "device, email", "New mail").matched == ["mail"])
        #expect(Self.verdict(category: "device,emailer", "New mail").matched.isEmpty)
    }

    @Test("The urgency is the preset's when it is notify-send's: critical matches urgency = critical")
    func urgency() {
        #expect(Self.verdict("Down", preset: "critical").matched == ["loud"])
        #expect(Self.verdict("Down", preset: "alert").matched.isEmpty)
        #expect(Self.verdict("Down").matched.isEmpty)
    }

    @Test("No rules, no work: the verdict of nothing is the plain toast")
    func noRules() {
        #expect(ScriptToastRules.verdict([], app: nil, title: nil, message: "Hi", preset: nil) == RuleVerdict())
    }

    @Test("Settings from a rule sit over the config file's and under the command line's, and say where they came from")
    func precedence() throws {
        var builder = ConfigurationBuilder()
        builder.apply(file: ConfigFile(parsing: "position = bottom-left\nradius = 3\n"), path: "config", preset: nil)
        builder.apply(rules: Self.verdict(app: "backup", "Done"))
        #expect(builder.configuration.style.position == .topRight)
        #expect(builder.origins["position"]?.source == .rule("later"))
        #expect(builder.origins["radius"]?.source == .file(path: "config", line: 2))
        try builder.apply(commandLine: CommandLineParser.parse(["--position", "center"]).options)
        #expect(builder.configuration.style.position == .center)
    }

    @Test("notify-send's -a is the toast's app for the rules")
    func notifySendsApp() throws {
        let invocation = try NotifySend.invocation(["-a", "backup", "Done"], newID: 1)
        #expect(
            invocation.arguments.contains("--app") && invocation.arguments[invocation.arguments.firstIndex(of: "--app")! + 1] == "backup")
    }
}
