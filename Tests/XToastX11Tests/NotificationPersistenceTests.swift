import CX11
import Foundation
import Testing

/// Notifications kept after their toasts (the spec's `persistence`, issue #29), on a private bus
/// with the service activated from its package file, against python3-dbus clients that stay on
/// the bus: what was kept is listed, its action reaches the application after the service that
/// showed it has gone (the bus starts another for the call), and it is closed only when the
/// user or the application ends it.
extension OnScreen {
    @Suite(.serialized) struct NotificationPersistence {
        /// A client that sends one notification with the server's time (`-1`) and prints its id,
        /// then every ActionInvoked and NotificationClosed for it, until one closes it.
        static func client(actions: String, hints: String = "{}") -> String {
            listeningClient(
                #"server.Notify("keeper", 0, "", "Build finished", "<b>all</b> green", \#(actions), \#(hints), -1)"#, printsID: true,
                milliseconds: 60000)
        }

        /// A quick toast for the client's notifications (`duration` seconds): the test waits for its end.
        static func quickRule(_ duration: Double) -> String {
            "[rule keeper]\napp = keeper\nduration = \(duration)\nfade-in = 0\nfade-out = 0\n"
        }

        /// Starts the bus with the quick rule, sends the client's notification and waits until its
        /// toast has come and gone and the service that showed it has exited; the client and its id.
        private func keptAfterTheService(
            _ bus: PrivateBus, _ watcher: XWatcher, actions: String, hints: String = "{}"
        ) throws -> (PrivateBus.Client, Int) {
            let client = try bus.start(["/usr/bin/python3", "-c", Self.client(actions: actions, hints: hints)])
            let toast = try #require(try watcher.waitForToasts().first)
            let service = try servicePID(bus)
            _ = try watcher.waitForDestroy(toast)
            // Not our child: its end sends us nothing to wait on.
            try waitUntil("the service exits when idle", timeout: 20) { kill(service, 0) != 0 }
            let id = try waitForValue("the client's id") { () -> Int? in
                let text = (try? String(contentsOfFile: client.output, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").first.flatMap { Int($0.split(separator: " ").last ?? "") }
            }
            return (client, id)
        }

        private func servicePID(_ bus: PrivateBus) throws -> Int32 {
            let owner = try bus.run([
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.Notifications",
            ])
            return try #require(Int32(owner.split(separator: " ").last?.filter(\.isNumber) ?? ""), "\(owner)")
        }

        private func xtoast(_ bus: PrivateBus, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try bus.start([try xtoastBinary()] + arguments).result(timeout: 30)
        }

        private func quickBus(_ display: String, duration: Double = 0.3) throws -> (PrivateBus, String) {
            let config = temporaryPath("-config")
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            try Self.quickRule(duration).write(toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            // Its history (the toasts') is the test's own too.
            let environment = ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": config + "/state"]
            return (try PrivateBus(display: display, environment: environment), config)
        }

        /// The toast expired and its service exited: the notification is listed as kept, and a
        /// press of its button reaches the client that is still waiting (ActionInvoked, then
        /// closed as dismissed); after that it is gone. A press on an id that is not there says
        /// so in one line, status 1.
        @Test func anActionReachesTheApplicationAfterItsToastAndItsService() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let (bus, config) = try quickBus(display)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let (client, id) = try keptAfterTheService(bus, watcher, actions: #"["default", "", "open", "Open"]"#)

            let listed = try xtoast(bus, ["--list"])
            #expect(listed.stdout.contains("kept       id \(id)  "), "\(listed)")
            #expect(listed.stdout.contains("keeper: Build finished — all green  buttons: Open"), "\(listed)")
            let json = try xtoast(bus, ["--list", "--json"])
            #expect(json.stdout.contains(#"{"state":"kept","id":\#(id),"#), "\(json)")

            let pressed = try xtoast(bus, ["--press", "Open", "--notification", "\(id)"])
            #expect(pressed.status == 0, "\(pressed)")
            #expect(try client.finish(timeout: 20) == "id \(id)\naction open\nclosed 2\n")
            #expect(!(try xtoast(bus, ["--list"])).stdout.contains("kept"))

            let missing = try xtoast(bus, ["--press", "--notification", "\(id)"])
            #expect(missing.status == 1)
            #expect(missing.stderr == "xtoast: no notification \(id) is kept or showing\n", "\(missing)")
            try expectOthersStillShow(display, watcher)
        }

        /// CloseNotification on a kept one closes it (3), from a service that started after the
        /// one that kept it.
        @Test func theApplicationClosesAKeptOne() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let (bus, config) = try quickBus(display)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let (client, id) = try keptAfterTheService(bus, watcher, actions: "[]")
            _ = try bus.run([
                "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.CloseNotification", "\(id)",
            ])
            #expect(try client.finish(timeout: 20) == "id \(id)\nclosed 3\n")
            #expect(!(try xtoast(bus, ["--list"])).stdout.contains("kept"))
        }

        /// Resident: an action leaves it kept, with no NotificationClosed; shown again, its toast's
        /// button still reaches the client; dismissed, it is closed (2).
        @Test func aResidentOneStaysAfterItsActions() throws {
            let (display, watcher) = try prepareSharedDisplay()
            // Long enough for the pointer to reach the button shown again (it holds the toast then).
            let (bus, config) = try quickBus(display, duration: 2)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let (client, id) = try keptAfterTheService(
                bus, watcher, actions: #"["next", "Next"]"#, hints: #"{"resident": dbus.Boolean(True)}"#)
            #expect(try xtoast(bus, ["--press", "Next", "--notification", "\(id)"]).status == 0)
            let refused = try xtoast(bus, ["--press", "Previous", "--notification", "\(id)"])
            #expect(refused.status == 1 && refused.stderr == "xtoast: notification \(id) has no button \"Previous\"\n", "\(refused)")
            #expect(try xtoast(bus, ["--list"]).stdout.contains("id \(id)"))

            // Shown again: a toast with its button; a click on it is the action.
            watcher.discardEvents()
            #expect(try xtoast(bus, ["--reshow", "--notification", "\(id)"]).status == 0)
            let again = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(again))
            try click((frame.x, frame.y + frame.height - 22, frame.width, 4), display: display)
            _ = try watcher.waitForDestroy(again)
            #expect(try xtoast(bus, ["--dismiss", "--notification", "\(id)"]).status == 0)
            #expect(try client.finish(timeout: 20) == "id \(id)\naction next\naction next\nclosed 2\n")
            try expectOthersStillShow(display, watcher)
        }

        /// Twenty notifications of one application in one go: one toast, replaced in place as they
        /// come, that counts them, not twenty turns; afterwards all twenty are kept (the centre's)
        /// and in the history.
        @Test func aBurstIsOneToastAndAllOfItIsKept() throws {
            let (display, watcher) = try prepareSharedDisplay()
            // Longer than the burst's pace (a second), so that the first toast is replaced, not over.
            let (bus, config) = try quickBus(display, duration: 2)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let state = config + "/state"
            let client = """
                import dbus
                server = dbus.Interface(dbus.SessionBus().get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                print(" ".join(str(int(server.Notify("keeper", 0, "", "Message %d" % n, "", [], {}, -1))) for n in range(20)))
                """
            let ids = try bus.run(["env", "XDG_STATE_HOME=\(state)", "/usr/bin/python3", "-c", client]).split(separator: " ")
            #expect(ids.count == 20)
            // Files another process writes: nothing to wait on but them.
            let kept = bus.folder + "/xtoast/kept"
            try waitUntil("all twenty kept", timeout: 30) {
                ((try? FileManager.default.contentsOfDirectory(atPath: kept)) ?? []).filter { !$0.hasPrefix(".") }.count == 20
            }
            try waitUntil("the screen is calm") { watcher.mappedToasts().isEmpty }
            let listed = try xtoast(bus, ["--list"]).stdout.split(separator: "\n").filter { $0.hasPrefix("kept") }
            #expect(listed.count == 20)
            // The service writes the burst's entries a second after the first (a file another
            // process writes: nothing to wait on but it); the toasts write their own as they end.
            let history = try waitForValue("twenty entries in the history", timeout: 15) { () -> [String]? in
                let lines = try bus.run(["env", "XDG_STATE_HOME=\(state)", try xtoastBinary(), "--history", "--json"])
                    .split(separator: "\n").map(String.init)
                return lines.count == 20 ? lines : nil
            }
            // Each toast that showed was replaced in place by the next of the burst, never left to
            // run its course while the others waited: only the last expired, counting all twenty.
            let shown = history.filter { $0.contains(#""shown":true"#) }
            #expect(shown.filter { $0.contains(#""ending":"expired""#) }.count == 1, "\(shown)")
            #expect(shown.dropFirst().allSatisfy { $0.contains(#""ending":"replaced""#) }, "\(shown)")
            #expect(history.first?.contains(#""title":"keeper · 20 new","text":"Message 19""#) == true, "\(history)")
            try expectOthersStillShow(display, watcher)
        }

        /// `--service-idle never`, started by the session as kdialog needs: the name stays owned
        /// with nothing to show, long after the bus's service (2 s idle here) would have gone.
        /// Staying is the absence of an exit, which only time shows.
        @Test func aServiceForTheSessionStays() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let service = try XToastProcess(
                ["--notification-service", "--service-idle", "never"], display: display,
                environment: [
                    "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": bus.folder, "XTOAST_NOTIFICATION_IDLE": PrivateBus.idleTime,
                ])
            let hasOwner = [
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications",
            ]
            try waitUntil("the service owns the name") { try bus.run(hasOwner).contains("true") }
            _ = try bus.run(["notify-send", "-w", "-t", "200", "For the session"])
            Thread.sleep(forTimeInterval: 2 * (Double(PrivateBus.idleTime) ?? 2) + 1)
            #expect(try bus.run(hasOwner).contains("true"))
            // SIGTERM: it releases the name and ends.
            service.signal(SIGTERM)
            _ = try service.wait()
            try expectOthersStillShow(display, watcher)
        }

        /// More sticky notifications than the service runs toast processes for (32): the rest wait
        /// in the service, where no X client sees them. `--dismiss-all` reaches them too: every
        /// one is closed as dismissed (2), and nothing shows after.
        @Test func dismissAllReachesWhatTheServiceHoldsBack() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                """
                import dbus, dbus.mainloop.glib
                from gi.repository import GLib
                dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
                bus = dbus.SessionBus()
                server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                sent, closed = [], {}
                loop = GLib.MainLoop()
                def on_closed(id, reason):
                    if id in sent:
                        closed[int(id)] = int(reason)
                        if len(closed) == len(sent): loop.quit()
                bus.add_signal_receiver(on_closed, "NotificationClosed", "org.freedesktop.Notifications")
                # Forty applications: no burst joins another.
                for n in range(40): sent.append(int(server.Notify("backlog %d" % n, 0, "", "Backlog %d" % n, "", [], {}, 0)))
                print("sent", flush=True)
                GLib.timeout_add(40000, loop.quit)
                loop.run()
                print(sorted(set(closed.values())), len(closed), flush=True)
                """,
            ])
            try waitUntil("the client sent all", timeout: 20) {
                ((try? String(contentsOfFile: client.output, encoding: .utf8)) ?? "").hasPrefix("sent")
            }
            // The service's own processes are all started: 32 tickets, the rest held back.
            try waitUntil("32 toasts in the queue", timeout: 30) { watcher.queue().count >= 32 }
            let dismissed = try XToastProcess.run(
                ["--dismiss-all"], display: display, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            #expect(dismissed.status == 0, "\(dismissed.stderr)")
            #expect(try client.finish(timeout: 45) == "sent\n[2] 40\n")
            try waitUntil("nothing on screen") { watcher.mappedToasts().isEmpty }
            try expectOthersStillShow(display, watcher)
        }
    }
}

/// A python3-dbus application that sends one notification (`notify`, its `server.Notify(…)` call)
/// and stays on the bus: it prints "id N" first when `printsID`, then "token TOKEN" for each
/// ActivationToken when `printsTokens`, "action KEY" for each ActionInvoked, "replied TEXT" for
/// each NotificationReplied, and "closed REASON" for the NotificationClosed that ends it, or ends
/// after `milliseconds`.
func listeningClient(_ notify: String, printsID: Bool = false, printsTokens: Bool = false, milliseconds: Int = 20000) -> String {
    """
    import dbus, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                            "org.freedesktop.Notifications")
    mine = []
    loop = GLib.MainLoop()
    def token(id, text):
        if id in mine and \(printsTokens ? "True" : "False"): print("token", text, flush=True)
    def action(id, key):
        if id in mine: print("action", key, flush=True)
    def replied(id, text):
        if id in mine: print("replied", text, flush=True)
    def closed(id, reason):
        if id in mine:
            print("closed", reason, flush=True)
            loop.quit()
    bus.add_signal_receiver(token, "ActivationToken", "org.freedesktop.Notifications")
    bus.add_signal_receiver(action, "ActionInvoked", "org.freedesktop.Notifications")
    bus.add_signal_receiver(replied, "NotificationReplied", "org.freedesktop.Notifications")
    bus.add_signal_receiver(closed, "NotificationClosed", "org.freedesktop.Notifications")
    mine.append(\(notify))
    \(printsID ? #"print("id", mine[0], flush=True)"# : "")
    GLib.timeout_add(\(milliseconds), loop.quit)
    loop.run()
    """
}
