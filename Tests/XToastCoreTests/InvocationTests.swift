import Testing

@testable import XToastCore

@Suite("Invocation")
struct InvocationTests {
    static func check(_ arguments: [String]) throws(OptionError) -> [String]? {
        let parsed = try CommandLineParser.parse(arguments)
        var builder = ConfigurationBuilder()
        try builder.apply(commandLine: parsed.options)
        return try Invocation.check(builder.configuration, parsed)
    }

    @Test("--run runs the words after --")
    func run() throws {
        #expect(try Self.check(["--run", "Backing up", "--", "rsync", "-a", "src/", "dst/"]) == ["rsync", "-a", "src/", "dst/"])
        #expect(try Self.check(["Hello"]) == nil)
        #expect(try Self.check(["-b", "Hello"]) == nil)
    }

    @Test(
        "Options that cannot go together are usage errors",
        arguments: [
            (["--run", "x"], "--run needs a command after --"), (["--run", "--"], "--run needs a command after --"),
            (["--run", "--stdin", "--", "ls"], "--run and --stdin cannot be used together"),
            (["--run", "--in", "5m", "--", "ls"], "--run starts the command now"),
            (["--run", "--at", "14:00", "--", "ls"], "--run starts the command now"),
            (["-b", "--action", "x"], "--detach returns at once: it cannot be used with --action"),
            (["-b", "--stdin"], "--detach returns at once: it cannot be used with --stdin"),
            (["-b", "--print-outcome", "x"], "--detach returns at once: it cannot be used with --print-outcome"),
            (["-b", "--button", "OK", "x"], "--detach returns at once: it cannot be used with --button"),
        ])
    func refused(arguments: [String], message: String) {
        #expect {
            try Self.check(arguments)
        } throws: { error in
            (error as? OptionError)?.message.hasPrefix(message) == true
        }
    }
}
