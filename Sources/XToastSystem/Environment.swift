import Glibc

/// The process's environment: the one place where xtoast reads or changes it.
public enum Environment {
    /// The value of `name`, nil when it is unset or empty (an empty `$XDG_CONFIG_HOME` means
    /// the default, as the XDG specification says).
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Whether `name` is set at all, empty or not.
    public static func isSet(_ name: String) -> Bool { getenv(name) != nil }

    /// The value of `name` as it is, empty or not; nil when unset (to put it back as it was).
    public static func exactValue(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    public static func set(_ name: String, to value: String) { setenv(name, value, 1) }

    public static func unset(_ name: String) { unsetenv(name) }

    /// Every `NAME=value` of the environment, as a spawned program gets it.
    public static func all() -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return entries
    }
}
