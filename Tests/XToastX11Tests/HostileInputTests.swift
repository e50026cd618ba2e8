import CX11
import Foundation
import Testing

/// Input whose cost is not bounded by its length, files that are not files, settings that cannot
/// be used, floods, and control characters: none may make a toast hang, vanish or write what it
/// wants to the terminal (docs/manual.md, "What bad input gets").
extension OnScreen {
    @Suite struct HostileInput {
        /// Short-lived toasts, so that each case ends quickly.
        static let quick = ["--fade-in", "0", "--duration", "0.1", "--fade-out", "0"]

        func writeFile(_ bytes: Data, _ suffix: String) throws -> String {
            let path = temporaryPath(suffix)
            guard FileManager.default.createFile(atPath: path, contents: bytes) else { throw TestFailure("cannot write \(path)") }
            return path
        }

        func makeFIFO() throws -> String {
            let path = temporaryPath(".fifo")
            guard mkfifo(path, 0o600) == 0 else { throw TestFailure("cannot make the FIFO \(path)") }
            return path
        }

        /// Shows a toast and returns its window's size and the result, once it is gone.
        func show(_ arguments: [String], display: String, watcher: XWatcher, stdin: Data? = nil) throws -> (
            size: (width: Int, height: Int), result: XToastProcess.Result
        ) {
            let toast = try XToastProcess(Self.quick + arguments, display: display, stdin: stdin)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            try watcher.waitForDestroy(window)
            return ((frame.width, frame.height), try toast.wait(timeout: 10))
        }

        // MARK: Text

        /// One letter with 100,000 combining marks is one character: it took HarfBuzz 54 s.
        @Test func combiningMarksWithoutEndShowAtOnce() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let marks = "a" + String(repeating: "\u{0301}", count: 100_000) + " end"
            let (_, result) = try show(["-"], display: display, watcher: watcher, stdin: Data(marks.utf8))
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            try expectOthersStillShow(display, watcher)
        }

        /// `--max-lines` holds across paragraphs, and the box stays on its monitor whatever the
        /// text, padding and scale.
        @Test func theBoxNeverOutgrowsItsLinesOrItsMonitor() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let lines = { (count: Int) in (1...count).map(String.init).joined(separator: "\n") }
            let twelve = try show([lines(12)], display: display, watcher: watcher).size
            let hundred = try show([lines(100)], display: display, watcher: watcher)
            #expect(hundred.result.status == 0)
            #expect(hundred.size.height == twelve.height, "100 lines: \(hundred.size), 12 lines: \(twelve)")
            for arguments in [["--scale", "2", "--max-lines", "1000", "-"], ["--padding", "1000", "--scale", "4", "hi"]] {
                let stdin = Data(lines(2000).utf8)
                let (size, result) = try show(arguments, display: display, watcher: watcher, stdin: stdin)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(size.width <= 1920 && size.height <= 1080, "\(arguments): the window is \(size)")
            }
            try expectOthersStillShow(display, watcher)
        }

        // MARK: Files

        /// A FIFO blocks whoever opens it for reading; a device never ends.
        @Test(arguments: ["FIFO", "/dev/zero"])
        func anIconThatIsNotAFileIsRefusedAtOnce(kind: String) throws {
            let (display, watcher) = try prepareSharedDisplay()
            let path = kind == "FIFO" ? try makeFIFO() : kind
            defer { if kind == "FIFO" { unlink(path) } }
            let result = try XToastProcess.run(["--icon", path, "Hello"], display: display, timeout: 5)
            #expect(result.status == 1)
            let kindText = kind == "FIFO" ? "a FIFO" : "a character device"
            #expect(result.stderr == "xtoast: cannot read icon \"\(path)\": \(kindText), not a regular file\n")
            try expectOthersStillShow(display, watcher)
        }

        /// 389 bytes can declare 20000×20000 pixels: 1.6 GB once decoded.
        @Test func aPNGDeclaringAHugeSizeIsRefusedBeforeDecoding() throws {
            let (display, watcher) = try prepareSharedDisplay()
            var header = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
            header += Data([0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0]) + Data(repeating: 0, count: 360)
            let path = try writeFile(header, ".png")
            defer { unlink(path) }
            let result = try XToastProcess.run(["--icon", path, "Hello"], display: display, timeout: 5)
            #expect(result.status == 1)
            #expect(result.stderr == "xtoast: cannot read icon \"\(path)\": 20000x20000 pixels, larger than 4096x4096\n")
            try expectOthersStillShow(display, watcher)
        }

        /// From a config file or X resources (which any client on the display may set), a
        /// setting that cannot be used is a warning naming where it came from, and the toast
        /// shows without it.
        @Test func unusableSettingsFromFilesAndResourcesAreWarnings() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let fifo = try makeFIFO()
            let resources = try writeFile(Data("xtoast.icon: \(fifo)\n".utf8), ".Xresources")
            let home = temporaryPath("-home")
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            defer {
                unlink(fifo)
                unlink(resources)
                try? FileManager.default.removeItem(atPath: home)
            }
            try runTool("xrdb", ["-merge", resources], display: server.name)
            let fromResources = try XToastProcess(Self.quick + ["Resources"], display: server.name)
            try watcher.waitForDestroy(try #require(try watcher.waitForToasts().first))
            let result = try fromResources.wait(timeout: 10)
            #expect(result.status == 0)
            #expect(
                result.stderr
                    == "xtoast: warning: X resource xtoast.*: icon: cannot read icon \"\(fifo)\": a FIFO, not a regular file; showing the toast without it\n"
            )

            // A config file that is a FIFO, one with a missing icon and a font too large to draw,
            // and one whose icon is under ~/.
            try runTool("xrdb", ["-remove"], display: server.name)
            let icon = try Data(contentsOf: URL(fileURLWithPath: try repositoryFile("Resources/toast.png")))
            _ = FileManager.default.createFile(atPath: home + "/icon.png", contents: icon)
            let bad = try writeFile(Data("icon = /nonexistent/icon.png\nfont = Sans 100000\nmonitor = HDMI-9\n".utf8), ".config")
            let tilde = try writeFile(Data("icon = ~/icon.png\n".utf8), ".config")
            defer {
                unlink(bad)
                unlink(tilde)
            }
            let cases: [(String, String)] = [
                (fifo, "xtoast: warning: cannot read config file \"\(fifo)\": a FIFO, not a regular file\n"),
                (
                    bad,
                    "xtoast: warning: \(bad):2: font: invalid font \"Sans 100000\": the size must be from 1 to 1000\n"
                        + "xtoast: warning: \(bad):1: icon: cannot read icon \"/nonexistent/icon.png\": no such file or directory; "
                        + "showing the toast without it\n"
                        + "xtoast: warning: \(bad):3: monitor: no monitor \"HDMI-9\" (monitors: 0 screen); "
                        + "showing it on the default monitor, pointer\n"
                ),
                (tilde, ""),
            ]
            for (config, expected) in cases {
                let toast = try XToastProcess(
                    Self.quick + ["--config", config, "Config"], display: server.name, environment: ["HOME": home])
                try watcher.waitForDestroy(try #require(try watcher.waitForToasts().first))
                let result = try toast.wait(timeout: 10)
                #expect(result.status == 0, "\(config)")
                #expect(result.stderr == expected)
            }
        }

        /// More than the 1 MiB read is said, not cut without a word.
        @Test func aConfigFileOverAMebibyteIsSaid() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let config = try writeFile(Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 10), ".config")
            defer { unlink(config) }
            let (_, result) = try show(["--config", config, "Big config"], display: display, watcher: watcher)
            #expect(result.status == 0)
            #expect(result.stderr == "xtoast: warning: \(config): larger than 1 MiB; only its beginning is read\n")
            try expectOthersStillShow(display, watcher)
        }

        // MARK: Floods and the terminal

        /// Another client can send a toast thousands of malformed commands: one line says so.
        @Test func aFloodOfMalformedCommandsIsOneWarning() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let victim = try XToastProcess(["--duration", "sticky", "--print-outcome", "Flooded"], display: display)
            _ = try watcher.waitForToasts()
            let ticket = Window(try #require(watcher.queue().last))
            var event = XEvent()
            event.xclient.type = ClientMessage
            event.xclient.window = ticket
            event.xclient.message_type = watcher.atom("_XTOAST_COMMAND")
            event.xclient.format = 32
            for i in 0..<20_000 {
                event.xclient.data.l.0 = 1000 + i
                XSendEvent(watcher.display, ticket, 0, 0, &event)
            }
            XSync(watcher.display, 0)
            #expect(try XToastProcess.run(["--dismiss"], display: display).status == 0)
            let result = try victim.wait()
            #expect(result.stdout == "dismissed\n")
            #expect(
                result.stderr
                    == "xtoast: warning: ignored a malformed _XTOAST_COMMAND message\n"
                    + "xtoast: warning: 19999 more warnings like those above were not printed\n")
            try expectOthersStillShow(display, watcher)
        }

        /// An escape sequence in a value would retitle or clear the terminal; a newline would
        /// split the one line.
        @Test func controlCharactersNeverReachTheTerminal() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let result = try XToastProcess.run(["--duration", "\u{1B}]0;pwned\u{7}\n\u{9B}2J", "Hello"], display: display)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("xtoast: invalid duration \"\\x1B]0;pwned\\x07\\n\\u{9B}2J\""), "\(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
            let long = try XToastProcess.run(["--radius", String(repeating: "9", count: 100_000), "Hello"], display: display)
            #expect(long.status == 64)
            #expect(long.stderr.count <= 1001 && long.stderr.hasSuffix("(see xtoast --help)\n"), "\(long.stderr.count) characters")
            let path = "/nonexistent/\u{1B}[2J\nconfig"
            let (_, missing) = try show(["--config", path, "Hello"], display: display, watcher: watcher)
            #expect(
                missing.stderr == "xtoast: warning: cannot read config file \"/nonexistent/\\x1B[2J\\nconfig\": no such file or directory\n"
            )
            try expectOthersStillShow(display, watcher)
        }
    }
}
