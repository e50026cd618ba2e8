import CX11
import Foundation
import Testing
import XToastCore

/// The notification centre (`xtoast --center`, issue #29) on the shared display under picom,
/// with a private bus whose service the bus activates from its package file: it lists what was
/// kept, its keys reach the application through the service (started again for the call), one
/// `--center` closes another, and ten thousand entries open and answer the keyboard.
extension OnScreen {
    @Suite(.serialized) struct NotificationCenter {
        /// A bus whose notifications' toasts last 0.3 s, its history the test's own.
        private func quickBus(_ display: String) throws -> (PrivateBus, String) {
            let config = temporaryPath("-config")
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            try "[rule keeper]\napp = keeper\nduration = 0.3\nfade-in = 0\nfade-out = 0\n".write(
                toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            return (
                try PrivateBus(display: display, environment: ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": config + "/state"]), config
            )
        }

        /// The client's notification, once its toast is over and it is kept.
        private func kept(_ bus: PrivateBus, _ watcher: XWatcher) throws -> PrivateBus.Client {
            let client = try bus.start([
                "/usr/bin/python3", "-c", NotificationPersistence.client(actions: #"["default", "", "open", "Open"]"#),
            ])
            let toast = try #require(try watcher.waitForToasts().first)
            _ = try watcher.waitForDestroy(toast)
            // A file the service writes: nothing to wait on but it.
            try waitUntil("the notification kept") {
                ((try? FileManager.default.contentsOfDirectory(atPath: bus.folder + "/xtoast/kept")) ?? []).contains {
                    $0.first?.isNumber == true
                }
            }
            return client
        }

        /// Opens the centre on the right monitor; the process and its window once its first
        /// frame is out (`_XTOAST_SHOWN` on it, as a toast's ticket says).
        /// Its history is the bus's own (the shared display's holds the other tests' toasts, which
        /// the centre would list too).
        private func openCenter(_ bus: PrivateBus, _ display: String, _ watcher: XWatcher) throws -> (PrivateBus.Client, Window) {
            try movePointer(to: rightMonitor.x + 500, 500, display: display)
            let center = try bus.start(["env", "DISPLAY=\(display)", "XDG_STATE_HOME=\(bus.folder)/state", try xtoastBinary(), "--center"])
            let window = try waitForValue("the centre's first frame", timeout: 20) { () -> Window? in
                watcher.stackingOrder().first {
                    watcher.classHint($0)?.name == "xtoast-center"
                        && watcher.longs($0, "_NET_WM_PID", type: Atom(XA_CARDINAL)) == [UInt(center.child.pid)]
                        && !watcher.longs($0, "_XTOAST_SHOWN", type: Atom(XA_CARDINAL)).isEmpty
                }
            }
            return (center, window)
        }

        private func key(_ keys: String..., display: String) throws { try runTool("xdotool", ["key"] + keys, display: display) }

        /// Tab chooses the kept notification's button, Enter presses it: the client, still
        /// waiting, hears the action (the service that kept it had gone; the bus started one for
        /// the call), then its close; the centre has closed. It was drawn at the right edge of
        /// the pointer's monitor, in the toasts' colours, over the desktop's.
        @Test func aButtonPressedInTheCentreReachesTheApplication() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let (bus, config) = try quickBus(display)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let client = try kept(bus, watcher)
            let (center, window) = try openCenter(bus, display, watcher)
            let frame = try #require(watcher.geometry(window))
            #expect(frame.x + frame.width <= rightMonitor.x + rightMonitor.width && frame.x > rightMonitor.x + rightMonitor.width / 2)
            // Inside it, not the desktop's colour; beside it, the desktop's.
            try waitUntil("the compositor shows the centre") {
                let shot = try Screenshot(display: display)
                let inside = shot.pixel(frame.x + frame.width / 2, frame.y + frame.height - 40)
                let beside = shot.pixel(frame.x - 20, frame.y + 40)
                return inside != backgroundColour && beside == backgroundColour
            }
            try key("Tab", "Return", display: display)
            #expect(try center.result(timeout: 20).status == 0)
            let output = try client.finish(timeout: 20)
            #expect(output.hasSuffix("\naction open\nclosed 2\n"), "\(output)")
            try expectOthersStillShow(display, watcher)
        }

        /// Delete dismisses the entry: the client hears it closed as dismissed (2). A second
        /// `--center` closes the open one, and both end with status 0.
        @Test func deleteDismissesAndASecondCenterClosesTheFirst() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let (bus, config) = try quickBus(display)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let client = try kept(bus, watcher)
            let (center, _) = try openCenter(bus, display, watcher)
            try key("Delete", display: display)
            let output = try? client.finish(timeout: 20)
            if output == nil {
                try key("Escape", display: display)
                Issue.record("the client heard no close; the centre said: \(String(describing: try? center.result(timeout: 5)))")
            }
            #expect(output?.hasSuffix("\nclosed 2\n") == true, "\(String(describing: output))")
            let second = try bus.start(["env", "DISPLAY=\(display)", try xtoastBinary(), "--center"]).result(timeout: 20)
            #expect(second.status == 0 && second.stderr.isEmpty, "\(second)")
            let first = try center.result(timeout: 20)
            #expect(first.status == 0 && first.stderr.isEmpty, "\(first)")
            try expectOthersStillShow(display, watcher)
        }

        /// Ten thousand kept notifications, and hostile files among them (garbage, a huge one, a
        /// command line that runs something): it opens, End and Escape answer, and a click
        /// outside would have closed it too.
        @Test func tenThousandEntriesOpenAndAnswerTheKeyboard() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let folder = bus.folder + "/xtoast/kept"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for id in 1...10_000 {
                var request = NotificationRequest()
                (request.appName, request.summary, request.body) = ("App \(id % 50)", "Message \(id)", "Body of \(id)")
                let toast = NotificationToast(id: UInt32(id), request: request, icon: nil)
                let bytes = KeptNotifications.encode(Dispatcher.Notification(id: UInt32(id), toast: toast, time: 1_800_000_000 + id))
                FileManager.default.createFile(atPath: "\(folder)/\(id)", contents: Data(bytes))
            }
            FileManager.default.createFile(atPath: "\(folder)/10001", contents: Data(repeating: 0x41, count: 4 << 20))
            FileManager.default.createFile(atPath: "\(folder)/10002", contents: Data("id=10002\tt=1\targ=--run\targ=--\targ=rm\n".utf8))
            FileManager.default.createFile(atPath: "\(folder)/10003", contents: Data([0xff, 0xfe, 0x00, 0x0a]))
            let (center, _) = try openCenter(bus, display, watcher)
            try key("End", "Escape", display: display)
            let ended = try center.result(timeout: 20)
            #expect(ended.status == 0 && ended.stderr.isEmpty, "\(ended)")
            try expectOthersStillShow(display, watcher)
        }

        /// A client floods while the centre is open (a rule keeps its 300 notifications unseen,
        /// each a file of the store as it comes): the centre lists them as they come, and still
        /// answers the keyboard.
        @Test func aFloodWhileItIsOpen() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let config = temporaryPath("-config")
            defer { try? FileManager.default.removeItem(atPath: config) }
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            try "keep-notifications = 1000\n[rule flood]\napp = flood\npopup = false\n".write(
                toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            let bus = try PrivateBus(display: display, environment: ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": config + "/state"])
            let (center, _) = try openCenter(bus, display, watcher)
            let sent = try bus.run([
                "/usr/bin/python3", "-c",
                """
                import dbus
                server = dbus.Interface(dbus.SessionBus().get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                for n in range(300): server.Notify("flood", 0, "", "Flood %d" % n, "x" * 2000, [], {}, -1)
                print("sent")
                """,
            ])
            #expect(sent == "sent\n")
            // The centre marks what it lists read as it comes: the marker reaching the last id
            // says it read them all (a file it writes: nothing to wait on but it).
            try waitUntil("the centre lists all 300", timeout: 30) {
                (try? String(contentsOfFile: bus.folder + "/xtoast/kept/read-up-to", encoding: .utf8)) == "300\n"
            }
            try runTool("xdotool", ["key", "End", "Home", "Escape"], display: display)
            #expect(try center.result(timeout: 20).status == 0)
            try expectOthersStillShow(display, watcher)
        }

        /// A click outside closes it, as a menu's would.
        @Test func aClickOutsideClosesIt() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let (center, _) = try openCenter(bus, display, watcher)
            try runTool("xdotool", ["mousemove", String(rightMonitor.x + 100), "600", "click", "1"], display: display)
            #expect(try center.result(timeout: 20).status == 0)
            try expectOthersStillShow(display, watcher)
        }
    }
}

/// Rules that act (issue #30), through the service the bus activates: one notification goes to
/// the centre unseen, one is dropped at once, one runs a command told its fields; only the last
/// shows.
extension OnScreen {
    @Suite(.serialized) struct RulesThatAct {
        @Test func popupFalseDropAndRunDoWhatTheySay() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let config = temporaryPath("-config")
            defer { try? FileManager.default.removeItem(atPath: config) }
            let written = config + "/ran"
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            try """
            [rule backups]
            summary = *backup*
            popup = false
            [rule noisy]
            app = Spammer
            drop = true
            [rule deploy]
            summary = *deploy*
            duration = 1
            run = sh -c 'printf "%s|%s|%s" "$XTOAST_APP" "$XTOAST_SUMMARY" "$XTOAST_URGENCY" > \(written)'
            """.write(toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            let bus = try PrivateBus(display: display, environment: ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": config + "/state"])
            watcher.discardEvents()
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                """
                import dbus, dbus.mainloop.glib
                from gi.repository import GLib
                dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
                bus = dbus.SessionBus()
                server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                loop = GLib.MainLoop()
                spam = []
                def closed(id, reason):
                    if id in spam:
                        print("spam closed", reason, flush=True)
                        loop.quit()
                bus.add_signal_receiver(closed, "NotificationClosed", "org.freedesktop.Notifications")
                server.Notify("Backups", 0, "", "Backup finished", "", [], {}, -1)
                spam.append(server.Notify("Spammer", 0, "", "Buy now", "", [], {}, -1))
                server.Notify("CI", 0, "", "Deploy done", "", [], {}, -1)
                GLib.timeout_add(20000, loop.quit)
                loop.run()
                """,
            ])
            #expect(try client.finish(timeout: 30) == "spam closed 2\n")
            // The first toast to show is the deploy's: the backup's never did.
            let toast = try #require(try watcher.waitForToasts().first)
            let listed = try bus.run(["env", "DISPLAY=\(display)", try xtoastBinary(), "--list"])
            #expect(listed.contains("Deploy done"), "\(listed)")
            #expect(listed.contains("Backups: Backup finished"), "\(listed)")
            #expect(!listed.contains("Buy now"), "\(listed)")
            // A file the command writes: nothing to wait on but it.
            let ran = try waitForValue("the rule's command ran", timeout: 20) { () -> String? in
                let text = try? String(contentsOfFile: written, encoding: .utf8)
                return text?.isEmpty == false ? text : nil
            }
            #expect(ran == "CI|Deploy done|normal")
            _ = try watcher.waitForDestroy(toast)
            #expect(watcher.mappedToasts().isEmpty)
            try expectOthersStillShow(display, watcher)
        }
    }
}

/// Quiet that stays quiet (issue #30): twelve notifications during a pause end as one summary
/// toast, the twelve kept in the centre; a click on the summary opens the centre.
extension OnScreen {
    @Suite(.serialized) struct AfterAPause {
        @Test func twelveDuringAPauseAreOneSummaryThatOpensTheCentre() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            _ = try XToastProcess.run(["--pause"], display: display)
            var resumed = false
            defer { if !resumed { _ = try? XToastProcess.run(["--resume"], display: display) } }
            let sent = try bus.run([
                "/usr/bin/python3", "-c",
                """
                import dbus
                server = dbus.Interface(dbus.SessionBus().get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                for n in range(12): server.Notify("Signal" if n < 8 else "Mail", 0, "", "Message %d" % n, "", [], {}, -1)
                print("sent")
                """,
            ])
            #expect(sent == "sent\n")
            // Files the service writes: nothing to wait on but them.
            try waitUntil("all twelve kept", timeout: 20) {
                ((try? FileManager.default.contentsOfDirectory(atPath: bus.folder + "/xtoast/kept")) ?? []).filter {
                    $0.first?.isNumber == true
                }
                .count == 12
            }
            #expect(watcher.mappedToasts().isEmpty)
            watcher.discardEvents()
            _ = try XToastProcess.run(["--resume"], display: display)
            resumed = true
            let summary = try #require(try watcher.waitForToasts().first)
            let listed = try bus.run(["env", "DISPLAY=\(display)", try xtoastBinary(), "--list"])
            #expect(listed.contains("While you were away: 12"), "\(listed)")
            #expect(listed.split(separator: "\n").filter { $0.hasPrefix("kept") }.count == 12, "\(listed)")
            // A click on it: the centre opens.
            let frame = try #require(watcher.geometry(summary))
            try click(frame, display: display)
            let center = try waitForValue("the centre opens", timeout: 20) { () -> Window? in
                watcher.stackingOrder().first {
                    watcher.classHint($0)?.name == "xtoast-center" && !watcher.longs($0, "_XTOAST_SHOWN", type: Atom(XA_CARDINAL)).isEmpty
                }
            }
            try runTool("xdotool", ["key", "Escape"], display: display)
            _ = try watcher.waitForDestroy(center)
            try expectOthersStillShow(display, watcher)
        }
    }
}

/// Do not disturb held by a process (issue #30): `xtoast --inhibit -- COMMAND` holds
/// applications' notifications through the service's `Inhibit` while the command runs; a
/// `kill -9` of it ends the inhibition (the bus tells the service), and what came is one summary.
extension OnScreen {
    @Suite(.serialized) struct Inhibit {
        @Test func anInhibitionHoldsAndAKillReleases() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let inhibited = [
                "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Notifications", "Inhibited",
            ]
            let holder = try bus.start(["env", "DISPLAY=\(display)", try xtoastBinary(), "--inhibit", "--", "sleep", "60"])
            try waitUntil("the service says it is inhibited", timeout: 20) { try bus.run(inhibited).contains("true") }
            _ = try bus.run([
                "/usr/bin/python3", "-c",
                """
                import dbus
                server = dbus.Interface(dbus.SessionBus().get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                for app in ["Signal", "Mail", "Chat"]: server.Notify(app, 0, "", "From " + app, "", [], {}, -1)
                """,
            ])
            // Kept, unseen (files the service writes: nothing to wait on but them).
            try waitUntil("three kept", timeout: 20) {
                ((try? FileManager.default.contentsOfDirectory(atPath: bus.folder + "/xtoast/kept")) ?? []).filter {
                    $0.first?.isNumber == true
                }
                .count == 3
            }
            #expect(watcher.mappedToasts().isEmpty)
            watcher.discardEvents()
            kill(holder.child.pid, SIGKILL)
            _ = holder.child.wait(timeout: 10)
            let summary = try #require(try watcher.waitForToasts().first)
            let listed = try bus.run(["env", "DISPLAY=\(display)", try xtoastBinary(), "--list"])
            #expect(listed.contains("While you were away: 3"), "\(listed)")
            #expect(try bus.run(inhibited).contains("false"))
            _ = try watcher.waitForDestroy(summary)
            // Its command's status is its own.
            let ended = try bus.start(["env", "DISPLAY=\(display)", try xtoastBinary(), "--inhibit", "--", "sh", "-c", "exit 3"]).result(
                timeout: 20)
            #expect(ended.status == 3 && ended.stderr.isEmpty, "\(ended)")
            try expectOthersStillShow(display, watcher)
        }

        /// A SIGTERM sent to `xtoast --inhibit` goes on to its command, which may clean up; the
        /// inhibition ends with it, and its status is the holder's.
        @Test func aSignalToTheHolderReachesItsCommand() throws {
            let (display, _) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let inhibited = [
                "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Notifications", "Inhibited",
            ]
            let marker = temporaryPath("-terminated")
            let ready = temporaryPath("-trapped")
            defer { [marker, ready].forEach { try? FileManager.default.removeItem(atPath: $0) } }
            let holder = try bus.start([
                "env", "DISPLAY=\(display)", try xtoastBinary(), "--inhibit", "--", "sh", "-c",
                "trap 'echo cleaned > \(marker); exit 7' TERM; : > \(ready); while :; do sleep 0.05; done",
            ])
            try waitUntil("the service says it is inhibited", timeout: 20) { try bus.run(inhibited).contains("true") }
            // The inhibition comes before the command runs: its trap is set once it says so.
            try waitUntil("the command traps SIGTERM", timeout: 20) { FileManager.default.fileExists(atPath: ready) }
            kill(holder.child.pid, SIGTERM)
            let ended = try holder.result(timeout: 20)
            #expect(ended.status == 7, "\(ended)")
            #expect((try? String(contentsOfFile: marker, encoding: .utf8)) == "cleaned\n")
            try waitUntil("the inhibition ends", timeout: 10) { try bus.run(inhibited).contains("false") }
        }
    }
}
