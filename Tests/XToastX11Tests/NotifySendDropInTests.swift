import CX11
import Foundation
import Testing

/// xtoast invoked as `notify-send`: the same command lines as libnotify's notify-send, and the
/// toast on a real server.
extension OnScreen {
    @Suite struct NotifySendDropIn {
        /// A `notify-send` link to the xtoast under test.
        static func link() throws -> String {
            let folder = temporaryPath("-bin")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/notify-send"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: try xtoastBinary())
            return path
        }

        /// Command lines as scripts write them, and broken ones: the real notify-send (with no
        /// notification daemon to reach, which it says only once it has read its command line)
        /// and xtoast (with no display to reach) accept and refuse the same ones.
        @Test func acceptsWhatTheRealNotifySendAccepts() throws {
            let real = "/usr/bin/notify-send"
            guard FileManager.default.isExecutableFile(atPath: real) else {
                throw TestFailure("libnotify's notify-send is not installed (the test command installs libnotify-bin)")
            }
            let ours = try Self.link()
            defer { try? FileManager.default.removeItem(atPath: (ours as NSString).deletingLastPathComponent) }
            let cases: [[String]] = [
                ["Hello"], ["Title", "Body"], ["-u", "critical", "x"], ["-u", "low", "x"], ["-u", "urgent", "x"], ["-t", "500", "x"],
                ["-t500", "x"], ["--expire-time=0", "x"], ["-t", "soon", "x"], ["-i", "dialog-information", "x", "y"],
                ["-a", "app", "-c", "email", "-e", "x"], ["-h", "int:value:40", "x"], ["-h", "string:x-dunst-stack-tag:vol", "x"],
                ["-h", "bad", "x"], ["-h", "float:value:1", "x"], ["-r", "12", "x"], ["-r", "x", "y"], ["-p", "x"],
                ["--bogus", "x"], ["-z", "x"], [], ["a", "b", "c"], ["--", "-5 °C"], ["x", "-t"], ["-eu", "low", "x"],
            ]
            for arguments in cases {
                let theirs = try XToastProcess.run(
                    arguments, display: nil, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"], executable: real,
                    timeout: 10)
                let theirsAccepted = theirs.stderr.contains("Could not connect")
                let result = try XToastProcess.run(arguments, display: nil, executable: ours, timeout: 10)
                let oursAccepted = result.stderr.hasPrefix("xtoast: no display")
                #expect(theirsAccepted == oursAccepted, "\(arguments): notify-send said \(theirs.stderr), xtoast said \(result.stderr)")
                #expect(result.status == 1, "\(arguments)")
            }
        }

        /// Without -w it returns at once and the toast shows; a tag hint replaces in place;
        /// with an action a click answers with the action's name.
        @Test func showsReplacesAndAnswers() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let ours = try Self.link()
            defer { try? FileManager.default.removeItem(atPath: (ours as NSString).deletingLastPathComponent) }
            let first = try XToastProcess.run(
                ["-t", "5000", "-h", "string:x-dunst-stack-tag:vol", "-h", "int:value:40", "Volume"], display: display, executable: ours,
                timeout: 5)
            #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
            let window = try #require(try watcher.waitForToasts().first)
            let second = try XToastProcess.run(
                ["-t", "100", "-h", "string:x-dunst-stack-tag:vol", "-h", "int:value:60", "Volume"], display: display, executable: ours,
                timeout: 5)
            #expect(second.status == 0)
            // The first goes once the second is drawn over it, long before its 5 s.
            let gone = try watcher.waitForDestroy(window, timeout: 3)
            #expect(gone < 3)

            // One button: a click in the middle of the row, low in the box, hits it.
            let asking = try XToastProcess(["-A", "yes=Yes", "Continue?"], display: display, executable: ours)
            let question = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(question))
            try click((frame.x, frame.y + frame.height - 22, frame.width, 4), display: display)
            let answer = try asking.wait()
            #expect(answer.status == 0)
            #expect(answer.stdout == "yes\n")
            try expectOthersStillShow(display, watcher)
        }
    }
}
