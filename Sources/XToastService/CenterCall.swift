import CGio
import Glibc
import XToastCore
import XToastSystem

/// The user's calls on an application's notification (`--press`, `--dismiss`, `--reshow` with
/// `--notification`): sent to the notification service on the session bus, which the bus
/// starts for them if it is gone, so that the action reaches the application from the one
/// name it listens to.
public enum CenterCall {
    /// Why the call did not do it, in words for the user.
    public struct Failure: Error {
        public var message: String
    }

    /// Whether there is a session bus to call: its address, or systemd's socket. Without either,
    /// GIO would try to launch a bus of its own (dbus-launch): one with no service on it, and a
    /// daemon left behind.
    static var hasSessionBus: Bool {
        if Environment.value("DBUS_SESSION_BUS_ADDRESS") != nil { return true }
        return Environment.value("XDG_RUNTIME_DIR").map { access("\($0)/bus", F_OK) == 0 } ?? false
    }

    /// How long the service may take to start and answer.
    static let timeoutMilliseconds: Int32 = 15_000

    /// Sends `call` for notification `id` and waits for the service's answer.
    public static func send(_ call: Dispatcher.UserCall, id: UInt32) throws(Failure) {
        guard hasSessionBus else { throw Failure(message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set") }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw Failure(message: "cannot connect to the session bus: \(message(of: error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var values: [OpaquePointer?]
        let method: String
        switch call {
        case .press(let label, let time):
            method = "Press"
            values = [g_variant_new_uint32(id), g_variant_new_string(label ?? ""), g_variant_new_uint32(time ?? 0)]
        case .dismiss:
            method = "Dismiss"
            values = [g_variant_new_uint32(id)]
        case .reshow:
            method = "Reshow"
            values = [g_variant_new_uint32(id)]
        }
        let parameters = g_variant_new_tuple(&values, gsize(values.count))
        let reply = g_dbus_connection_call_sync(
            connection, NotificationService.busName, NotificationService.objectPath, NotificationService.centerInterface, method,
            parameters, nil, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error)
        if let reply {
            g_variant_unref(reply)
            return
        }
        throw Failure(message: failure(of: error))
    }

    /// The centre's Delete and "Clear all": notifications `ids` dismissed, the service started
    /// for it if it is gone (what it kept is closed with `NotificationClosed`, as `Dismiss` does).
    public static func dismiss(_ ids: [UInt32]) throws(Failure) {
        guard !ids.isEmpty else { return }
        guard hasSessionBus else { throw Failure(message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set") }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw Failure(message: "cannot connect to the session bus: \(message(of: error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let numbers = ids.withUnsafeBufferPointer {
            g_variant_new_fixed_array(variantType("u"), $0.baseAddress, gsize($0.count), gsize(MemoryLayout<UInt32>.size))
        }
        var values: [OpaquePointer?] = [numbers]
        let reply = g_dbus_connection_call_sync(
            connection, NotificationService.busName, NotificationService.objectPath, NotificationService.centerInterface,
            "DismissMany", g_variant_new_tuple(&values, 1), nil, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error)
        if let reply {
            g_variant_unref(reply)
            return
        }
        throw Failure(message: failure(of: error))
    }

    /// `xtoast --dismiss-all`: the notifications the service holds back (past its bound of toast
    /// processes, or not yet handed out) are dismissed too. Only a service that runs is asked
    /// (none is started for it); no bus or no service is nothing to do.
    public static func dismissAll() {
        guard hasSessionBus, let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let reply = g_dbus_connection_call_sync(
            connection, NotificationService.busName, NotificationService.objectPath, NotificationService.centerInterface, "DismissAll",
            nil, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds, nil, nil)
        if let reply { g_variant_unref(reply) }
    }

    /// The service's own errors as it words them; the bus's in words for the user.
    static func failure(of error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "the notification service did not answer" }
        let remote = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        switch remote {
        case NotificationService.unknownError, NotificationService.noActionError:
            g_dbus_error_strip_remote_error(error)
            return message(of: error)
        case "org.freedesktop.DBus.Error.ServiceUnknown":
            g_error_free(error)
            return "no notification service on the session bus (is xtoast's D-Bus service file installed?)"
        default:
            return "the notification service: \(message(of: error))"
        }
    }

    static func message(of error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}

/// An inhibition of notifications held from here (`xtoast --inhibit -- COMMAND`): KDE's
/// `Inhibit` on the service (the bus starts it if it is gone), held as long as this connection
/// is: `end()` ends it, and so does this process's end, however it ends (the bus tells the
/// service the name vanished).
public final class Inhibition {
    private let connection: OpaquePointer
    private let cookie: UInt32

    /// Asks for it, as `name` (the desktop entry of KDE's call: who `--list`, `--watch` and the
    /// centre say holds notifications) for `reason`; why not, if it cannot be had.
    public init(name: String, reason: String) throws(CenterCall.Failure) {
        guard CenterCall.hasSessionBus else { throw CenterCall.Failure(message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set") }
        var error: UnsafeMutablePointer<GError>?
        // A connection of its own (not the shared one): its end is the inhibition's end.
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error),
            let connection = g_dbus_connection_new_for_address_sync(
                address,
                GDBusConnectionFlags(
                    rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue), nil, nil, &error)
        else {
            throw CenterCall.Failure(message: "cannot connect to the session bus: \(CenterCall.message(of: error))")
        }
        g_free(address)
        let hints = g_variant_builder_end(g_variant_builder_new(variantType("a{sv}")))
        var values: [OpaquePointer?] = [g_variant_new_string(name), g_variant_new_string(reason), hints]
        guard
            let reply = g_dbus_connection_call_sync(
                connection, NotificationService.busName, NotificationService.objectPath, NotificationService.busName, "Inhibit",
                g_variant_new_tuple(&values, 3), variantType("(u)"), G_DBUS_CALL_FLAGS_NONE, CenterCall.timeoutMilliseconds,
                nil, &error)
        else {
            g_object_unref(UnsafeMutableRawPointer(connection))
            throw CenterCall.Failure(message: CenterCall.failure(of: error))
        }
        cookie = VariantReading.uint32(reply, at: 0)
        g_variant_unref(reply)
        self.connection = connection
    }

    /// Ends it (and waits for the service to have it).
    public func end() {
        var values: [OpaquePointer?] = [g_variant_new_uint32(cookie)]
        let reply = g_dbus_connection_call_sync(
            connection, NotificationService.busName, NotificationService.objectPath, NotificationService.busName, "UnInhibit",
            g_variant_new_tuple(&values, 1), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, CenterCall.timeoutMilliseconds, nil, nil)
        if let reply { g_variant_unref(reply) }
    }

    deinit {
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}

/// A GVariant type from a string that lives as long as the program: the C type is only the
/// string's pointer, so a temporary Swift string would be gone before GLib reads it.
func variantType(_ text: StaticString) -> OpaquePointer? {
    xtoast_variant_type(UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self))
}
