import CX11
import Foundation
import Testing

extension OnScreen {
    /// A toast's text reaches a running screen reader once, politely, and nothing is said when
    /// none runs or the user opted out (docs/manual.md, "Screen readers"). Each test has its own X server
    /// (the root's `AT_SPI_BUS` is changed) and its own session bus with fakes on it.
    @Suite struct ScreenReaders {
        static let quick = ["--duration", "0.3", "--fade-in", "0", "--fade-out", "0"]

        /// Shows a toast with `arguments` against `fake`; returns xtoast's result once it is gone.
        func show(
            _ arguments: [String], fake: FakeScreenReader, publishBus: Bool = true, until expected: String? = nil
        ) throws -> XToastProcess.Result {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            if publishBus { FakeScreenReader.publishAccessibilityBus(on: watcher.display) }
            let toast = try XToastProcess(Self.quick + arguments, display: server.name, environment: fake.environment)
            _ = try watcher.waitForToasts()
            if let expected { try waitUntil("the fake is told \"\(expected)\"") { fake.log.contains(expected) } }
            // The conversation ends within ScreenReader.timeLimit of the first frame, long before
            // the toast does: once xtoast has exited, the log holds everything it said.
            return try toast.wait()
        }

        @Test func speechDispatcherHearsTheTitleAndTheMessageOnceAtThePolitePriority() throws {
            let fake = try FakeScreenReader(status: .enabled)
            let result = try show(
                ["--markup", "--title", "Build", "--progress", "40", "Done &amp; <b>dusted</b>"], fake: fake,
                until: "ssip Build. Done & dusted, 40%")
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(fake.log.filter { $0.hasPrefix("ssip ") } == ["ssip Build. Done & dusted, 40%"], "\(fake.log)")
            #expect(fake.log.contains("ssip-priority message"))
        }

        @Test(arguments: [FakeScreenReader.Orca.current, .older])
        func orcasRemoteControllerPresentsItAndSpeechDispatcherHearsNothing(orca: FakeScreenReader.Orca) throws {
            let fake = try FakeScreenReader(status: .enabled, orca: orca)
            let result = try show(["Line one\nline two"], fake: fake, until: "orca Line one line two")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(fake.log.filter { $0.hasPrefix("orca ") } == ["orca Line one line two"], "\(fake.log)")
            #expect(!fake.log.contains { $0.hasPrefix("ssip") }, "\(fake.log)")
        }

        @Test func nothingIsSaidWhenTheScreenReaderIsOff() throws {
            let fake = try FakeScreenReader(status: .disabled)
            let result = try show(["Quiet"], fake: fake)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            // It asked (IsEnabled is true there, and is not enough), and said nothing.
            #expect(fake.log == ["status-get ScreenReaderEnabled"])
        }

        @Test func nothingIsAskedWithoutAnAccessibilityBusOnTheDisplay() throws {
            let fake = try FakeScreenReader(status: .enabled, orca: .current)
            let result = try show(["Quiet"], fake: fake, publishBus: false)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(fake.log.isEmpty, "\(fake.log)")
        }

        @Test func theUserCanOptOutForOneCallOrInTheConfigFile() throws {
            let config = temporaryPath(".conf")
            try "announce = false\n".write(toFile: config, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: config) }
            for arguments in [["--no-announce", "Quiet"], ["--config", config, "Quiet"]] {
                let fake = try FakeScreenReader(status: .enabled, orca: .current)
                let result = try show(arguments, fake: fake)
                #expect(result.status == 0)
                #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
                #expect(fake.log.isEmpty, "\(arguments): \(fake.log)")
            }
        }

        @Test func aScreenReaderWithoutSpeechDispatcherGetsOneWarning() throws {
            let fake = try FakeScreenReader(status: .enabled, speechDispatcher: false)
            let result = try show(["Unheard"], fake: fake)
            #expect(result.status == 0)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(lines.first?.hasPrefix("xtoast: warning: a screen reader runs, but the toast was not announced") == true)
        }
    }
}
