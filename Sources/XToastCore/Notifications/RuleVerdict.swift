/// What the matching rules do to one notification or script toast, together: every rule that
/// matches applies, in the file's order, and a later one wins (a preset, whether it shows); every
/// matching rule's command runs (the first `RuleCommands.perNotification` of them).
public struct RuleVerdict: Equatable, Sendable {
    /// The rules that matched, by name, in order.
    public var matched: [String] = []
    public var preset: String?
    public var arrival = NotificationRule.Arrival.shown
    public var commands: [[String]] = []
    /// Their look settings, in order, with the rule each came from.
    public var settings: [Setting] = []

    public struct Setting: Equatable, Sendable {
        public var rule: String
        public var setting: NotificationRule.Setting
    }

    public init() {}

    /// The verdict of `rules` on `request`, whose urgency is `urgency` (low, normal, critical).
    public init(_ rules: [NotificationRule], on request: NotificationRequest, urgency: String) {
        for rule in rules where rule.matches(request, urgency: urgency) {
            matched.append(rule.name)
            if let chosen = rule.preset { preset = chosen }
            if let chosen = rule.arrival { arrival = chosen }
            if let command = rule.run, commands.count < RuleCommands.perNotification { commands.append(command) }
            settings += rule.settings.map { Setting(rule: rule.name, setting: $0) }
        }
    }
}

/// A script's toast as the rules see it (issue #30): a notification from `--app NAME`
/// (`xtoast` unless given) of `--category NAME`, the title its summary over the message, or the
/// message alone its summary; its urgency the preset's when that is one of notify-send's (`low`,
/// `normal`, `critical`), else normal.
public enum ScriptToastRules {
    /// The app name of a script's toast without `--app`.
    public static let defaultApp = "xtoast"

    public static func request(app: String?, category: String? = nil, title: String?, message: String, preset: String?)
        -> NotificationRequest
    {
        var request = NotificationRequest()
        request.appName = app ?? defaultApp
        request.hints.category = category
        (request.summary, request.body) = title.map { ($0, message) } ?? (message, "")
        if let preset, let level = NotifySend.urgencies.firstIndex(of: preset) { request.hints.urgency = level }
        return request
    }

    /// The verdict of `rules` on a script's toast.
    public static func verdict(
        _ rules: [NotificationRule], app: String?, category: String? = nil, title: String?, message: String, preset: String?
    ) -> RuleVerdict {
        guard !rules.isEmpty else { return RuleVerdict() }
        let request = request(app: app, category: category, title: title, message: message, preset: preset)
        return RuleVerdict(rules, on: request, urgency: NotificationToast.urgency(request))
    }
}
