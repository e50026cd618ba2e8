/// Reads the command line with the option table: GNU-style `--name value`, `--name=value`,
/// `-b`, `--` before words that start with a dash. Values are taken as they come, so
/// `--offset -20,0` is a value, not an option.
public enum CommandLineParser {
    public struct Parsed {
        /// The options in the order given, with their values ("true" for a flag).
        public var options: [(definition: OptionDefinition, value: String)] = []
        /// The message's words, before and after `--`.
        public var words: [String] = []
        /// The words after `--`, nil without one: the command of `--run`.
        public var afterDoubleDash: [String]?
        /// The words before `--`.
        public var wordsBeforeDoubleDash: [String] { Array(words.dropLast(afterDoubleDash?.count ?? 0)) }
    }

    public static func parse(_ arguments: [String]) throws(OptionError) -> Parsed {
        var parsed = Parsed()
        var index = 0
        func takeValue(for definition: OptionDefinition, given: String?) throws(OptionError) -> String {
            if definition.isFlag {
                // A setting that is a flag can be turned off again: --stack=false.
                guard given == nil || definition.scope == .look else { throw OptionError("option '--\(definition.name)' takes no value") }
                return given ?? "true"
            }
            if let given { return given }
            guard index + 1 < arguments.count else { throw OptionError("missing value for '\(definition.synopsis)'") }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                parsed.afterDoubleDash = Array(arguments[(index + 1)...])
                parsed.words += arguments[(index + 1)...]
                break
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = body.prefix { $0 != "=" }
                let given = name.count < body.count ? String(body.dropFirst(name.count + 1)) : nil
                guard let definition = OptionTable.named(String(name)) else { throw OptionError("unknown option '--\(name)'") }
                parsed.options.append((definition, try takeValue(for: definition, given: given)))
            } else if argument.hasPrefix("-") && argument.count > 1 {
                // Short flags may be grouped (-bh); a short option with a value comes last.
                for (offset, letter) in argument.dropFirst().enumerated() {
                    guard let definition = OptionTable.named(short: letter) else { throw OptionError("unknown option '-\(letter)'") }
                    if !definition.isFlag && offset != argument.count - 2 {
                        throw OptionError("missing value for '\(definition.synopsis)'")
                    }
                    parsed.options.append((definition, try takeValue(for: definition, given: nil)))
                }
            } else {
                parsed.words.append(argument)
            }
            index += 1
        }
        return parsed
    }
}
