import CX11
import Foundation
import Testing

/// Issue #28: the notification service never drops a call, and nothing that waits in it is lost
/// (a server stalled by another client's grab, the X server or the session bus going, a flood, a
/// slow icon, a picture near its bound, a call pending as the service leaves), each on a private
/// X server and a private bus, with python3-dbus clients.
extension OnScreen {
    @Suite(.serialized) struct NotificationServiceTrust {
        /// A client that sends what `body` says and prints what it hears; the helpers it gets:
        /// `server` (the interface), `notify(summary, ...)` and `timed(call)` (the seconds a call
        /// took), `closed` (reasons by id, as they come) and `wait_closed(ids, seconds)`.
        static func client(_ body: String) -> String {
            """
            import dbus, dbus.mainloop.glib, time, os, sys
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SessionBus()
            server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                    "org.freedesktop.Notifications")
            closed = {}
            bus.add_signal_receiver(lambda id, reason: closed.__setitem__(int(id), int(reason)), "NotificationClosed",
                                    "org.freedesktop.Notifications")
            def notify(summary, body="", icon="", hints={}, expire=-1, replaces=0, actions=[]):
                return int(server.Notify("trust", replaces, icon, summary, body, actions, hints, expire))
            def timed(call):
                start = time.monotonic()
                value = call()
                return value, time.monotonic() - start
            def wait_closed(ids, seconds):
                context = GLib.MainContext.default()
                end = time.monotonic() + seconds
                while time.monotonic() < end and not all(i in closed for i in ids):
                    context.iteration(False)
                    time.sleep(0.01)
            \(body)
            """
        }

        /// Another client holds the server for 8 s (an idle grab): a Notify sent meanwhile is
        /// answered at once, shows once the grab ends, and expires as a toast does (1); nothing
        /// waiting is lost, and the service lives on.
        @Test func aLongServerGrabHoldsNoCall() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let bus = try PrivateBus(display: server.name)
            // The service runs (its first toast shown and gone).
            _ = try bus.run(["notify-send", "-w", "-t", "200", "Before the grab"])
            let said = temporaryPath(".grab")
            defer { try? FileManager.default.removeItem(atPath: said) }
            let grabber = try Child(
                [
                    "/usr/bin/python3", "-c",
                    "from Xlib import display; import time; d = display.Display(); d.grab_server(); d.sync(); print('held', flush=True); time.sleep(8); d.ungrab_server(); d.sync()",
                ],
                environment: ["DISPLAY": server.name], stdout: said)
            defer { grabber.stop(with: SIGKILL) }
            // A file another process writes: nothing to wait on but the file.
            try waitUntil("the server grabbed") {
                guard ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").contains("held") else {
                    // python3-xlib missing, say: the grab will never come.
                    if !grabber.isRunning { throw TestFailure("the grabbing client ended before it held the server") }
                    return false
                }
                return true
            }
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                Self.client(
                    """
                    ids, took = [], []
                    for n in range(3):
                        id, seconds = timed(lambda: notify("During the grab %d" % n, expire=300))
                        ids.append(id); took.append(seconds)
                    print(" ".join("%.2f" % t for t in took), flush=True)
                    wait_closed(ids, 40)
                    print(" ".join(str(closed.get(i, "none")) for i in ids), flush=True)
                    """),
            ])
            let lines = try client.finish(timeout: 60).split(separator: "\n").map(String.init)
            let took = lines.first?.split(separator: " ").compactMap { Double($0) } ?? []
            #expect(took.count == 3 && took.allSatisfy { $0 < 1 }, "Notify answered after \(took) s")
            #expect(lines.dropFirst().first == "1 1 1", "\(lines)")
            _ = watcher
        }

        /// The X server goes: every notification is closed (4), the service gives the name up and
        /// ends in one line, and the next Notify is refused at once instead of waiting for nobody.
        @Test func theXServerGoingClosesEverythingAndFreesTheName() throws {
            let server = try PrivateXServer()
            let bus = try PrivateBus(display: server.name)
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                Self.client(
                    """
                    id = notify("Sticky", expire=0)
                    print("sent", flush=True)
                    wait_closed([id], 30)
                    print(closed.get(id, "none"), flush=True)
                    # The next call: refused at once (no service can start without a display),
                    # never sent to a service that drops it.
                    try:
                        took = timed(lambda: notify("After the server"))[1]
                        print("answered", flush=True)
                    except dbus.exceptions.DBusException as error:
                        print("refused" if error.get_dbus_name() != "org.freedesktop.DBus.Error.NoReply" else "dropped", flush=True)
                    """),
            ])
            do {
                // Closed before the server goes: Xlib ends a process whose server goes.
                let watcher = try XWatcher(display: server.name)
                _ = try watcher.waitForToasts()
            }
            server.xvfb.stop(with: SIGKILL)
            #expect(try client.finish(timeout: 60) == "sent\n4\nrefused\n")
            try waitUntil("the name is free", timeout: 10) {
                try bus.run(Self.hasOwner).contains("false")
            }
            let log = try String(contentsOfFile: bus.folder + "/bus.log", encoding: .utf8)
            // The service's own line (its toasts' are theirs), once.
            #expect(log.components(separatedBy: "xtoast: lost the connection to the X server\n").count >= 2, "\(log)")
            #expect(!log.contains("the notification service failed"), "\(log)")
        }

        static let hasOwner = [
            "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method",
            "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications",
        ]

        /// The session bus goes: the service says so in one line and ends; its toast lives on,
        /// and ends without a word about the service it can no longer tell.
        @Test func theBusGoingIsOneLine() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            var bus: PrivateBus? = try PrivateBus(display: server.name)
            let folder = bus!.folder
            let sender = try bus!.start(["notify-send", "-t", "0", "Sticky"])
            let window = try #require(try watcher.waitForToasts().first)
            let log = folder + "/bus.log"
            bus!.keepFolder = true
            bus = nil
            // The toast goes on; dismissed, it ends quietly.
            try waitUntil("the service says the bus went", timeout: 10) {
                ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("xtoast: the session bus closed the connection")
            }
            let toast = try #require(watcher.pid(window))
            #expect(try XToastProcess.run(["--dismiss-all"], display: server.name).status == 0)
            try watcher.waitForDestroy(window)
            // Not our child: its end sends us nothing to wait on. What it prints comes before it.
            // (Ended is gone, or a zombie nobody reaps once its parent, the service, has gone.)
            try waitUntil("the toast process ends") {
                let stat = (try? String(contentsOfFile: "/proc/\(toast)/stat", encoding: .utf8)) ?? ""
                return kill(toast, 0) != 0 || stat.split(separator: ")").last?.split(separator: " ").first == "Z"
            }
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(!text.contains("broken pipe"), "\(text)")
            try? FileManager.default.removeItem(atPath: folder)
            _ = sender
        }

        /// Icons that take seconds to draw hold no call: each Notify, and an honest one after
        /// them, is answered within a second; the toasts find out about their icons themselves.
        @Test func slowIconsHoldNoCall() throws {
            let server = try PrivateXServer()
            let bus = try PrivateBus(display: server.name)
            let slow = temporaryPath(".svg")
            // Seconds of one core to draw (5,000 filtered layers), as SVGIconTests' CPU bound.
            let layers = String(repeating: "<rect width='16' height='16' filter='url(#b)'/>", count: 5000)
            let filter = "<filter id='b'><feGaussianBlur stdDeviation='3'/><feMorphology radius='4'/></filter>"
            try "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>\(filter)\(layers)</svg>".write(
                toFile: slow, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: slow) }
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                Self.client(
                    """
                    took, ids = [], []
                    for n in range(15):
                        id, seconds = timed(lambda: notify("Slow %d" % n, icon="\(slow)", expire=100))
                        took.append(seconds); ids.append(id)
                    id, seconds = timed(lambda: notify("Honest", expire=100))
                    took.append(seconds)
                    print("%.2f" % max(took), flush=True)
                    for i in ids: server.CloseNotification(i)
                    """),
            ])
            let worst = Double(try client.finish(timeout: 60).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99
            #expect(worst < 1, "a Notify took \(worst) s")
        }

        /// 2,000 notifications of 150 KB in a burst: every call is answered, what waits is
        /// bounded (the oldest are closed as expired, with their signals), and the service's
        /// memory stays within bounds.
        @Test func aFloodIsAnsweredAndBounded() throws {
            let server = try PrivateXServer()
            let bus = try PrivateBus(display: server.name)
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                Self.client(
                    """
                    body = "x" * 150000
                    answered = 0
                    def reply(id):
                        global answered
                        answered += 1
                    def error(e):
                        print("error", e, flush=True)
                    for n in range(2000):
                        server.Notify("flood", 0, "", "Flood %d" % n, body, [], {}, 100, reply_handler=reply, error_handler=error)
                    context = GLib.MainContext.default()
                    end = time.monotonic() + 60
                    while answered < 2000 and time.monotonic() < end:
                        context.iteration(True)
                    pid = int(bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetConnectionUnixProcessID(
                        "org.freedesktop.Notifications", dbus_interface="org.freedesktop.DBus"))
                    peak = [l for l in open("/proc/%d/status" % pid) if l.startswith("VmHWM")][0].split()[1]
                    print(answered, peak, flush=True)
                    """),
            ])
            let words = try client.finish(timeout: 90).split(separator: "\n").last?.split(separator: " ") ?? []
            #expect(words.first == "2000", "answered: \(words)")
            let peakKB = Int(words.last ?? "") ?? Int.max
            #expect(peakKB < 200 << 10, "the service's peak was \(peakKB) kB")
        }

        /// A Notify that reaches the service as it leaves (stopped past its idle time, then
        /// woken) is still served: answered, shown, closed as a toast is.
        @Test func aCallPendingAsTheServiceLeavesIsServed() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let bus = try PrivateBus(display: server.name)
            let client = try Self.sendToAServiceStoppedPastItsIdleTime(
                on: bus,
                [
                    "/usr/bin/python3", "-c",
                    Self.client(
                        """
                        id = notify("Sent to a stopped service", expire=200)
                        wait_closed([id], 20)
                        print(closed.get(id, "none"), flush=True)
                        """),
                ])
            // Expired (1): it showed its time; never closed unshown, nor unanswered.
            let heard = try? client.finish(timeout: 30)
            #expect(heard == "1\n", "\((try? String(contentsOfFile: bus.folder + "/bus.log", encoding: .utf8)) ?? "")")
            _ = watcher
        }

        /// Starts `client` while the service (woken first) is stopped, and wakes the service once
        /// its idle time (2 s) has passed: its timer and the call wake it together, the release
        /// first. A wait for time itself: nothing is published while the service is stopped.
        static func sendToAServiceStoppedPastItsIdleTime(on bus: PrivateBus, _ client: [String]) throws -> PrivateBus.Client {
            _ = try bus.run(["notify-send", "-w", "-t", "100", "Wakes the service"])
            let owner = try bus.run([
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.Notifications",
            ])
            let service = try #require(Int32(owner.split(separator: " ").last?.filter(\.isNumber) ?? ""), "\(owner)")
            kill(service, SIGSTOP)
            defer { kill(service, SIGCONT) }
            let started = try bus.start(client)
            Thread.sleep(forTimeInterval: 3)
            return started
        }

        /// A Notify that reaches the service after it gave its name up (stopped past its idle
        /// time: the release comes first when it wakes) reaches an application that hears the
        /// service as libnotify does, by the name's owner: `notify-send --wait` hears its end. The
        /// service takes the name back and serves on under it; a signal from a process that no
        /// longer owns the name would reach no such client.
        @Test func aCallThatCameAfterTheReleaseIsServedUnderTheName() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let bus = try PrivateBus(display: server.name)
            let client = try Self.sendToAServiceStoppedPastItsIdleTime(
                on: bus, ["notify-send", "-w", "-t", "200", "Sent as the service leaves"])
            let heard = Result { try client.finish(timeout: 20) }
            #expect(throws: Never.self, "notify-send -w never heard its end") { try heard.get() }
            _ = watcher
        }

        /// A Notify that reaches the service after it gave its name up, when another service
        /// has the name by then, is passed on to that one and answered with its id: never shown
        /// by a process whose signals no client would hear. An `Inhibit` there is refused.
        @Test func aCallThatCameAfterAnotherServiceTookTheNameIsPassedOn() throws {
            let server = try PrivateXServer()
            let bus = try PrivateBus(display: server.name)
            let heard = try bus.run([
                "/usr/bin/python3", "-c",
                """
                import dbus, dbus.service, dbus.mainloop.glib
                from gi.repository import GLib
                dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
                bus = dbus.SessionBus()
                name, path = "org.freedesktop.Notifications", "/org/freedesktop/Notifications"
                bus.get_object(name, path).GetServerInformation(dbus_interface=name)
                old = bus.get_name_owner(name)
                class Other(dbus.service.Object):
                    @dbus.service.method(name, in_signature="susssasa{sv}i", out_signature="u")
                    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout): return 4242
                loop = GLib.MainLoop()
                def refused(error): print("refused" if "ask again" in str(error) else error, flush=True); loop.quit()
                def held(cookie): print("held", int(cookie), flush=True); loop.quit()
                def answered(id):
                    print(int(id), flush=True)
                    # An Inhibit there would hold nothing its UnInhibit could reach: refused.
                    bus.get_object(old, path).Inhibit("late", "", {}, dbus_interface=name, reply_handler=held, error_handler=refused)
                def failed(error): print("error", error, flush=True); loop.quit()
                def changed(changed_name, before, after):
                    if changed_name != name or before != old or after != "": return
                    # Released, and still lingering: another service takes the name, and the
                    # old one hears a Notify from a client that had not heard of the release.
                    global other
                    other = (dbus.service.BusName(name, bus, do_not_queue=True), Other(bus, path))
                    bus.get_object(old, path).Notify("late", 0, "", "Passed on", "", [], {}, -1, dbus_interface=name,
                                                     reply_handler=answered, error_handler=failed)
                bus.add_signal_receiver(changed, "NameOwnerChanged", "org.freedesktop.DBus", "org.freedesktop.DBus")
                GLib.timeout_add_seconds(20, lambda: (print("no release"), loop.quit()))
                loop.run()
                """,
            ])
            #expect(heard == "4242\nrefused\n")
        }

        /// A picture within the bounds (2364×2364 of noise, under 4096² and 16 MiB) is the
        /// notification's: it shows and expires (1), never closed as failed (4). A `replaces_id`
        /// that was never given gets a new id.
        @Test func aLargePictureIsNeverTheNotificationsEnd() throws {
            let server = try PrivateXServer()
            let bus = try PrivateBus(display: server.name)
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                Self.client(
                    """
                    side = 2364
                    pixels = dbus.ByteArray(os.urandom(side * side * 3))
                    image = dbus.Struct((side, side, side * 3, False, 8, 3, pixels), signature="iiibiiay")
                    id = notify("Noise", hints={"image-data": image}, expire=300)
                    wait_closed([id], 30)
                    print(closed.get(id, "none"), flush=True)
                    other = notify("Replaces one never given", replaces=4000000000, expire=100)
                    print("fresh" if other != 4000000000 else "reused", flush=True)
                    """),
            ])
            #expect(try client.finish(timeout: 60) == "1\nfresh\n")
        }

        /// Closed within a millisecond of its Notify, fifty times: each closed by the call (3),
        /// and no toast process ends by a signal's default action.
        @Test func closedAtOnceFiftyTimes() throws {
            let server = try PrivateXServer()
            let bus = try PrivateBus(display: server.name)
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                Self.client(
                    """
                    ids = []
                    for n in range(50):
                        id = notify("Closed at once %d" % n, expire=0)
                        server.CloseNotification(id)
                        ids.append(id)
                    wait_closed(ids, 40)
                    print(sorted(set(closed.get(i, 0) for i in ids)), flush=True)
                    """),
            ])
            #expect(try client.finish(timeout: 60) == "[3]\n")
            let log = (try? String(contentsOfFile: bus.folder + "/bus.log", encoding: .utf8)) ?? ""
            #expect(!log.contains("status 138"), "\(log)")
        }
    }
}
