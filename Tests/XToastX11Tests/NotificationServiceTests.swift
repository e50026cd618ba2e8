import CX11
import Foundation
import Testing

/// `xtoast --notification-service` on a private session bus, activated from its service file as
/// the package installs it, against real clients: libnotify's notify-send, gdbus and a
/// python3-dbus client that sends image-data.
extension OnScreen {
    @Suite(.serialized) struct NotificationService {
        /// notify-send -w returns once NotificationClosed comes: the toast expired. A second
        /// notification gets a higher id.
        @Test func notifySendWaitsForTheEnd() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let first = try bus.run(["notify-send", "-p", "-t", "300", "Hello", "from an <b>application</b>"])
            let id = try #require(Int(first.trimmingCharacters(in: .whitespacesAndNewlines)), "notify-send -p printed \(first)")
            #expect(id > 0)
            let window = try #require(try watcher.waitForToasts().first)
            _ = try watcher.waitForDestroy(window)
            let waiting = try bus.start(["notify-send", "-p", "-w", "-t", "300", "Again"])
            let output = try waiting.finish(timeout: 15)
            let second = Int(output.split(separator: "\n").first ?? "") ?? 0
            #expect(second > id)
            try expectOthersStillShow(display, watcher)
        }

        /// A click on a button is its action key (ActionInvoked), a click on the body the
        /// default action.
        @Test func clicksInvokeActions() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let asking = try bus.start(["notify-send", "-A", "yes=Yes", "-t", "0", "Continue?"])
            let question = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(question))
            try click((frame.x, frame.y + frame.height - 22, frame.width, 4), display: display)
            #expect(try asking.finish(timeout: 10) == "yes\n")

            let opening = try bus.start(["notify-send", "-A", "default=Open", "-t", "0", "Open me"])
            let toast = try #require(try watcher.waitForToasts().first)
            let box = try #require(watcher.geometry(toast))
            try click((box.x, box.y, box.width, box.height), display: display)
            #expect(try opening.finish(timeout: 10) == "default\n")
            try expectOthersStillShow(display, watcher)
        }

        /// A click that invokes an action gives the application an ActivationToken first: a
        /// startup-notification id carrying the click's X server time, so that the window it
        /// raises may take the focus.
        @Test func aClickGivesAnActivationTokenBeforeTheAction() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let client = try bus.start(["/usr/bin/python3", "-c", Self.activationClient])
            let toast = try #require(try watcher.waitForToasts().first)
            let box = try #require(watcher.geometry(toast))
            try click((box.x, box.y, box.width, box.height), display: display)
            let lines = try client.finish(timeout: 15).split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(lines)")
            let token = lines.first?.split(separator: " ").last.map(String.init) ?? ""
            #expect(lines.first?.hasPrefix("token ") == true, "\(lines)")
            #expect(token.contains("_TIME") && token.split(separator: "_TIME").last?.allSatisfy(\.isNumber) == true, "\(token)")
            #expect(Array(lines.dropFirst()) == ["action default", "closed 2"], "\(lines)")
            try expectOthersStillShow(display, watcher)
        }

        /// gdbus: the server's name and capabilities; CloseNotification takes a sticky toast away
        /// and a client hears reason 3; image-data with sizes that disagree with its bytes still
        /// shows, without the picture, and a good picture shows too.
        @Test func closesAndShowsPictures() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let information = try bus.run(Self.gdbus + ["org.freedesktop.Notifications.GetServerInformation"])
            #expect(information.contains("'xtoast'") && information.contains("'1.2'"), "\(information)")
            let capabilities = try bus.run(Self.gdbus + ["org.freedesktop.Notifications.GetCapabilities"])
            for name in ["'body'", "'body-markup'", "'actions'", "'icon-static'", "'x-kde-origin-name'", "'x-kde-display-appname'"] {
                #expect(capabilities.contains(name))
            }

            let client = try bus.start(["/usr/bin/python3", "-c", Self.pythonClient])
            // The client's three notifications: a sticky one it closes, a broken and a good picture,
            // shown in the order sent.
            let output = try client.finish(timeout: 30)
            #expect(output.split(separator: "\n") == ["closed 3", "broken 1", "picture 1"], "\(output)")
            try expectOthersStillShow(display, watcher)
        }

        /// A photo sent as a path shows as the toast's icon, whether notify-send names it as the
        /// app_icon (`-i`) or as the image-path hint: JPEGs made here, one red and one green,
        /// named as nothing in particular (the format is in their bytes).
        @Test func aJPEGPathShowsAsTheIcon() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let red = temporaryPath("-photo")
            let green = temporaryPath("-photo")
            defer { for path in [red, green] { try? FileManager.default.removeItem(atPath: path) } }
            try runTool("convert", ["-size", "300x200", "xc:#ff0000", "jpeg:\(red)"])
            try runTool("convert", ["-size", "300x200", "xc:#00ff00", "jpeg:\(green)"])
            let sends: [(arguments: [String], colour: String, matches: ((r: Int, g: Int, b: Int)) -> Bool)] = [
                (["-i", red], "red", { $0.r > 180 && $0.g < 90 && $0.b < 90 }),
                (["-h", "string:image-path:file://\(green)"], "green", { $0.g > 180 && $0.r < 90 && $0.b < 90 }),
            ]
            for send in sends {
                _ = try bus.run(["notify-send", "-t", "1500"] + send.arguments + ["Photo", "from an application"])
                let window = try #require(try watcher.waitForToasts().first)
                let frame = try #require(watcher.geometry(window))
                // The icon at the left of the box, on its middle row; the compositor shows the
                // first frame a frame or so after the window is mapped.
                _ = try waitForValue("\(send.colour) pixels of the picture on the toast's middle row") { () throws -> Int? in
                    let shot = try Screenshot(display: display)
                    let found = (frame.x..<(frame.x + frame.width / 3)).filter { send.matches(shot.pixel($0, frame.y + frame.height / 2)) }
                    return found.count > 5 ? found.count : nil
                }
                try watcher.waitForDestroy(window)
            }
            try expectOthersStillShow(display, watcher)
        }

        /// An application's notification and a script's toast take turns in the one queue.
        @Test func sharesTheQueueWithScripts() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            watcher.discardEvents()
            let script = try XToastProcess(["--duration", "0.5", "From a script"], display: display)
            _ = try bus.run(["notify-send", "-t", "500", "From an application"])
            let events = try watcher.recordToasts(timeout: 20) { $0.filter { !$0.mapped }.count == 2 }
            #expect(events.map(\.mapped) == [true, false, true, false], "the two toasts overlapped")
            #expect(try script.wait().status == 0)
        }

        /// With nothing to show the service leaves the bus; the next Notify starts it again,
        /// and its ids go on from where the last one stopped. A second service refuses to take
        /// the name, in one line.
        @Test func exitsWhenIdleAndNeverReusesIDs() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let first = Int(try bus.run(["notify-send", "-p", "-t", "200", "One"]).split(separator: "\n").first ?? "") ?? 0
            let owner = try bus.run([
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.Notifications",
            ])
            let service = try #require(Int32(owner.split(separator: " ").last?.filter(\.isNumber) ?? ""), "\(owner)")

            let second = try XToastProcess(
                ["--notification-service"], display: display, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            ).wait(timeout: 10)
            #expect(second.status == 69)
            #expect(second.stderr.hasPrefix("xtoast: org.freedesktop.Notifications is owned by xtoast (pid \(service)"), "\(second.stderr)")

            // The toast ends after 0.2 s; the service 2 s later (PrivateBus's idle time).
            // Not our child: its end sends us nothing to wait on.
            try waitUntil("the service exits when idle", timeout: 15) { kill(service, 0) != 0 }
            let again = Int(try bus.run(["notify-send", "-p", "-w", "-t", "200", "Two"]).split(separator: "\n").first ?? "") ?? 0
            #expect(again > first)
            try expectOthersStillShow(display, watcher)
        }

        /// The toast process the service starts ahead may die while it waits for work (killed,
        /// or its display went): the next notification gets a process of its own and shows.
        @Test func aToastProcessStartedAheadThatDiesIsReplaced() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            _ = try bus.run(["notify-send", "-w", "-t", "100", "First"])
            let owner = try bus.run([
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.Notifications",
            ])
            let service = try #require(Int32(owner.split(separator: " ").last?.filter(\.isNumber) ?? ""), "\(owner)")
            // A process has no event to wait on: its children are polled.
            let spare = try waitForValue("the service's spare toast process") { () -> pid_t? in
                let children = (try? String(contentsOfFile: "/proc/\(service)/task/\(service)/children", encoding: .utf8)) ?? ""
                return children.split(separator: " ").compactMap { pid_t($0) }.first
            }
            kill(spare, SIGKILL)
            let output = try bus.start(["notify-send", "-p", "-w", "-t", "100", "Second"]).finish(timeout: 15)
            #expect(Int(output.split(separator: "\n").first ?? "") ?? 0 > 0, "\(output)")
            try expectOthersStillShow(display, watcher)
        }

        /// replaces_id: the same id back, and the toast replaced in place, long before its 5 s.
        @Test func replacesInPlaceKeepingTheID() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let id = try bus.run(["notify-send", "-p", "-t", "5000", "Copying…"])
            let window = try #require(try watcher.waitForToasts().first)
            #expect(
                try bus.run(["notify-send", "-p", "-r", id.trimmingCharacters(in: .whitespacesAndNewlines), "-t", "300", "Copied"]) == id)
            #expect(try watcher.waitForDestroy(window, timeout: 3) < 3)
            // The replacement's own 0.3 s.
            try waitUntil("the screen clears") { watcher.mappedToasts().isEmpty }
            try expectOthersStillShow(display, watcher)
        }

        /// A flood of Notify calls (with 10,001 actions and a hint of the wrong type each), more
        /// than the toast processes allowed at once: every one is shown and closed. A rule from the config file (by app name) makes them quick.
        @Test func aFloodIsShownWhole() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let config = temporaryPath("-config")
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: config) }
            try "[rule flood]\napp = flood\nfade-in = 0\nfade-out = 0\nduration = 0.02\n".write(
                toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            let bus = try PrivateBus(display: display, environment: ["XDG_CONFIG_HOME": config])
            let output = try bus.start(["/usr/bin/python3", "-c", Self.floodClient]).finish(timeout: 60)
            // None is lost.
            #expect(output.hasPrefix("40 closed"), "\(output)")
            try expectOthersStillShow(display, watcher)
        }

        /// Notifications sent in a row show in the order sent, though each toast is a process of
        /// its own that joins the queue by itself: the service hands the next one out only once
        /// the last one's place is on the server. Seen on the server: the order in which the
        /// toasts' tickets say their first frame is out.
        @Test func aFloodShowsInTheOrderSent() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let config = temporaryPath("-config")
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: config) }
            // A toast each (not one for the application's burst): the order is what is tested.
            try "bursts = queued\n[rule flood]\napp = flood\nfade-in = 0\nfade-out = 0\nduration = 0.3\n".write(
                toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            let bus = try PrivateBus(display: display, environment: ["XDG_CONFIG_HOME": config])
            let count = 20
            let client = try bus.start(["/usr/bin/python3", "-c", Self.orderClient(count)])
            let shown = try watcher.recordShownTags(count: count, timeout: 60) { $0.hasPrefix("fdn-") }
            let output = try client.finish(timeout: 30)
            let ids = output.split(separator: "\n").first?.split(separator: " ").map { "fdn-\($0)" } ?? []
            #expect(ids.count == count, "\(output)")
            #expect(shown == ids)
            try expectOthersStillShow(display, watcher)
        }

        /// A toast of the flood dismissed by a signal (as `--dismiss` or a window manager's kill
        /// would) is closed by the user (reason 2), and the next one shows: the toasts process
        /// takes the signal in every phase, so none is lost and nothing waits for a dead one.
        @Test func aFloodDismissedBySignalsShowsWholeInOrder() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let config = temporaryPath("-config")
            try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: config) }
            // A toast each (not one for the application's burst): the order is what is tested.
            try "bursts = queued\n".write(toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
            let bus = try PrivateBus(display: display, environment: ["XDG_CONFIG_HOME": config])
            let count = 6
            let client = try bus.start(["/usr/bin/python3", "-c", Self.orderClient(count, expiry: 60000)])
            let shown = try watcher.recordShownTags(count: count, timeout: 60, matching: { $0.hasPrefix("fdn-") }) { ticket in
                let pid = ticket.split(separator: "\n").first { $0.hasPrefix("pid=") }.flatMap { Int32($0.dropFirst(4)) }
                if let pid { kill(pid, SIGUSR1) }
            }
            let output = try client.finish(timeout: 30).split(separator: "\n")
            let ids = output.first?.split(separator: " ").map { "fdn-\($0)" } ?? []
            #expect(shown == ids)
            #expect(output.dropFirst().first == Substring(Array(repeating: "2", count: count).joined(separator: " ")), "\(output)")
            try expectOthersStillShow(display, watcher)
        }

        /// Sends `count` notifications in a row (each for `expiry` ms, −1 the toast's own time);
        /// prints their ids in the order sent, then waits until all are closed and prints the
        /// reasons, in the same order.
        static func orderClient(_ count: Int, expiry: Int = 300) -> String {
            """
            import dbus, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SessionBus()
            server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                    "org.freedesktop.Notifications")
            sent, heard = [], {}
            loop = GLib.MainLoop()
            def closed(id, reason):
                if id in sent:
                    heard[int(id)] = int(reason)
                    if len(heard) == len(sent): loop.quit()
            bus.add_signal_receiver(closed, "NotificationClosed", "org.freedesktop.Notifications")
            for n in range(\(count)):
                sent.append(int(server.Notify("flood", 0, "", "In order %d" % n, "", [], {}, \(expiry))))
            print(" ".join(str(id) for id in sent), flush=True)
            GLib.timeout_add(50000, loop.quit)
            loop.run()
            print(" ".join(str(heard.get(id, "none")) for id in sent), flush=True)
            """
        }

        /// Notify with a default action; prints ActivationToken, ActionInvoked and
        /// NotificationClosed as they come, and stops at the last.
        static let activationClient = listeningClient(
            #"server.Notify("test", 0, "", "Open me", "", ["default", "Open"], {}, 0)"#, printsTokens: true)

        static let floodClient = """
            import dbus, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SessionBus()
            server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                    "org.freedesktop.Notifications")
            sent, heard = [], []
            loop = GLib.MainLoop()
            def closed(id, reason):
                if id in sent:
                    heard.append(id)
                    if len(heard) == len(sent): loop.quit()
            bus.add_signal_receiver(closed, "NotificationClosed", "org.freedesktop.Notifications")
            for n in range(40):
                sent.append(server.Notify("flood", 0, "", "Flood %d" % n, "", ["a"] * 10001, {"urgency": "wrong"}, 20))
            GLib.timeout_add(50000, loop.quit)
            loop.run()
            print(len(heard), "closed", "in order" if heard == sent else "out of order: %s" % heard)
            """

        static let gdbus = [
            "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
            "--method",
        ]

        /// python3-dbus: Notify, CloseNotification and image-data, printing each reason heard.
        static let pythonClient = """
            import dbus, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SessionBus()
            server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                    "org.freedesktop.Notifications")
            names = {}
            loop = GLib.MainLoop()
            def closed(id, reason):
                if id in names:
                    print(names.pop(id), reason, flush=True)
                    if not names: loop.quit()
            bus.add_signal_receiver(closed, "NotificationClosed", "org.freedesktop.Notifications")
            sticky = server.Notify("test", 0, "", "Sticky", "closed by a call", [], {}, 0)
            names[sticky] = "closed"
            def close():
                server.CloseNotification(sticky)
                broken = dbus.Struct((64, 64, 256, True, 8, 4, dbus.ByteArray(b"\\0" * 100)), signature="iiibiiay")
                names[server.Notify("test", 0, "", "Broken", "picture", [], {"image-data": broken}, 300)] = "broken"
                good = dbus.Struct((8, 8, 32, True, 8, 4, dbus.ByteArray(b"\\xff\\x00\\x00\\xff" * 64)), signature="iiibiiay")
                names[server.Notify("test", 0, "", "Good", "picture", [], {"image-data": good}, 300)] = "picture"
                return False
            GLib.timeout_add(1000, close)
            GLib.timeout_add(25000, loop.quit)
            loop.run()
            """
    }
}

/// A session bus of the test's own, with xtoast's service file (as the package installs it,
/// pointing at the binary under test) in its service folder. Activated services inherit its
/// environment: the display, and a short idle time. Stopped with everything it started.
final class PrivateBus {
    let folder: String
    let address: String
    private let daemon: Child
    /// Left on disk when the bus goes (its log, for a test that reads it after).
    var keepFolder = false
    /// Seconds the service waits with nothing to show before it exits.
    static let idleTime = "2"

    init(display: String, environment: [String: String?] = [:]) throws {
        let folder = temporaryPath("-bus")
        self.folder = folder
        let services = folder + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        let packaged = try String(contentsOfFile: packagingFile("org.freedesktop.Notifications.service"), encoding: .utf8)
        try packaged.replacingOccurrences(of: "/usr/bin/xtoast", with: try xtoastBinary()).write(
            toFile: services + "/org.freedesktop.Notifications.service", atomically: true, encoding: .utf8)
        let socket = folder + "/socket"
        let configuration = """
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
              <!-- A session bus's own limits (Debian's session.conf): a flood is the service's to bound. -->
              <limit name="max_replies_per_connection">50000</limit>
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
            </busconfig>
            """
        try configuration.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
        address = "unix:path=\(socket)"
        daemon = try Child(
            ["dbus-daemon", "--nofork", "--config-file=\(folder)/bus.conf"],
            // Its own runtime folder: the ids and the kept notifications are this bus's alone.
            environment: environment.merging([
                "DISPLAY": display, "XTOAST_NOTIFICATION_IDLE": Self.idleTime, "XTOAST_BIN": nil, "XDG_RUNTIME_DIR": folder,
            ]) { $1 },
            stderr: folder + "/bus.log")
        // A file another process writes: nothing to wait on but the file.
        try waitUntil("dbus-daemon listening") {
            guard daemon.isRunning else { throw TestFailure("dbus-daemon did not start") }
            return FileManager.default.fileExists(atPath: socket)
        }
    }

    /// Runs a client to its end; its standard output.
    @discardableResult
    func run(_ command: [String], timeout: Double = 20) throws -> String {
        try start(command).finish(timeout: timeout)
    }

    func start(_ command: [String]) throws -> Client { try Client(command, bus: self) }

    /// A client of the bus, its output in a file.
    final class Client {
        let child: Child
        let output = temporaryPath(".out")
        let errors = temporaryPath(".err")

        init(_ command: [String], bus: PrivateBus) throws {
            child = try Child(
                command, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": bus.folder], stdout: output,
                stderr: errors)
        }

        /// Its status, standard output and standard error, once it ended.
        func result(timeout: Double) throws -> (status: Int32, stdout: String, stderr: String) {
            guard let status = child.wait(timeout: timeout) else { throw TestFailure("\(child.command) did not end within \(timeout) s") }
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return (status, text, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
        }

        /// Its standard output, once it ended with status 0.
        func finish(timeout: Double) throws -> String {
            guard let status = child.wait(timeout: timeout) else { throw TestFailure("\(child.command) did not end within \(timeout) s") }
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let complaint = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            guard status == 0 else { throw TestFailure("\(child.command) ended with \(status): \(complaint)") }
            return text
        }

        deinit { for path in [output, errors] { try? FileManager.default.removeItem(atPath: path) } }
    }

    deinit {
        // The service loses the bus and exits; its toasts end on their own.
        daemon.stop()
        if !keepFolder { try? FileManager.default.removeItem(atPath: folder) }
    }
}

/// A file of the repository's Packaging folder.
func packagingFile(_ name: String) throws -> String {
    var folder = URL(fileURLWithPath: #filePath)
    while folder.path != "/" {
        folder.deleteLastPathComponent()
        let candidate = folder.appendingPathComponent("Packaging/\(name)").path
        if FileManager.default.fileExists(atPath: candidate) { return candidate }
    }
    throw TestFailure("no Packaging/\(name) above \(#filePath)")
}
