/// The keys of a config file's `[rule NAME]` section, besides the look settings (every
/// `OptionTable` setting of the look's scope): the one table the parser (`NotificationRule`),
/// `--help`, the man page and docs/options.md read.
public struct RuleKey: Sendable {
    public enum Kind: Sendable {
        /// What a notification or a script's toast must be for the rule to apply.
        case match
        /// What the rule does to it.
        case action
    }

    public let name: String
    public let value: String
    public let kind: Kind
    public let help: String
    /// Its words, when it takes a closed set.
    public let values: [String]

    init(_ name: String, _ value: String, _ kind: Kind, _ help: String, values: [String] = []) {
        (self.name, self.value, self.kind, self.help, self.values) = (name, value, kind, help, values)
    }

    public static let all: [RuleKey] = [
        RuleKey(
            "app", "name", .match,
            "The application: the app_name it sends (not x-kde-display-appname); a script's toast is --app's, or xtoast."),
        RuleKey("category", "name", .match, "The category hint; email also matches email.arrived, and one of a list (device,email)."),
        RuleKey(
            "urgency", "level", .match, "low, normal or critical (a script's toast: its preset when it is one of these, else normal).",
            values: NotifySend.urgencies),
        RuleKey("desktop-entry", "name", .match, "The desktop-entry hint."),
        RuleKey("summary", "glob", .match, "The summary (a script's toast: its title, or its message): * any text, ? one character."),
        RuleKey("body", "glob", .match, "The body as plain text (a script's toast: its message under a title)."),
        RuleKey("preset", "name", .action, "The preset it shows in (under the command line's)."),
        RuleKey(
            "popup", "bool", .action, "false: kept at once in the centre and the history as quiet, never shown.", values: ["true", "false"]),
        RuleKey(
            "drop", "bool", .action, "true: closed as dismissed at once (a script's toast: nothing at all), nothing kept.",
            values: ["true", "false"]),
        RuleKey(
            "run", "command", .action,
            "A command run as it comes, never through a shell unless it names one; told XTOAST_APP, XTOAST_SUMMARY, XTOAST_BODY, XTOAST_URGENCY, XTOAST_CATEGORY and XTOAST_ID in its environment; killed after 30 s."
        ),
    ]

    /// The keys a rule matches on, in the order a mismatch is reported.
    public static var matchNames: [String] { all.filter { $0.kind == .match }.map(\.name) }
}
