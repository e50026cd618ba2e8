/// Rules for applications' notifications, from the config file: a `[rule NAME]` section
/// matches on `app` (the app name), `category`, `urgency` (low, normal, critical) and
/// `desktop-entry`, each compared without case (a category also matches its subcategories:
/// `email` matches `email.arrived`); every key it gives must match. The rest of the section
/// is what a match gives the toast: `preset = NAME` and any look setting (`position = top`).
/// All rules that match apply, in the order of the file; a later one wins.
///
///     [rule mail]
///     app = Thunderbird
///     preset = alert
///     position = top-right
public struct NotificationRule: Equatable, Sendable {
    public var name: String
    /// Match keys and values, lowercased.
    public var matches: [String: String] = [:]
    public var preset: String?
    /// Look settings, checked, in the order given.
    public var settings: [Setting] = []

    public struct Setting: Equatable, Sendable {
        public var key: String
        public var value: String
    }

    /// The keys a rule matches on.
    public static let matchKeys = ["app", "category", "urgency", "desktop-entry"]
    /// The section name's first word.
    public static let sectionPrefix = "rule "

    /// Whether `request` (of urgency `urgency`) is one this rule is for.
    public func matches(_ request: NotificationRequest, urgency: String) -> Bool {
        for (key, wanted) in matches {
            let given: String?
            switch key {
            case "app": given = request.appName
            case "urgency": given = urgency
            case "desktop-entry": given = request.hints.desktopEntry
            default:
                // "email" is "email", "email.arrived", "email.bounced".
                if let category = request.hints.category?.lowercased(), category == wanted || category.hasPrefix(wanted + ".") {
                    continue
                }
                return false
            }
            guard given?.lowercased() == wanted else { return false }
        }
        return true
    }

    /// The rules of a config file, in the file's order, and what is wrong in them (file line
    /// and message).
    public static func rules(in file: ConfigFile) -> (rules: [NotificationRule], problems: [(line: Int, message: String)]) {
        var rules: [(line: Int, rule: NotificationRule)] = []
        var problems: [(line: Int, message: String)] = []
        for (section, entries) in file.sections where section.hasPrefix(sectionPrefix) {
            var rule = NotificationRule(name: String(section.dropFirst(sectionPrefix.count)).trimmingCharacters)
            for entry in entries {
                if matchKeys.contains(entry.key) {
                    rule.matches[entry.key] = entry.value.lowercased()
                } else if entry.key == "preset" {
                    rule.preset = entry.value
                } else if let definition = OptionTable.named(entry.key), definition.scope == .look {
                    var scratch = Configuration()
                    do throws(OptionError) {
                        try definition.apply(entry.value, to: &scratch)
                        rule.settings.append(Setting(key: entry.key, value: entry.value))
                    } catch {
                        problems.append((entry.line, error.message))
                    }
                } else {
                    problems.append(
                        (entry.line, "\(entry.key): not a rule's match (\(matchKeys.joined(separator: ", "))) or a look setting"))
                }
            }
            rules.append((entries.first?.line ?? 0, rule))
        }
        return (rules.sorted { $0.line < $1.line }.map(\.rule), problems.sorted { $0.line < $1.line })
    }
}
