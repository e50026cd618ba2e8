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

        /// Command lines as scripts write them (backups, downloads, battery, volume and
        /// brightness keys, mail, `notify-send "$(date)"`), values at libnotify's limits, and
        /// broken ones.
        static let lines: [[String]] = [
            // Scripts.
            ["Backup finished"], ["Backup", "Copied 1234 files to /mnt/backup"], ["-i", "firefox", "Download done", "report.pdf"],
            ["--icon=firefox", "Download complete"], ["-a", "Firefox", "-c", "transfer.complete", "-i", "firefox", "Download complete"],
            ["-u", "critical", "-i", "battery-caution", "Battery low", "5% remaining"],
            ["-u", "low", "-i", "audio-volume-high", "-h", "string:x-dunst-stack-tag:volume", "-h", "int:value:55", "Volume: 55%"],
            ["-h", "string:x-canonical-private-synchronous:brightness", "-h", "int:value:70", "Brightness"],
            ["-h", "string:x-canonical-private-synchronous:volume", "-h", "int:value:0", "-i", "audio-volume-muted", "Muted"],
            ["-t", "1500", "-h", "string:x-dunst-stack-tag:mpd", "Now playing", "Artist – Title"],
            ["-c", "email.arrived", "-i", "mail-unread", "New mail", "From: someone@example.org"], ["Wed Nov 25 17:00:00 UTC 2026"],
            ["-e", "-h", "int:transient:1", "Copied to clipboard"], ["--hint=int:transient:1", "Screenshot saved"],
            ["-h", "boolean:transient:true", "Transient"], ["-h", "string:desktop-entry:firefox", "x"],
            ["-h", "string:sound-name:message-new-instant", "x"], ["-h", "string:image-path:/nonexistent.png", "Image path"],
            ["-h", "string:image-path:file:///nonexistent.png", "x"], ["-i", "/nonexistent/icon.png", "Missing file"],
            ["-i", "file:///nonexistent/icon.png", "Missing file URL"], ["-i", "/etc/passwd", "Not an image"], ["-i", "", "No icon"],
            // Text.
            ["Multi", "line 1\nline 2\nline 3"], ["Two\nline summary"], ["<b>Bold</b> summary", "<i>italic</i> body & more"],
            ["Broken <b markup", "body <u"], ["Title", ""], ["Привет", "Мир 🌍"], ["日本語", "テスト"], ["Tab\tTitle", "Body\twith\ttabs"],
            ["x", String(repeating: "long body ", count: 10_000)], ["100%"], ["back\\slash"], ["-"], ["--", "-5 °C"],
            ["Title", "--", "-body"], ["Title", "-t", "1000"], ["x", "-p"],
            // Values at libnotify's limits.
            ["-u", "CRITICAL", "x"], ["-u", "Low", "x"], ["-t", "0", "Sticky"], ["-t", "-1", "x"], ["-t", "-5", "x"],
            ["-t", "2147483647", "Weeks"], ["-t", "-2147483648", "x"], ["-t", "0x10", "x"], ["-t", " 5", "x"], ["-t", "010", "x"],
            ["-h", "int:value:150", "x"], ["-h", "int:value:99999999999", "x"], ["-h", "int:value:40abc", "x"],
            ["-h", "double:value:40.5", "x"], ["-h", "double:value:1e400", "x"], ["-h", "INT:value:5", "x"],
            ["-h", "string:x-dunst-stack-tag:", "x"], ["-h", "string:x-canonical-private-synchronous:", "x"],
            ["-h", "string:x-dunst-stack-tag:" + String(repeating: "t", count: 300), "x"], ["-h", "string:x-dunst-stack-tag:a:b:c", "x"],
            ["-h", "string:x-dunst-stack-tag:tab\ttag", "x"], ["-h", "string:x-dunst-stack-tag:new\nline", "x"],
            ["-h", "byte:urgency:2", "x"], ["-h", "byte:urgency:7", "x"], ["-h", "int:urgency:5", "x"], ["-h", "variant:foo:<42>", "x"],
            ["-h", "string::", "x"], ["-r", "0", "x"], ["-r", "12", "x"], ["-r", "2147483647", "x"], ["-r", "-1", "x"], ["-p", "x"],
            ["-p", "-r", "7", "x"], ["-c", "", "x"], ["-a", "", "x"], ["-c", "a", "-c", "b", "-i", "a", "-i", "b", "x"],
            ["-w", "-t", "1", "x"], ["-A", "yes=Yes", "-A", "no=No", "-t", "1", "Continue?"],
            ["-A", String(repeating: "long label ", count: 30), "-t", "1", "x"], ["-A", "=Empty name", "-t", "1", "x"],
            ["-A", "a=", "-t", "1", "x"], ["-A", "multi=Two\nlines", "-t", "1", "x"],
            ["-t", "1"] + (1...10).flatMap { ["-A", "\($0)"] } + ["Ten actions"], ["-eu", "low", "x"], ["--expire-time=500", "x"],
            ["--expire-time", "500", "x"], ["--urgency=low", "--app-name=foo", "x"], ["--=x", "y"],
            // Refused.
            [], [""], ["", "Body only"], ["a", "b", "c"], ["-u", "urgent", "x"], ["-u", "", "x"], ["-t", "soon", "x"], ["-t500", "x"],
            ["-t", "4294967295", "x"], ["-t", "5 ", "x"], ["-t", "", "x"], ["-h", "int:value:-10", "x"], ["-h", "int:value:abc", "x"],
            ["-h", "double:value:.5", "x"], ["-h", "byte:urgency:300", "x"], ["-h", "variant:foo:notgvariant", "x"], ["-h", "bad", "x"],
            ["-h", "float:value:1", "x"], ["-h", "string:foo", "x"], ["-r", "abc", "x"], ["-r", "4294967295", "x"], ["--bogus", "x"],
            ["-z", "x"], ["--help=x"], ["--app-name"], ["x", "-t"], ["--urgency"],
        ]

        /// Each line above, given to libnotify's notify-send with a (fake) notification daemon
        /// and to xtoast as notify-send on a real server: the same status, and what the real
        /// one delivers xtoast shows, with at most one line of warning (an icon left out).
        @Test func deliversWhatTheRealNotifySendDelivers() throws {
            let real = "/usr/bin/notify-send"
            guard FileManager.default.isExecutableFile(atPath: real) else {
                throw TestFailure("libnotify's notify-send is not installed (the test command installs libnotify-bin)")
            }
            #expect(Self.lines.count >= 100)
            let (display, watcher) = try prepareSharedDisplay()
            let daemon = try FakeNotificationDaemon()
            let ours = try Self.link()
            let folder = (ours as NSString).deletingLastPathComponent
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Quick toasts: only whether each shows matters here.
            try FileManager.default.createDirectory(atPath: folder + "/xtoast", withIntermediateDirectories: true)
            try "duration = 50ms\nanimation = none\nidle = 0\n".write(toFile: folder + "/xtoast/config", atomically: true, encoding: .utf8)
            var delivered = 0
            for arguments in Self.lines {
                let theirs = try XToastProcess.run(
                    arguments, display: nil, environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.busAddress], executable: real, timeout: 10)
                // libnotify itself aborts on a few lines (an empty hint name, an empty action):
                // nothing to compare with.
                guard theirs.status == 0 || theirs.status == 1 else { continue }
                watcher.discardEvents()
                let process = try XToastProcess(arguments, display: display, environment: ["XDG_CONFIG_HOME": folder], executable: ours)
                if theirs.status == 0 {
                    do {
                        _ = try watcher.waitForToasts(timeout: 10, orGone: true)
                    } catch {
                        throw TestFailure("\(arguments): \(error); xtoast said \((try? process.wait(timeout: 1))?.stderr ?? "nothing")")
                    }
                    _ = try XToastProcess.run(["--dismiss-all"], display: display)
                    delivered += 1
                }
                let result = try process.wait(timeout: 10)
                #expect(result.status == theirs.status, "\(arguments): notify-send said \(theirs.stderr), xtoast said \(result.stderr)")
                let warnings = result.stderr.split(separator: "\n")
                #expect(warnings.count <= 1, "\(arguments): \(result.stderr)")
                if arguments.contains("-p") { #expect(result.stdout.split(separator: "\n").count == 1, "\(arguments): \(result.stdout)") }
            }
            #expect(delivered >= 80)
            // Detached toasts that ended after their process did: wait for the screen to clear.
            try waitUntil("the last toasts are gone") { watcher.mappedToasts().isEmpty }
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
