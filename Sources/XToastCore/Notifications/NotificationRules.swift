/// Rules for applications' notifications, from the config file: a `[rule NAME]` section
/// matches on `app` (the app name), `category`, `urgency` (low, normal, critical) and
/// `desktop-entry`, each compared without case (a category also matches its subcategories:
/// `email` matches `email.arrived`), and on `summary` and `body` with a glob (`*backup*`,
/// without case); every key it gives must match. The rest of the section is what a match does:
/// `preset = NAME` and any look setting (`position = top`), `popup = false` (kept, in the
/// centre and the history, never shown), `drop = true` (closed as dismissed at once, nothing
/// kept) and `run = COMMAND ARGS…` (`RuleCommands`). All rules that match apply, in the order
/// of the file; a later one wins (every matching rule's command runs).
///
///     [rule mail]
///     app = Thunderbird
///     preset = alert
///     position = top-right
///
///     [rule backups]
///     summary = *backup*
///     popup = false
public struct NotificationRule: Equatable, Sendable {
    public var name: String
    /// Match keys and values, lowercased.
    public var matches: [String: String] = [:]
    public var preset: String?
    /// Whether a match shows, goes to the centre unseen, or is dropped; nil: as other rules say.
    public var arrival: Arrival?
    /// A command a match runs (`run = …`), as words: never through a shell unless it names one.
    public var run: [String]?
    /// Look settings, checked, in the order given.
    public var settings: [Setting] = []

    public struct Setting: Equatable, Sendable {
        public var key: String
        public var value: String
    }

    /// What becomes of a notification as it comes.
    public enum Arrival: Equatable, Sendable {
        /// Its toast shows (what happens without a rule).
        case shown
        /// Kept at once, in the centre and the history, never shown (`popup = false`).
        case quiet
        /// Closed as dismissed at once, nothing kept (`drop = true`).
        case dropped
    }

    /// The keys a rule matches on: equal without case, or (`globKeys`) a glob.
    public static let matchKeys = RuleKey.matchNames
    /// The keys matched with a glob: `*` any text, `?` one character, without case.
    static let globKeys: Set<String> = ["summary", "body"]
    /// A glob longer than this is refused: a pattern is the user's, but bounded all the same.
    static let globLimit = 256
    /// Characters of a summary or body a glob looks at: a match costs at most this many times
    /// the glob's length, however long the body.
    static let globbedText = 4096
    /// The section name's first word.
    public static let sectionPrefix = "rule "

    /// Whether `request` (of urgency `urgency`) is one this rule is for.
    public func matches(_ request: NotificationRequest, urgency: String) -> Bool { mismatch(request, urgency: urgency) == nil }

    /// The first of its keys (in `matchKeys`' order) that `request` does not match; nil: it
    /// matches them all.
    public func mismatch(_ request: NotificationRequest, urgency: String) -> String? {
        for key in Self.matchKeys {
            guard let wanted = matches[key] else { continue }
            let given: String?
            switch key {
            case "app": given = request.appName
            case "urgency": given = urgency
            case "desktop-entry": given = request.hints.desktopEntry
            case "summary", "body":
                let text = key == "summary" ? request.summary : NotificationMarkup.plain(request.body)
                guard Glob.matches(wanted, String(text.prefix(Self.globbedText)).lowercased()) else { return key }
                continue
            default:
                // "email" is "email", "email.arrived", "email.bounced"; notify-send's
                // `-c device,email` is either.
                let categories = (request.hints.category?.lowercased() ?? "").split(separator: ",").map { $0.trimmingSpaces }
                guard categories.contains(where: { $0 == wanted || $0.hasPrefix(wanted + ".") }) else { return key }
                continue
            }
            guard given?.lowercased() == wanted else { return key }
        }
        return nil
    }

    /// What this rule does to a match, in the config file's words: `preset = alert, popup =
    /// false, run = notify-me`.
    public var effects: String {
        var said: [String] = []
        if let preset { said.append("preset = \(preset)") }
        switch arrival {
        case .quiet: said.append("popup = false")
        case .dropped: said.append("drop = true")
        case .shown: said.append("popup = true")
        case nil: break
        }
        if let run { said.append("run = " + run.map(Self.quoted).joined(separator: " ")) }
        said += settings.map { "\($0.key) = \($0.value)" }
        return said.isEmpty ? "nothing" : said.joined(separator: ", ")
    }

    /// A command's word as it could be written back: quoted when it holds a space or a quote.
    static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { $0.isWhitespace || $0 == "'" || $0 == "\"" || $0 == "\\" }) else { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// `--print-config --app NAME`'s lines: for a notification `request`, which rules match and
    /// what they do, which do not and why, and what becomes of it; each a comment, one line, its
    /// words bounded.
    public static func explanation(of rules: [NotificationRule], for request: NotificationRequest) -> [String] {
        let urgency = NotificationToast.urgency(request)
        var lines = rules.map { rule in
            let name = TerminalText.line(String(rule.name.prefix(64)))
            if let key = rule.mismatch(request, urgency: urgency) { return "# rule \(name): does not match (\(key))" }
            return "# rule \(name): matches: " + TerminalText.line(String(rule.effects.prefix(400)))
        }
        let toast = NotificationToast(id: 1, request: request, icon: nil, rules: rules)
        let app = TerminalText.line(String(request.appName.prefix(64)))
        switch toast.arrival {
        case .shown:
            let preset = toast.arguments.firstIndex(of: "--preset").map { toast.arguments[$0 + 1] } ?? ""
            lines.append("# a notification from \(app) shows (preset \(preset))")
        case .quiet: lines.append("# a notification from \(app) is kept unseen, in the centre and the history")
        case .dropped: lines.append("# a notification from \(app) is dropped (closed as dismissed)")
        }
        return lines
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
                    if globKeys.contains(entry.key) && entry.value.count > globLimit {
                        problems.append((entry.line, "\(entry.key): a glob of at most \(globLimit) characters"))
                        continue
                    }
                    rule.matches[entry.key] = entry.value.lowercased()
                } else if entry.key == "popup" || entry.key == "drop" {
                    do throws(OptionError) {
                        let on = try OptionTable.boolean(entry.value, entry.key)
                        rule.arrival = entry.key == "popup" ? (on ? .shown : .quiet) : (on ? .dropped : .shown)
                    } catch {
                        problems.append((entry.line, error.message))
                    }
                } else if entry.key == "run" {
                    guard let words = CommandWords.split(entry.value) else {
                        problems.append((entry.line, "run: a command line, its quotes closed, at most 64 words"))
                        continue
                    }
                    rule.run = words
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
                        (
                            entry.line,
                            "\(entry.key): not a rule's match (\(matchKeys.joined(separator: ", "))), popup, drop or a look setting"
                        ))
                }
            }
            rules.append((entries.first?.line ?? 0, rule))
        }
        return (rules.sorted { $0.line < $1.line }.map(\.rule), problems.sorted { $0.line < $1.line })
    }
}

/// Shell-style globs, `*` and `?`, matched in time bounded by the product of the lengths (one
/// place to go back to, the last star: no pattern backtracks further, whatever it holds).
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let t = Array(text.unicodeScalars)
        var (i, j) = (0, 0)
        var star: (pattern: Int, text: Int)?
        while j < t.count {
            if i < p.count && (p[i] == "?" || p[i] == t[j]) {
                (i, j) = (i + 1, j + 1)
            } else if i < p.count && p[i] == "*" {
                star = (i, j)
                i += 1
            } else if let last = star {
                // The last star takes one more character.
                star = (last.pattern, last.text + 1)
                (i, j) = (last.pattern + 1, last.text + 1)
            } else {
                return false
            }
        }
        while i < p.count && p[i] == "*" { i += 1 }
        return i == p.count
    }
}
