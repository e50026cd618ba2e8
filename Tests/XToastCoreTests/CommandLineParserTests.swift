import Testing

@testable import XToastCore

/// The options of a parse as `name=value` strings, in order, to compare with `==`.
private func options(_ parsed: CommandLineParser.Parsed) -> [String] {
    parsed.options.map { "\($0.definition.name)=\($0.value)" }
}

@Suite("Command line parser")
struct CommandLineParserTests {
    @Test(
        "Options and words, in order",
        arguments: [
            // --name value and --name=value
            (["--duration", "3", "Hello"], ["duration=3"], ["Hello"]),
            (["--duration=3", "Hello"], ["duration=3"], ["Hello"]),
            // Values are taken as they come, even when they start with '-'.
            (["--offset=-20,0", "Hi"], ["offset=-20,0"], ["Hi"]),
            (["--offset", "-20,0", "Hi"], ["offset=-20,0"], ["Hi"]),
            (["--font", "--stack"], ["font=--stack"], []),
            (["--tag", "--"], ["tag=--"], []),
            (["--tag", "-"], ["tag=-"], []),
            // Only the first '=' separates; an empty value is a value.
            (["--font=a=b"], ["font=a=b"], []),
            (["--font="], ["font="], []),
            (["--tag", ""], ["tag="], []),
            // Flags get "true".
            (["--stack", "--detach"], ["stack=true", "detach=true"], []),
            (["-b"], ["detach=true"], []),
            // Grouped short flags, in the order written.
            (["-bh"], ["detach=true", "help=true"], []),
            (["-hb"], ["help=true", "detach=true"], []),
            (["-b", "-h"], ["detach=true", "help=true"], []),
            // "--" ends the options: what follows is words, dashes and all; a second "--" is a word.
            (["--", "--stack", "-b", "-"], [], ["--stack", "-b", "-"]),
            (["--stack", "--", "--help"], ["stack=true"], ["--help"]),
            (["a", "--", "--", "b"], [], ["a", "--", "b"]),
            (["--"], [], []),
            // A lone "-" and an empty argument are words.
            (["-"], [], ["-"]),
            ([""], [], [""]),
            // Words between options keep their order.
            (["Hello", "--stack", "big", "--duration", "2", "world"], ["stack=true", "duration=2"], ["Hello", "big", "world"]),
            // Repeated options are all kept, in order (the last one wins when applied).
            (["--duration", "2", "--duration=3"], ["duration=2", "duration=3"], []),
            (["--stack", "--stack"], ["stack=true", "stack=true"], []),
            ([], [], []),
        ] as [([String], [String], [String])])
    func parses(arguments: [String], expectedOptions: [String], expectedWords: [String]) throws {
        let parsed = try CommandLineParser.parse(arguments)
        #expect(options(parsed) == expectedOptions)
        #expect(parsed.words == expectedWords)
    }

    @Test(
        "Usage errors",
        arguments: [
            (["--x"], "unknown option '--x'"),
            (["--x=1"], "unknown option '--x'"),
            (["--Stack"], "unknown option '--Stack'"),
            (["-z"], "unknown option '-z'"),
            (["-bz"], "unknown option '-z'"),
            // A word that starts with '-' needs "--" before it.
            (["-5", "degrees"], "unknown option '-5'"),
            (["--duration"], "missing value for '--duration <time>'"),
            (["Hello", "--offset"], "missing value for '--offset <x,y>'"),
            (["--action=true"], "option '--action' takes no value"),
            (["--detach="], "option '--detach' takes no value"),
            (["--help=1"], "option '--help' takes no value"),
            // An error anywhere is an error, even after --help.
            (["--help", "--x"], "unknown option '--x'"),
        ] as [([String], String)])
    func rejects(arguments: [String], expected: String) {
        #expect(throws: OptionError(expected)) { try CommandLineParser.parse(arguments) }
    }

    @Test("Values are not checked by the parser: that is the option's job")
    func valuesAreCheckedWhenApplied() throws {
        let parsed = try CommandLineParser.parse(["--duration", "--help"])
        #expect(options(parsed) == ["duration=--help"])
        var configuration = Configuration()
        #expect(throws: OptionError.self) { try parsed.options[0].definition.apply(parsed.options[0].value, to: &configuration) }
    }

    @Test("Words are passed through untouched: spaces, newlines, non-ASCII")
    func wordsUntouched() throws {
        let words = ["  two  spaces ", "line\nbreak", "Громкость 🔊", "=", "a=b"]
        #expect(try CommandLineParser.parse(words).words == words)
    }
}

@Suite("Command line parser: settings that are flags")
struct FlagSettingTests {
    @Test(
        "A flag that is a setting can be turned off again",
        arguments: [("--stack=false", false), ("--stack=true", true), ("--stack", true)])
    func stackOff(argument: String, expected: Bool) throws {
        var builder = ConfigurationBuilder()
        try builder.apply(commandLine: CommandLineParser.parse([argument]).options)
        #expect(builder.configuration.stack == expected)
    }

    @Test("An empty value for a flag setting is a bad value, not a flag")
    func emptyFlagValue() throws {
        var builder = ConfigurationBuilder()
        #expect(throws: OptionError("invalid stack \"\": expected true or false")) {
            try builder.apply(commandLine: CommandLineParser.parse(["--stack="]).options)
        }
    }
}
