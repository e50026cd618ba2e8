import CX11
import Foundation

/// A fake screen-reader desktop for one test: a private session bus (dbus-daemon), and on it,
/// as asked, the accessibility bus launcher's `org.a11y.Status`, Orca's remote controller, and
/// a Speech Dispatcher socket in a private runtime directory. Everything they are asked or told
/// goes to a log, one line each (`status-get ScreenReaderEnabled`, `orca TEXT`, `ssip TEXT`).
final class FakeScreenReader {
    enum Status: String { case absent, enabled = "true", disabled = "false" }
    enum Orca: String { case none, current, older }

    let directory: String
    var runtimeDirectory: String { directory + "/runtime" }
    var busAddress: String { "unix:path=\(directory)/bus" }
    private let bus: Child
    private let fake: Child
    private let logPath: String

    init(status: Status, orca: Orca = .none, speechDispatcher: Bool = true) throws {
        directory = temporaryPath(".a11y")
        try FileManager.default.createDirectory(atPath: directory + "/runtime", withIntermediateDirectories: true)
        logPath = directory + "/log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let config = """
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        try Self.script.write(toFile: directory + "/fake.py", atomically: true, encoding: .utf8)
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/python3"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestFailure("\(tool) is missing: .ci/install-deps test installs it")
        }
        let directory = directory
        bus = try Child(["/usr/bin/dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork"])
        try waitUntil("the private session bus listens") { FileManager.default.fileExists(atPath: directory + "/bus") }
        let readiness = directory + "/ready"
        // Debian's python3 (python3-gi): the one on PATH may be another interpreter without it.
        fake = try Child(
            [
                "/usr/bin/python3", directory + "/fake.py", "log=\(logPath)", "runtime=\(directory)/runtime", "status=\(status.rawValue)",
                "orca=\(orca.rawValue)", "ssip=\(speechDispatcher ? "yes" : "no")",
            ], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory)/bus"], stdout: readiness, stderr: directory + "/fake.err")
        try waitUntil("the fake screen reader is ready (\(directory)/fake.err)") {
            ((try? String(contentsOfFile: readiness, encoding: .utf8)) ?? "").contains("ready")
        }
    }

    deinit {
        fake.stop()
        bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the fakes were asked and told so far.
    var log: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The environment that points xtoast at these fakes.
    var environment: [String: String?] {
        ["DBUS_SESSION_BUS_ADDRESS": busAddress, "XDG_RUNTIME_DIR": runtimeDirectory, "SPEECHD_ADDRESS": nil]
    }

    /// Sets `AT_SPI_BUS` on the root window of `display`, as the accessibility bus launcher does.
    static func publishAccessibilityBus(on display: OpaquePointer) {
        let atom = XInternAtom(display, "AT_SPI_BUS", 0)
        let value = Array("unix:path=/nonexistent/at-spi/bus".utf8)
        XChangeProperty(display, XDefaultRootWindow(display), atom, Atom(XA_STRING), 8, PropModeReplace, value, Int32(value.count))
        XSync(display, 0)
    }

    static let script = #"""
        import os, sys, socket, threading
        from gi.repository import Gio, GLib

        args = dict(a.split("=", 1) for a in sys.argv[1:])
        log = open(args["log"], "a", buffering=1)
        def record(line):
            log.write(line.replace("\n", "\\n") + "\n")

        pending = []
        def ready_when_done(name):
            pending.remove(name)
            if not pending:
                print("ready", flush=True)

        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

        status = args.get("status", "absent")
        if status != "absent":
            info = Gio.DBusNodeInfo.new_for_xml("""<node><interface name='org.a11y.Status'>
              <property name='IsEnabled' type='b' access='readwrite'/>
              <property name='ScreenReaderEnabled' type='b' access='readwrite'/></interface></node>""")
            def get_property(connection, sender, path, interface, name):
                record("status-get %s" % name)
                return GLib.Variant("b", True if name == "IsEnabled" else status == "true")
            bus.register_object("/org/a11y/bus", info.interfaces[0], None, get_property, None)
            pending.append("org.a11y.Bus")

        orca = args.get("orca", "none")
        if orca != "none":
            name = {"current": "org.gnome.Orca1.Service", "older": "org.gnome.Orca.Service"}[orca]
            path = {"current": "/org/gnome/Orca1/Service", "older": "/org/gnome/Orca/Service"}[orca]
            info = Gio.DBusNodeInfo.new_for_xml("""<node><interface name='%s'>
              <method name='PresentMessage'><arg type='s' direction='in'/><arg type='b' direction='out'/></method>
              </interface></node>""" % name)
            def method_call(connection, sender, path, interface, method, parameters, invocation):
                record("orca %s" % parameters.unpack()[0])
                invocation.return_value(GLib.Variant("(b)", (True,)))
            bus.register_object(path, info.interfaces[0], method_call, None, None)
            pending.append(name)

        for name in list(pending):
            Gio.bus_own_name_on_connection(bus, name, Gio.BusNameOwnerFlags.NONE,
                                           lambda c, n: ready_when_done(n), None)

        if args.get("ssip") == "yes":
            directory = os.path.join(args["runtime"], "speech-dispatcher")
            os.makedirs(directory, exist_ok=True)
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(os.path.join(directory, "speechd.sock"))
            server.listen(8)
            def serve(connection):
                stream = connection.makefile("rb")
                def reply(text):
                    connection.sendall(text.encode() + b"\r\n")
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    command = line.decode().rstrip("\r\n")
                    words = command.split()
                    if words[:3] == ["SET", "self", "CLIENT_NAME"]:
                        reply("208 OK CLIENT NAME SET")
                    elif words[:3] == ["SET", "self", "PRIORITY"]:
                        record("ssip-priority %s" % words[3])
                        reply("202 OK PRIORITY SET")
                    elif words == ["SPEAK"]:
                        reply("230 OK RECEIVING DATA")
                        lines = []
                        while True:
                            data = stream.readline().decode().rstrip("\r\n")
                            if data == ".":
                                break
                            lines.append(data[1:] if data.startswith("..") else data)
                        record("ssip %s" % "\n".join(lines))
                        reply("225-1")
                        reply("225 OK MESSAGE QUEUED")
                    elif words == ["QUIT"]:
                        reply("231 HAPPY HACKING")
                        return
                    else:
                        record("ssip-unknown %s" % command)
                        reply("500 ERR INVALID COMMAND")
            def accept():
                while True:
                    connection, _ = server.accept()
                    threading.Thread(target=serve, args=(connection,), daemon=True).start()
            threading.Thread(target=accept, daemon=True).start()

        if not pending:
            print("ready", flush=True)
        GLib.MainLoop().run()
        """#
}
