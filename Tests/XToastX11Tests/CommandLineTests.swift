import Foundation
import Testing

/// Bad option values (given before a message) and the start of the one line each gets, with
/// exit 64: checked without a server here, and on a live display by the fault suite.
/// Each bad value's message is checked in-process (`XToastCommandTests`); here, that the
/// binary prints it as one line with status 64, for one of them.
let badOptionValues: [([String], String)] = [
    (["--background", "#zz0000"], "invalid background colour \"#zz0000\""),
    (["--no-such-option"], "unknown option '--no-such-option'"),
]

/// Messages with nothing to show: exit 64.
let blankMessages = ["", "   ", "\n\n", " \t\n "]

/// Bad input gets one line naming what failed and a documented exit status; these need no
/// X server (or one that does not exist).
struct CommandLineErrors {
    @Test func noDisplayIsOneClearLine() throws {
        let result = try XToastProcess.run(["Hello"], display: nil)
        #expect(result.status == 1)
        #expect(result.stderr == "xtoast: no display: DISPLAY is not set (use --render-png FILE to draw without X)\n")
    }

    @Test func aDisplayThatCannotBeOpened() throws {
        let result = try XToastProcess.run(["Hello"], display: ":987")
        #expect(result.status == 1)
        #expect(result.stderr == "xtoast: cannot open display \":987\": connection refused\n")
    }

    @Test(arguments: badOptionValues)
    func usageErrorsExit64WithOneLine(arguments: [String], message: String) throws {
        let result = try XToastProcess.run(arguments + ["Hello"], display: ":987")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("xtoast: " + message), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "not one line: \(result.stderr)")
    }

    @Test(arguments: blankMessages)
    func anEmptyMessageIsAUsageError(message: String) throws {
        let result = try XToastProcess.run([message], display: ":987")
        #expect(result.status == 64)
        #expect(result.stderr == "xtoast: empty message: give the text as arguments or on standard input\n")
    }

    @Test func emptyStandardInputIsAUsageError() throws {
        let result = try XToastProcess.run([], display: ":987", stdin: Data("\n \n".utf8))
        #expect(result.status == 64)
    }

    @Test func invalidUTF8IsReplacedWithAWarning() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xtoast-utf8-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bad = String(decoding: [0x62, 0x61, 0x64, 0xff, 0xfe], as: UTF8.self)
        // Pass the raw bytes through stdin: arguments in Foundation are always valid strings.
        let result = try XToastProcess.run(["--render-png", path, "-"], display: nil, stdin: Data([0x62, 0x61, 0x64, 0xff, 0xfe, 0x0a]))
        #expect(bad.contains("\u{FFFD}"))
        #expect(result.status == 0)
        #expect(result.stderr == "xtoast: warning: the message is not valid UTF-8; invalid bytes are shown as \u{FFFD}\n")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func renderPNGNeedsNoServerAndReportsAnUnwritableFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xtoast-render-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ok = try XToastProcess.run(["--render-png", path, "Tagged"], display: nil)
        #expect(ok.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: [0x89, 0x50, 0x4e, 0x47]))

        let bad = try XToastProcess.run(["--render-png", "/nonexistent/dir/x.png", "Tagged"], display: nil)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("xtoast: cannot write \"/nonexistent/dir/x.png\""))
    }

    @Test func aMegabyteOfTextIsCutNotFatal() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xtoast-big-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = Data(String(repeating: "lorem ipsum ", count: 90_000).utf8)
        let result = try XToastProcess.run(["--render-png", path], display: nil, stdin: text, timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try XToastProcess.run(["--help"], display: nil)
        #expect(help.status == 0)
        #expect(help.stdout.contains("--duration"))
        let version = try XToastProcess.run(["--version"], display: nil)
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("xtoast "))
    }
}

extension OnScreen {
    @Test func anUnknownMonitorNamesTheOnesThereAre() throws {
        let (display, _) = try prepareSharedDisplay()
        let result = try XToastProcess.run(["--monitor", "HDMI-9", "Hello"], display: display)
        #expect(result.status == 1)
        #expect(result.stderr == "xtoast: no monitor \"HDMI-9\" (monitors: 0 L, 1 R)\n")
    }
}

extension CommandLineErrors {
    /// All of them in-process (`XToastCommandTests`); here, the binary's way of saying two.
    @Test(arguments: [
        (["--in", "5m", "--at", "10:00"], "--in and --at cannot be used together"),
        (["--at", "2020-01-01T10:00"], "the time 2020-01-01 10:00:00 is in the past"),
    ])
    func schedulingAndQueueUsageErrors(arguments: [String], message: String) throws {
        let result = try XToastProcess.run(arguments + ["Hello"], display: ":987")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("xtoast: " + message), "\(result.stderr)")
    }
}
