import CX11
import Foundation
import Testing

/// Links in a toast's text (`<a href>` under `--markup`): a click on one opens it with the
/// desktop's opener, and nothing else does. The opener is a fake `xdg-open`, first on `PATH`,
/// that writes down each argument it is given.
extension OnScreen {
    @Suite(.serialized) struct Links {
        static let url = "https://example.com/notes?a=1&b=2"

        /// A folder with the fake opener in it, and what it was given so far.
        final class FakeOpener {
            let folder = temporaryPath("-opener")
            var opened: String { folder + "/opened" }

            init() throws {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let script = "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(opened)\n"
                try script.write(toFile: folder + "/xdg-open", atomically: true, encoding: .utf8)
                chmod(folder + "/xdg-open", 0o755)
            }

            /// `PATH` with the fake first.
            var path: String { "\(folder):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")" }

            /// The URLs it was given, in order.
            var urls: [String] { ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

            deinit { try? FileManager.default.removeItem(atPath: folder) }
        }

        /// A script's toast: a click on the link opens it and leaves the toast up; a click beside
        /// it is the toast's click, and opens nothing.
        @Test func aClickOnALinkInAScriptsToastOpensIt() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let opener = try FakeOpener()
            let toast = try XToastProcess(
                [
                    "--markup", "--duration", "sticky", "--print-outcome",
                    "<a href=\"https://example.com/notes?a=1&amp;b=2\">Open the release notes</a>",
                ], display: display, environment: ["PATH": opener.path])
            let window = try #require(try watcher.waitForToasts().first)
            let box = try #require(watcher.clickableBox(window))
            try click(box, display: display)
            try waitUntil("the opener run with the link's URL") { !opener.urls.isEmpty }
            #expect(opener.urls == [Self.url])
            #expect(watcher.mappedToasts().contains(window), "a click on the link closed the toast")

            // Its left padding, beside the text.
            try click((box.x + 2, box.y + box.height / 2, 1, 1), display: display)
            let result = try toast.wait()
            #expect(result.stdout == "clicked\n")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(opener.urls == [Self.url])
            try expectOthersStillShow(display, watcher)
        }
    }
}
