import CX11
import Foundation
import Testing

/// The config file's `[rule NAME]` sections on scripts' toasts (issue #30): a toast is from
/// `--app NAME` (notify-send's `-a`), or from xtoast.
extension OnScreen {
    @Suite struct ScriptRules {
        static let config = """
            [rule backups]
            app = backup
            popup = false

            [rule spam]
            app = spam
            drop = true

            [rule mail]
            category = email
            popup = false

            [rule disk]
            summary = *disk*
            run = sh -c 'printf "%s|%s|%s\\n" "$XTOAST_APP" "$XTOAST_SUMMARY" "$XTOAST_URGENCY" > "$OUT"'
            preset = alert
            """

        /// One kept unseen (in the history as `quiet`), by its app or by notify-send's category,
        /// one dropped (nowhere), none on screen; one matched by its text runs its command with its fields and shows in the
        /// rule's preset.
        @Test func rulesKeepDropRunAndRestyle() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let folder = temporaryPath("-rules")
            try FileManager.default.createDirectory(atPath: folder + "/xtoast", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Self.config.write(toFile: folder + "/xtoast/config", atomically: true, encoding: .utf8)
            let out = folder + "/ran"
            let environment: [String: String?] = ["XDG_CONFIG_HOME": folder, "XDG_STATE_HOME": folder + "/state", "OUT": out]

            let quiet = try XToastProcess.run(
                ["--app", "backup", "--print-outcome", "Backup done"], display: display, environment: environment)
            #expect(quiet.status == 0 && quiet.stdout == "quiet\n", "\(quiet)")
            let dropped = try XToastProcess.run(
                ["-a", "spam", "Buy now"], display: display, environment: environment, executable: try NotifySendDropIn.link())
            #expect(dropped.status == 0, "\(dropped)")
            let mail = try XToastProcess.run(
                ["-c", "email.arrived", "New mail"], display: display, environment: environment, executable: try NotifySendDropIn.link())
            #expect(mail.status == 0, "\(mail)")
            // Neither showed: the next toast mapped is the one after them.
            let marker = try XToastProcess(
                ["--duration", "0.3", "--print-outcome", "Disk almost full"], display: display, environment: environment)
            let window = try #require(try watcher.waitForToasts().first)
            #expect(watcher.longs(window, "_NET_WM_PID", type: Atom(XA_CARDINAL)) == [UInt(marker.child.pid)])
            #expect(try marker.wait().stdout == "expired\n")
            let ran = try waitForValue("the rule's command writes its file") { try? String(contentsOfFile: out, encoding: .utf8) }
            #expect(ran == "xtoast|Disk almost full|normal\n")

            let history = try XToastProcess.run(["--history"], display: display, environment: environment).stdout
            #expect(history.contains("quiet (not shown)  Backup done"), "\(history)")
            #expect(history.contains("quiet (not shown)  New mail"), "\(history)")
            #expect(!history.contains("Buy now"), "\(history)")
            let explained = try XToastProcess.run(["--print-config", "Disk almost full"], display: display, environment: environment)
            #expect(explained.stdout.contains("# preset alert"), "\(explained.stdout)")
            let category = try XToastProcess.run(
                ["--print-config", "--category", "email.arrived", "New mail"], display: display, environment: environment)
            #expect(category.stdout.contains("# rule mail: matches: popup = false"), "\(category.stdout)")
        }

        /// A `--run` toast a rule keeps from the screen still runs its command, with its status.
        @Test func aQuietRunStillRunsItsCommand() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let folder = temporaryPath("-rules")
            try FileManager.default.createDirectory(atPath: folder + "/xtoast", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Self.config.write(toFile: folder + "/xtoast/config", atomically: true, encoding: .utf8)
            let environment: [String: String?] = ["XDG_CONFIG_HOME": folder, "XDG_STATE_HOME": folder + "/state"]
            watcher.discardEvents()
            let ran = try XToastProcess.run(
                ["--app", "backup", "--run", "--", "sh", "-c", "echo done > \(folder)/ran; exit 3"], display: display,
                environment: environment)
            #expect(ran.status == 3, "\(ran)")
            #expect((try? String(contentsOfFile: folder + "/ran", encoding: .utf8)) == "done\n")
            // Nothing showed: the next toast mapped is the one after it.
            let marker = try XToastProcess(["--duration", "0.2", "After"], display: display, environment: environment)
            let window = try #require(try watcher.waitForToasts().first)
            #expect(watcher.longs(window, "_NET_WM_PID", type: Atom(XA_CARDINAL)) == [UInt(marker.child.pid)])
            _ = try marker.wait()
        }
    }
}
