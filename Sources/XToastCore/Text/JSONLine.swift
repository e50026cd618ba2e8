/// One JSON object on one line (JSON Lines), for `--history --json` and `--list --json`.
/// Values come from other clients and files: strings are escaped so that the line is valid
/// JSON whatever they hold, and inert on a terminal.
public struct JSONLine {
    private var members: [String] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String?) {
        members.append(Self.quoted(key) + ":" + (value.map(Self.quoted) ?? "null"))
    }

    public mutating func add(_ key: String, _ value: Int?) {
        members.append(Self.quoted(key) + ":" + (value.map(String.init) ?? "null"))
    }

    public mutating func add(_ key: String, _ value: Bool) {
        members.append(Self.quoted(key) + ":" + (value ? "true" : "false"))
    }

    public mutating func add(_ key: String, _ values: [String]) {
        members.append(Self.quoted(key) + ":[" + values.map(Self.quoted).joined(separator: ",") + "]")
    }

    /// The object, without a newline.
    public var text: String { "{" + members.joined(separator: ",") + "}" }

    /// A JSON string: quotes and backslashes escaped, and what may not reach a terminal raw
    /// (`TerminalText.mustEscape`: control characters, bidirectional controls), and the line and
    /// paragraph separators, which some JSON readers take for line ends.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where TerminalText.mustEscape(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
