import CGio
import Glibc
import XToastCore
import XToastRender
import XToastSystem
import XToastX11

/// `xtoast --notification-service`: `org.freedesktop.Notifications` on the session bus, started
/// by the bus when an application first sends a notification (D-Bus activation) and gone once
/// nothing has been shown for `idleTime`. Each notification is a toast of its own process, in
/// the same queue as every other toast on the display (`NotificationChildren`).
public final class NotificationService {
    public static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    /// The exit status when another program owns the name (sysexits' EX_UNAVAILABLE).
    public static let nameTakenStatus: Int32 = 69
    /// What the service says it can do: only what works (Chromium wants `body` and `actions`,
    /// Firefox falls back to its own popups without `actions`).
    public static let capabilities = [
        "body", "body-markup", "actions", "icon-static", "x-canonical-private-synchronous", "x-dunst-stack-tag",
    ]

    /// The first notification's toast process, forked from the service as it starts.
    public struct ToastProcess {
        let process: NotificationChildren.Spare
    }

    /// What `forkToastProcess` made of this process.
    public enum Fork {
        /// The service, with its first toast process (nil: none could be forked; the service
        /// starts one the usual way, and says why if that fails too).
        case service(ToastProcess?)
        /// The toast process: standard input and output are its pipes to the service.
        case toastProcess
    }

    /// Forks the first notification's toast process first thing, while the process has one
    /// thread: it needs no exec and no loading, and gets ready while the service opens the
    /// display and gets onto the bus; the bus's first notification (the one it started the
    /// service for) finds it further on.
    public static func forkToastProcess() -> Fork { NotificationChildren.fork() }

    /// How the service ended: the exit status and the line to print, if any.
    public struct Ending: Error {
        public var status: Int32
        public var message: String?
    }

    let display: XDisplay
    let rules: [NotificationRule]
    let idleTime: Double
    let version: String
    let iconTheme: String?
    let warn: (String) -> Void
    private lazy var children = NotificationChildren(watch: { pid in g_child_watch_add(pid, onChildEnded, nil) }, warn: warn)
    private let images = ImageFiles()
    private var loop: OpaquePointer?
    private var connection: OpaquePointer?
    private var ownerID: guint = 0
    private var idleTimer: guint = 0
    private var acquired = false
    private var ending = Ending(status: 0, message: nil)

    /// The first notification's toast process, forked before anything else; nil once adopted.
    private var forked: ToastProcess?

    public init(
        display: XDisplay, rules: [NotificationRule], idleTime: Double, version: String, forked: ToastProcess?,
        warn: @escaping (String) -> Void
    ) {
        (self.display, self.rules, self.idleTime, self.version, self.warn) = (display, rules, idleTime, version, warn)
        self.forked = forked
        iconTheme = display.xsettings().flatMap(XSettings.iconTheme)
    }

    /// Owns the name and serves until idle; the exit status, or why it could not serve.
    public func run() throws(Ending) -> Int32 {
        service = self
        defer { service = nil }
        // The toasts' images are for this user alone.
        umask(0o077)
        loop = g_main_loop_new(nil, 0)
        defer { g_main_loop_unref(loop) }
        // Never replace another daemon, and never wait in line behind it: one clear line instead.
        ownerID = g_bus_own_name(
            G_BUS_TYPE_SESSION, Self.busName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, onBusAcquired, onNameAcquired, onNameLost, nil, nil)
        armIdleTimer()
        // The first notification's process gets ready while the service gets onto the bus.
        children.prepareSpare(adopting: forked?.process)
        forked = nil
        display.idle { g_main_loop_run(loop) }
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        if ending.status != 0 || ending.message != nil { throw ending }
        return 0
    }

    fileprivate func stop(_ status: Int32, _ message: String?) {
        if ending.status == 0 { ending = Ending(status: status, message: message) }
        g_main_loop_quit(loop)
    }

    // MARK: The bus

    fileprivate func registered(on connection: OpaquePointer) {
        self.connection = connection
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error),
            let interface = g_dbus_node_info_lookup_interface(node, Self.busName)
        else {
            stop(1, "cannot read the interface: \(message(of: error))")
            return
        }
        if xtoast_register_object(connection, Self.objectPath, interface, onMethodCall, &error) == 0 {
            stop(1, "cannot serve \(Self.objectPath): \(message(of: error))")
        }
    }

    fileprivate func nameAcquired() { acquired = true }

    fileprivate func nameLost(_ connection: OpaquePointer?) {
        guard let connection else {
            stop(1, "cannot connect to the session bus (is DBUS_SESSION_BUS_ADDRESS set?)")
            return
        }
        if acquired {
            stop(1, "lost the name \(Self.busName) on the session bus")
        } else {
            stop(Self.nameTakenStatus, "\(Self.busName) is owned by \(Self.owner(on: connection)) already")
        }
    }

    /// Who owns the name: its process's name and id, and its bus name.
    static func owner(on connection: OpaquePointer) -> String {
        func ask(_ method: String, _ replyType: String) -> OpaquePointer? {
            var argument: [OpaquePointer?] = [g_variant_new_string(busName)]
            return g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method,
                g_variant_new_tuple(&argument, 1), xtoast_variant_type(replyType), G_DBUS_CALL_FLAGS_NONE, 2000, nil, nil)
        }
        guard let reply = ask("GetNameOwner", "(s)") else { return "another program" }
        defer { g_variant_unref(reply) }
        let unique = g_variant_get_child_value(reply, 0).map { value in
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        var described = unique ?? "another program"
        if let pidReply = ask("GetConnectionUnixProcessID", "(u)") {
            defer { g_variant_unref(pidReply) }
            if let value = g_variant_get_child_value(pidReply, 0) {
                let pid = g_variant_get_uint32(value)
                g_variant_unref(value)
                var name = [CChar](repeating: 0, count: 64)
                if let file = fopen("/proc/\(pid)/comm", "r") {
                    if fgets(&name, Int32(name.count), file) != nil {
                        described = "\(String(cString: name).trimmingSuffixNewline) (pid \(pid), \(described))"
                    }
                    fclose(file)
                } else {
                    described = "pid \(pid) (\(described))"
                }
            }
        }
        return described
    }

    // MARK: The methods

    fileprivate func call(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        switch method {
        case "Notify":
            guard let parameters else { return }
            let id = notify(VariantReading.request(parameters))
            reply(invocation, [g_variant_new_uint32(id)])
        case "CloseNotification":
            if let parameters, let value = g_variant_get_child_value(parameters, 0) {
                let id = g_variant_get_uint32(value)
                g_variant_unref(value)
                // A notification that is gone already is not an error (as in dunst and GNOME).
                if children.close(id: id) == true { closed(id, .closedByCall) }
            }
            reply(invocation, [])
        case "GetCapabilities":
            let names = Self.capabilities.map { g_variant_new_string($0) }
            reply(invocation, [g_variant_new_array(xtoast_variant_type("s"), names, gsize(names.count))])
        case "GetServerInformation":
            let information: [String] = ["xtoast", "xtoast", version, "1.2"]
            reply(invocation, information.map { g_variant_new_string($0) })
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    private func reply(_ invocation: OpaquePointer?, _ values: [OpaquePointer?]) {
        var values = values
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&values, gsize(values.count)))
    }

    /// Shows a notification; its id.
    func notify(_ request: NotificationRequest) -> UInt32 {
        disarmIdleTimer()
        // The spec: a replaces_id is the id returned, whether or not its notification is still up.
        let id = request.replacesID != 0 ? request.replacesID : display.nextNotificationID()
        if !request.hints.mistyped.isEmpty {
            warn("hints of the wrong type ignored: \(request.hints.mistyped.joined(separator: ", "))")
        }
        var imageFile: String?
        if let image = request.hints.image {
            do throws(NotificationImage.Problem) {
                imageFile = try images.write(image, id: id)
            } catch {
                warn("\(error.description); the notification is shown without it")
            }
        }
        let icon = imageFile ?? usableIcon(request.hints.imagePath) ?? usableIcon(request.appIcon)
        let toast = NotificationToast(id: id, request: request, icon: icon, rules: rules)
        children.show(NotificationChildren.Entry(id: id, toast: toast, imageFile: imageFile))
        return id
    }

    /// An icon name or file the toast can show (a bad one would end the toast before it shows).
    private func usableIcon(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let path: String
        do throws(FileURI.Refusal) {
            path = try FileURI.path(text)
        } catch {
            warn("icon \(text): \(error.reason); the notification is shown without it")
            return nil
        }
        guard let icon = Icon(parsing: path) else { return nil }
        do {
            try ToastPainter.check(icon: icon, theme: iconTheme)
            return path
        } catch {
            warn("icon \(path): \(error.description); the notification is shown without it")
            return nil
        }
    }

    // MARK: The toasts' ends

    /// `status` is waitpid's.
    fileprivate func childEnded(_ pid: pid_t, status waitStatus: Int32) {
        g_spawn_close_pid(pid)
        let status = WaitStatus(raw: waitStatus).shellStatus
        if let (entry, report) = children.ended(pid, status: status) {
            let (action, reason) = entry.toast.ending(report, closedByCall: entry.closedByCall)
            if let action {
                // Spec 1.2: the token first, so that the application has it when it acts.
                if let time = report.clickTime {
                    let token = NotificationChild.activationToken(service: getpid(), id: entry.id, time: time)
                    signal("ActivationToken", [g_variant_new_uint32(entry.id), g_variant_new_string(token)])
                }
                signal("ActionInvoked", [g_variant_new_uint32(entry.id), g_variant_new_string(action)])
            }
            closed(entry.id, reason)
        }
        if children.isEmpty { armIdleTimer() }
    }

    private func closed(_ id: UInt32, _ reason: NotificationClosedReason) {
        signal("NotificationClosed", [g_variant_new_uint32(id), g_variant_new_uint32(reason.rawValue)])
        if children.isEmpty { armIdleTimer() }
    }

    private func signal(_ name: String, _ values: [OpaquePointer?]) {
        guard let connection else { return }
        var values = values
        g_dbus_connection_emit_signal(
            connection, nil, Self.objectPath, Self.busName, name, g_variant_new_tuple(&values, gsize(values.count)), nil)
    }

    // MARK: Idle

    private func armIdleTimer() {
        disarmIdleTimer()
        idleTimer = g_timeout_add(guint(max(idleTime, 0.001) * 1000), onIdleTimeout, nil)
    }

    private func disarmIdleTimer() {
        if idleTimer != 0 { g_source_remove(idleTimer) }
        idleTimer = 0
    }

    fileprivate func idleEnded() {
        idleTimer = 0
        // The name goes first: a Notify sent from now on starts a new service.
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        ownerID = 0
        if let connection { g_dbus_connection_flush_sync(connection, nil, nil) }
        g_main_loop_quit(loop)
    }

    private func message(of error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

    static let introspection = """
        <node>
          <interface name="org.freedesktop.Notifications">
            <method name="Notify">
              <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
              <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
              <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
            </method>
            <method name="CloseNotification"><arg type="u" direction="in"/></method>
            <method name="GetCapabilities"><arg type="as" direction="out"/></method>
            <method name="GetServerInformation">
              <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
              <arg type="s" direction="out"/>
            </method>
            <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
            <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
            <signal name="ActivationToken"><arg type="u"/><arg type="s"/></signal>
          </interface>
        </node>
        """
}

/// The running service, for GLib's C callbacks (one per process).
nonisolated(unsafe) private var service: NotificationService?

private let onBusAcquired: GBusAcquiredCallback = { connection, _, _ in
    if let connection { service?.registered(on: connection) }
}
private let onNameAcquired: GBusNameAcquiredCallback = { _, _, _ in service?.nameAcquired() }
private let onNameLost: GBusNameLostCallback = { connection, _, _ in service?.nameLost(connection) }
private let onMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, _, method, parameters, invocation, _ in
    guard let method else { return }
    service?.call(String(cString: method), parameters, invocation)
}
private let onChildEnded: GChildWatchFunc = { pid, status, _ in service?.childEnded(pid, status: status) }
private let onIdleTimeout: GSourceFunc = { _ in
    service?.idleEnded()
    return 0
}

extension String {
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
