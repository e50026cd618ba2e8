/// The checks on a command line as a whole, past each option's own: options that cannot go
/// together, and what `--run` runs. Pure, so that they are tested without a process.
public enum Invocation {
    /// The command `--run` runs (nil without `--run`), once the combination is known to make
    /// sense; a usage error otherwise.
    public static func check(_ request: Configuration, _ parsed: CommandLineParser.Parsed) throws(OptionError) -> [String]? {
        var command: [String]?
        if request.run {
            guard let words = parsed.afterDoubleDash, !words.isEmpty else { throw OptionError("--run needs a command after --") }
            if request.followStandardInput { throw OptionError("--run and --stdin cannot be used together") }
            if request.delay != nil || request.at != nil {
                throw OptionError("--run starts the command now: it cannot wait for --in or --at")
            }
            command = words
        }
        if request.detach {
            // A detached toast has nobody to report to and no input to read.
            for (given, name) in [
                (request.run, "--run"), (request.action, "--action"), (request.followStandardInput, "--stdin"),
                (request.printOutcome, "--print-outcome"), (!request.buttons.isEmpty, "--button"),
                (request.reply != nil, "--reply"),
            ] where given {
                throw OptionError("--detach returns at once: it cannot be used with \(name)")
            }
        }
        return command
    }
}
