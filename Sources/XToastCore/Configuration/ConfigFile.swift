/// The config file (`$XDG_CONFIG_HOME/xtoast/config`): `key = value` lines with the long
/// option names, `#` comment lines, and `[name]` sections that are presets of the user's own.
public struct ConfigFile: Sendable {
    public struct Entry: Equatable, Sendable {
        public var key: String
        public var value: String
        public var line: Int
    }

    /// The settings before the first section.
    public var global: [Entry] = []
    /// The presets, by name.
    public var sections: [String: [Entry]] = [:]
    /// Lines that could not be read: line number and what is wrong.
    public var problems: [(line: Int, message: String)] = []

    public init(parsing text: String) {
        var section: String?
        // "\r\n" is one Character in Swift: splitting on "\n" alone reads a CRLF file as one line.
        // A byte-order mark some editors write is not part of the first key.
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        let lines = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, raw) in lines.enumerated() {
            let line = index + 1
            let content = raw.trimmingSpaces.filter { $0 != "\r" }
            // Comment lines start with # or ;. Colours start with '#' too, so after a value a
            // comment needs a space before it: `radius = 6   # rounder`.
            if content.isEmpty || content.hasPrefix("#") || content.hasPrefix(";") { continue }
            if content.hasPrefix("[") {
                guard content.hasSuffix("]"), content.count > 2 else {
                    problems.append((line, "expected [name]"))
                    continue
                }
                let name = String(content.dropFirst().dropLast()).trimmingCharacters
                guard !name.isEmpty else {
                    problems.append((line, "expected [name]"))
                    continue
                }
                section = name
                if sections[name] == nil { sections[name] = [] }
                continue
            }
            guard let equals = content.firstIndex(of: "=") else {
                problems.append((line, "expected key = value"))
                continue
            }
            let key = String(content[..<equals]).trimmingCharacters
            guard !key.isEmpty else {
                problems.append((line, "expected key = value"))
                continue
            }
            var value = ConfigFile.withoutComment(String(content[content.index(after: equals)...]).trimmingCharacters)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            let entry = Entry(key: key, value: value, line: line)
            if let section { sections[section, default: []].append(entry) } else { global.append(entry) }
        }
    }
}

extension ConfigFile {
    /// A value without a trailing ` # comment` (a '#' after white space, not at its start).
    static func withoutComment(_ value: String) -> String {
        var previous: Character = "#"
        for index in value.indices {
            let c = value[index]
            if c == "#" && previous.isWhitespace { return String(value[..<index]).trimmingCharacters }
            previous = c
        }
        return value
    }
}

/// xtoast's entries in an X resource database string (`RESOURCE_MANAGER`, what `xrdb` loads):
/// `xtoast.KEY: value` for everyone, `xtoast.PRESET.KEY: value` for one preset.
public enum XResources {
    public struct Entry: Equatable, Sendable {
        public var preset: String?
        public var key: String
        public var value: String
    }

    public static func entries(in database: String) -> [Entry] {
        var entries: [Entry] = []
        for line in database.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpaces
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, parts[0] == "xtoast" || parts[0] == "Xtoast" else { continue }
            let value = String(line[line.index(after: colon)...].trimmingSpaces)
            entries.append(Entry(preset: parts.count == 3 ? String(parts[1]) : nil, key: String(parts.last!), value: value))
        }
        return entries
    }
}

extension StringProtocol {
    var trimmingCharacters: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    var trimmingSpaces: Substring { Substring(self).trimmingSpaces }
}
