import Foundation

/// A notification daemon of the test's own, for libnotify's `notify-send` to talk to: a private
/// session bus (dbus-daemon) with a fake `org.freedesktop.Notifications` that takes every
/// notification, answers with an id, and closes it 50 ms later (so that `-w` returns).
final class FakeNotificationDaemon {
    let directory: String
    var busAddress: String { "unix:path=\(directory)/bus" }
    private let bus: Child
    private let fake: Child

    init() throws {
        directory = temporaryPath(".notifications")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = """
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
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
            ["/usr/bin/python3", directory + "/fake.py"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory)/bus"],
            stdout: readiness, stderr: directory + "/fake.err")
        try waitUntil("the fake notification daemon is ready (\(directory)/fake.err)") {
            ((try? String(contentsOfFile: readiness, encoding: .utf8)) ?? "").contains("ready")
        }
    }

    deinit {
        fake.stop()
        bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static let script = #"""
        from gi.repository import Gio, GLib
        XML = """<node><interface name="org.freedesktop.Notifications">
        <method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
        <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
        <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/></method>
        <method name="CloseNotification"><arg type="u" direction="in"/></method>
        <method name="GetCapabilities"><arg type="as" direction="out"/></method>
        <method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
        <arg type="s" direction="out"/><arg type="s" direction="out"/></method>
        <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
        <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
        </interface></node>"""
        interface = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
        count = [0]
        def call(connection, sender, path, name, method, parameters, invocation):
            if method == "Notify":
                count[0] += 1
                given = parameters.unpack()[1]
                number = given if given else count[0]
                invocation.return_value(GLib.Variant("(u)", (number,)))
                def close():
                    connection.emit_signal(sender, path, name, "NotificationClosed", GLib.Variant("(uu)", (number, 1)))
                    return False
                GLib.timeout_add(50, close)
            elif method == "GetCapabilities":
                invocation.return_value(GLib.Variant("(as)", (["actions", "body", "body-markup"],)))
            elif method == "GetServerInformation":
                invocation.return_value(GLib.Variant("(ssss)", ("fake", "xtoast tests", "1", "1.2")))
            else:
                invocation.return_value(None)
        def acquired(connection, name):
            connection.register_object("/org/freedesktop/Notifications", interface, call, None, None)
        Gio.bus_own_name(
            Gio.BusType.SESSION, "org.freedesktop.Notifications", 0, acquired, lambda c, n: print("ready", flush=True), None)
        GLib.MainLoop().run()
        """#
}
