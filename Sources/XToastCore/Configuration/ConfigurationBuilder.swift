/// Puts a configuration together from its sources, lowest precedence first:
/// compiled defaults, the preset, X resources (general, then the preset's), the config file
/// (general, then the preset's section), the command line. Remembers where each value came
/// from, for `--print-config`.
public struct ConfigurationBuilder: Sendable {
    public enum Source: Equatable, Sendable, CustomStringConvertible {
        case defaults
        case preset(String)
        case resources(preset: String?)
        case file(path: String, line: Int)
        /// A `[rule NAME]` section that matched a script's toast.
        case rule(String)
        case commandLine

        public var description: String {
            switch self {
            case .defaults: "default"
            case .preset(let name): "preset \(name)"
            case .resources(let preset): preset.map { "X resource xtoast.\($0).*" } ?? "X resource xtoast.*"
            case .file(let path, let line): "\(path):\(line)"
            case .rule(let name): "rule \(name)"
            case .commandLine: "command line"
            }
        }
    }

    public private(set) var configuration = Configuration()
    /// For each option set, the text it was set to and where that came from.
    public private(set) var origins: [String: (value: String, source: Source)] = [:]
    /// Bad entries in the files and resources: they are skipped, never fatal (a notification
    /// tool must not go silent because of a typo).
    public private(set) var warnings: [String] = []

    public init() {}

    /// Starts from a built-in design (`toast`, `alert`, `hud`); false if `name` is none of them.
    @discardableResult
    public mutating func apply(builtInPreset name: String) -> Bool {
        guard let style = Style.presets[name] else { return false }
        configuration.style = style
        configuration.duration = style.defaultDuration
        configuration.icon = style.defaultIcon
        // What the preset changed is reported as coming from it.
        let defaults = Configuration()
        for definition in OptionTable.all {
            guard let current = definition.current, let value = current(configuration), value != current(defaults) else { continue }
            origins[definition.name] = (value, .preset(name))
        }
        return true
    }

    /// Applies the command line; its errors are the caller's usage errors.
    public mutating func apply(commandLine options: [(definition: OptionDefinition, value: String)]) throws(OptionError) {
        for (definition, value) in options {
            try definition.apply(value, to: &configuration)
            origins[definition.name] = (value, .commandLine)
        }
    }

    /// Applies X resources: the general ones, then those of `preset`.
    public mutating func apply(resources: [XResources.Entry], preset: String?) {
        let earlier = warnings.count
        defer { limitWarnings(from: earlier, place: "X resources") }
        for entry in resources where entry.preset == nil {
            applyQuietly(entry.key, entry.value, source: .resources(preset: nil), place: "X resource xtoast.\(entry.key)")
        }
        guard let preset else { return }
        for entry in resources where entry.preset == preset {
            applyQuietly(entry.key, entry.value, source: .resources(preset: preset), place: "X resource xtoast.\(preset).\(entry.key)")
        }
    }

    /// Applies a config file: its general part, then the section of `preset`.
    public mutating func apply(file: ConfigFile, path: String, preset: String?) {
        let earlier = warnings.count
        for problem in file.problems { warnings.append("\(path):\(problem.line): \(problem.message)") }
        let entries = file.global.map { ($0, true) } + (preset.flatMap { file.sections[$0] } ?? []).map { ($0, false) }
        for (entry, general) in entries {
            applyQuietly(
                entry.key, entry.value, source: .file(path: path, line: entry.line), place: "\(path):\(entry.line): \(entry.key)",
                serviceSettings: general)
        }
        // Reported in the order of the file's lines.
        let lineNumber = { (warning: String) in Int(warning.dropFirst(path.count + 1).prefix { $0.isNumber }) ?? 0 }
        warnings[earlier...].sort { lineNumber($0) < lineNumber($1) }
        limitWarnings(from: earlier, place: path)
    }

    /// Applies the look settings of the rules that matched a script's toast (over the config
    /// file's, under the command line's).
    public mutating func apply(rules verdict: RuleVerdict) {
        for item in verdict.settings {
            applyQuietly(
                item.setting.key, item.setting.value, source: .rule(item.rule), place: "rule \(item.rule): \(item.setting.key)")
        }
    }

    /// A source reports at most this many problems: a binary file given as `--config` has
    /// thousands of bad lines, and the first few say what is wrong.
    public static let warningsPerSource = 10

    /// Keeps the first `warningsPerSource` warnings since `start` and counts the rest.
    private mutating func limitWarnings(from start: Int, place: String) {
        let extra = warnings.count - start - Self.warningsPerSource
        guard extra > 0 else { return }
        warnings.removeLast(extra)
        warnings.append("\(place): \(extra) more problem\(extra == 1 ? "" : "s") not shown")
    }

    /// `serviceSettings`: the notification service's settings may be given here (the config
    /// file's general part), not only the look's.
    private mutating func applyQuietly(_ key: String, _ value: String, source: Source, place: String, serviceSettings: Bool = false) {
        guard let definition = OptionTable.named(key) else {
            warnings.append("\(place): unknown setting")
            return
        }
        switch definition.scope {
        case .look: break
        case .invocation:
            warnings.append("\(place): a command-line option, not a setting")
            return
        case .service:
            guard serviceSettings else {
                warnings.append("\(place): a setting of the notification service, read from the config file's general part only")
                return
            }
        }
        do {
            try definition.apply(value, to: &configuration)
            origins[key] = (value, source)
        } catch {
            warnings.append("\(place): \(error.message)")
        }
    }

    /// `--print-config`: every setting a file or resource may hold, its value, and its source.
    public var report: String {
        OptionTable.all.filter { $0.scope != .invocation && !$0.hidden }.map { definition in
            let origin = origins[definition.name]
            let value = origin?.value ?? definition.current?(configuration) ?? definition.defaultText ?? ""
            let padded = definition.name.padding(to: 12)
            let line = "\(padded) = \(value)".padding(to: 40) + "  # \(origin?.source.description ?? Source.defaults.description)"
            // A value or path from a file or another client's resources may hold anything.
            return TerminalText.line(line)
        }.joined(separator: "\n")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
