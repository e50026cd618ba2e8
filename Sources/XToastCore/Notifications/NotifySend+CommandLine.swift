/// notify-send's command line as GLib's option parser reads it.
extension NotifySend {
    /// The options in order (long names, with their values) and the other words.
    struct CommandLine {
        var options: [(name: String, value: String?)] = []
        var words: [String] = []

        /// The options that take a value, long name by short letter.
        static let valued: [Character: String] = [
            "u": "urgency", "t": "expire-time", "a": "app-name", "i": "icon", "c": "category", "h": "hint", "r": "replace-id",
            "A": "action",
        ]
        static let flags: [Character: String] = ["e": "transient", "p": "print-id", "w": "wait", "v": "version", "?": "help"]

        init(_ arguments: [String]) throws(OptionError) {
            var index = 0
            /// The next argument, as an option's value.
            func value(for option: String) throws(OptionError) -> String {
                guard index < arguments.count else { throw OptionError("missing value for '\(option)'") }
                index += 1
                return arguments[index - 1]
            }
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                if argument == "--" {
                    words += arguments[index...]
                    break
                } else if argument.hasPrefix("--") {
                    let body = argument.dropFirst(2)
                    let name = String(body.prefix { $0 != "=" })
                    let given = name.count < body.count ? String(body.dropFirst(name.count + 1)) : nil
                    // notify-send's words are GLib's option with the empty name: `--=text` is
                    // the word `text`. A flag takes no `=value`.
                    if name.isEmpty, let given {
                        words.append(given)
                    } else if Self.valued.values.contains(name) {
                        if let given { options.append((name, given)) } else { options.append((name, try value(for: "--\(name)"))) }
                    } else if Self.flags.values.contains(name) && given == nil {
                        options.append((name, nil))
                    } else {
                        throw OptionError("unknown option '\(argument)'")
                    }
                } else if argument.hasPrefix("-") && argument.count > 1 {
                    // GLib's short options: grouped letters, each option that takes a value takes
                    // the next argument (`-t500` is -t, -5, -0, -0, as GLib reads it).
                    for letter in argument.dropFirst() {
                        if let name = Self.flags[letter] {
                            options.append((name, nil))
                        } else if let name = Self.valued[letter] {
                            options.append((name, try value(for: "-\(letter)")))
                        } else {
                            throw OptionError("unknown option '-\(letter)'")
                        }
                    }
                } else {
                    // A lone "-" is a word too.
                    words.append(argument)
                }
            }
        }
    }
}
