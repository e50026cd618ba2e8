import Glibc
import Testing
import XToastCore

@testable import xtoast

/// The command line's checks, in-process: what `xtoast` would say and exit with, without
/// starting it, a display or a file.
@Suite("Command")
struct XToastCommandTests {
    /// Every bad value and every combination that makes no sense, as the binary would say it.
    static let badLines: [([String], String)] = [
        (["--background", "#zz0000"], "invalid background colour \"#zz0000\""),
        (["--background", "#12345"], "invalid background colour \"#12345\""),
        (["--foreground", "red"], "invalid foreground colour \"red\""),
        (["--foreground", "#ff00ff00ff"], "invalid foreground colour \"#ff00ff00ff\""),
        (["--duration", "nan"], "invalid duration \"nan\""),
        (["--duration", "-1"], "invalid duration \"-1\""),
        (["--duration", "1e9"], "invalid duration \"1e9\""),
        (["--duration", "1e400"], "invalid duration \"1e400\""),
        (["--duration", "forever"], "invalid duration \"forever\""),
        (["--fade-in", "-0.1"], "invalid fade-in \"-0.1\""),
        (["--fade-out", "inf"], "invalid fade-out \"inf\""),
        (["--position", "middle"], "invalid position \"middle\""),
        (["--offset", "10"], "invalid offset \"10\""),
        (["--radius", "-3"], "invalid radius \"-3\""),
        (["--max-lines", "1.5"], "invalid max-lines \"1.5\""),
        (["--scale", "inf"], "invalid scale \"inf\""),
        (["--easing", "cubic-bezier(2,0,1,1)"], "invalid easing"),
        (["--no-such-option"], "unknown option '--no-such-option'"),
        (["--at", "2020-01-01T10:00"], "the time 2020-01-01 10:00:00 is in the past"),
        (["--at", "25:00"], "invalid time \"25:00\""),
        (["--at", "2026-02-30T10:00"], "invalid time \"2026-02-30T10:00\""),
        (["--at", "10:00", "--tz", "Mars/Base"], "unknown time zone \"Mars/Base\""),
        (["--at", "10:00", "--tz", "../../etc/passwd"], "unknown time zone"),
        (["--tz", "UTC"], "--tz goes with --at"),
        (["--in", "30m1h"], "invalid delay \"30m1h\""),
        (["--in", "soon"], "invalid delay \"soon\""),
        (["--in", "5m", "--at", "10:00"], "--in and --at cannot be used together"),
        (["--tag", ""], "invalid tag \"\""),
        (["--dismiss", "--dismiss-all"], "--dismiss, --dismiss-all and --cancel-scheduled cannot be used together"),
        (["--run", "Build"], "--run needs a command after --"),
    ]

    @Test("Usage errors: one line naming the problem, status 64", arguments: badLines)
    func usageErrors(arguments: [String], expected: String) {
        #expect {
            _ = try XToastCommand(arguments: arguments + ["Hello"])
        } throws: { error in
            guard let error = error as? CommandError else { return false }
            return error.status == 64 && error.message.hasPrefix(expected) && error.message.hasSuffix("(see xtoast --help)")
                && !error.message.contains("\n")
        }
    }

    @Test("Help wins over the rest of the line, which is not judged")
    func helpWins() throws {
        let command = try XToastCommand(arguments: ["--help", "--in", "5s", "--at", "09:00"])
        #expect(command.request.mode == .help)
        #expect(command.delivery == .now)
    }

    @Test("--in and --run are read into what the toast will do")
    func values() throws {
        let later = try XToastCommand(arguments: ["--in", "90s", "Tea"])
        #expect(later.delivery == .after(90))
        #expect(later.runCommand == nil)
        let run = try XToastCommand(arguments: ["Building", "--run", "--", "make", "-j4"])
        #expect(run.runCommand == ["make", "-j4"])
        #expect(run.request.mode == .show)
        let dismiss = try XToastCommand(arguments: ["--dismiss-all", "--tag", "vol"])
        #expect(dismiss.request.mode == .dismissAll)
        #expect(dismiss.request.tag == "vol")
    }

    @Test("--render-png runs whole in-process: no display, a PNG written, status 0; a bad path is one line, status 1")
    func renderPNG() throws {
        let path = "/tmp/xtoast-command-test-\(getpid()).png"
        defer { unlink(path) }
        let status = try XToastCommand(arguments: ["--render-png", path, "--no-config", "Tagged"]).run()
        #expect(status == 0)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_size > 100)
        #expect {
            _ = try XToastCommand(arguments: ["--render-png", "/nonexistent/dir/x.png", "--no-config", "Tagged"]).run()
        } throws: { error in
            (error as? CommandError)?.status == 1
        }
    }
}
