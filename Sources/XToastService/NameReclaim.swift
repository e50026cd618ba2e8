import CGio
import XToastCore

/// The bus name after the service gave it up (`Dispatcher.hasReleasedName`). A call may still
/// reach it: sent before the release, or to its own connection by a client that had not heard
/// of the release yet. One that leaves something for later needs the name: the bus gives a
/// signal (`NotificationClosed`, `ActionInvoked`) from a process that does not own the name to
/// no client that listens by the name, as libnotify does, and an `UnInhibit` goes to the name's
/// owner. So the service asks for the name back first, and serves on under it. If another
/// service has it by then, a `Notify` is passed on to that one, and an `Inhibit` is refused
/// with a word (the caller may ask again): nothing is shown or held where no signal could
/// come from.
extension NotificationService {
    /// How long the bus may take to answer `RequestName`, `ReleaseName` or a passed-on call.
    static let nameCallTimeout: Int32 = 2000

    /// Whether the service owns the name: at once while it serves; after the release, it asks
    /// for the name back (a round trip), and serves on if it gets it.
    func ownsName() -> Bool {
        guard driver.machine.hasReleasedName else { return true }
        guard let connection, Self.requestName(on: connection) else { return false }
        // Held as GIO holds it: losing it ends the service with a word.
        reclaimedNameWatch = g_dbus_connection_signal_subscribe(
            connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameLost", "/org/freedesktop/DBus", Self.busName,
            G_DBUS_SIGNAL_FLAGS_NONE, onReclaimedNameLost, nil, nil)
        feed(.reclaimed)
        return true
    }

    /// `RequestName`, never waiting in line nor replacing anyone: whether the name is ours.
    private static func requestName(on connection: OpaquePointer) -> Bool {
        var values: [OpaquePointer?] = [g_variant_new_string(busName), g_variant_new_uint32(4)]  // DO_NOT_QUEUE
        guard
            let reply = g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                g_variant_new_tuple(&values, 2), variantType("(u)"), G_DBUS_CALL_FLAGS_NONE, nameCallTimeout, nil, nil)
        else { return false }
        defer { g_variant_unref(reply) }
        return VariantReading.uint32(reply, at: 0) == 1  // PRIMARY_OWNER
    }

    /// Gives the name up, waiting for the bus's answer (GIO asks synchronously, and so do we
    /// for a name taken back): from then on a `Notify` starts a new service, and every call
    /// sent before has reached this one, which keeps its own hold on the connection to answer
    /// them (GIO lets go of its own).
    func releaseName() {
        if ownerID != 0 {
            g_bus_unown_name(ownerID)
            ownerID = 0
        }
        guard reclaimedNameWatch != 0, let connection else { return }
        g_dbus_connection_signal_unsubscribe(connection, reclaimedNameWatch)
        reclaimedNameWatch = 0
        var values: [OpaquePointer?] = [g_variant_new_string(Self.busName)]
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName",
            g_variant_new_tuple(&values, 1), variantType("(u)"), G_DBUS_CALL_FLAGS_NONE, Self.nameCallTimeout, nil, nil)
        if let reply { g_variant_unref(reply) }
    }

    /// A `Notify` that came after the release, with another service on the name by now: passed
    /// on to it, and answered with its answer (its id, or its error).
    func passOn(_ parameters: OpaquePointer, _ invocation: OpaquePointer?) {
        guard let connection else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", "the service is leaving")
            return
        }
        // The service stays until the answer is passed back (at most the call's timeout).
        feed(.passingOn(true))
        g_dbus_connection_call(
            connection, Self.busName, Self.objectPath, Self.busName, "Notify", parameters, variantType("(u)"),
            G_DBUS_CALL_FLAGS_NONE, Self.nameCallTimeout, nil, onPassedOn, invocation.map { UnsafeMutableRawPointer($0) })
    }

    /// An `Inhibit` that came after the release, with another service on the name by now.
    static func refuseWhileLeaving(_ invocation: OpaquePointer?) {
        g_dbus_method_invocation_return_dbus_error(
            invocation, "org.freedesktop.DBus.Error.Failed", "the notification service was leaving: ask again")
    }
}

private let onReclaimedNameLost: GDBusSignalCallback = { connection, _, _, _, _, _, _ in
    service?.nameLost(connection)
}

private let onPassedOn: GAsyncReadyCallback = { source, result, invocation in
    let invocation = invocation.map { OpaquePointer($0) }
    var error: UnsafeMutablePointer<GError>?
    if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
        g_dbus_method_invocation_return_value(invocation, reply)
        g_variant_unref(reply)
    } else {
        g_dbus_method_invocation_return_gerror(invocation, error)
        g_error_free(error)
    }
    service?.feed(.passingOn(false))
}
