import CGio
import XToastCore

/// KDE's `Inhibit` and `UnInhibit` on `org.freedesktop.Notifications` (what `xtoast --inhibit --
/// COMMAND` calls): an application asks that notifications be held (a presentation, a screen
/// share) and gets a cookie; it ends its inhibition with `UnInhibit`, or by leaving the bus,
/// however it leaves (an exit, `SIGKILL`): the bus tells the service its name vanished. The
/// `Inhibited` property says whether any is held. What is held, and what it makes as the last
/// inhibition ends, is the dispatcher's (`Dispatcher.Quiet`). Who holds them is published on the
/// display for `--list`, `--watch` and the centre (`Inhibited`), on a window of the service's
/// connection: if the service dies, the server takes it away with the connection.
extension NotificationService {
    /// Inhibitions held at most by one client, and in all: an application that inhibits and never
    /// lets go holds only as much as this.
    static let inhibitionsPerClient = 16
    static let inhibitionsLimit = 256

    /// Whether an application holds an inhibition.
    var inhibited: Bool { !driver.machine.quiet.inhibitions.isEmpty }

    func inhibit(_ invocation: OpaquePointer?) {
        guard let connection, let sender = g_dbus_method_invocation_get_sender(invocation).map({ String(cString: $0) }) else {
            return
        }
        let held = inhibitors[sender]?.holders.count ?? 0
        guard held < Self.inhibitionsPerClient, driver.machine.quiet.inhibitions.count < Self.inhibitionsLimit else {
            g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.LimitsExceeded", "too many inhibitions: \(held) held by this client")
            return
        }
        nextCookie &+= 1
        if nextCookie == 0 { nextCookie = 1 }
        let cookie = nextCookie
        if inhibitors[sender] == nil {
            let watch = g_bus_watch_name_on_connection(
                connection, sender, G_BUS_NAME_WATCHER_FLAGS_NONE, nil, onInhibitorVanished, nil, nil)
            inhibitors[sender] = Inhibitor(watch: watch)
        }
        inhibitors[sender]?.holders.updateValue(Self.holder(invocation), forKey: cookie)
        var values: [OpaquePointer?] = [g_variant_new_uint32(cookie)]
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&values, 1))
        changingInhibited { feed(.inhibit(cookie)) }
    }

    /// Ends inhibition `cookie` (any client may: the cookie is the capability).
    func uninhibit(_ cookie: UInt32) {
        guard let (sender, inhibitor) = inhibitors.first(where: { $0.value.holders[cookie] != nil }) else { return }
        inhibitors[sender]?.holders[cookie] = nil
        if inhibitors[sender]?.holders.isEmpty == true {
            g_bus_unwatch_name(inhibitor.watch)
            inhibitors[sender] = nil
        }
        changingInhibited { feed(.uninhibit(cookie)) }
    }

    /// A client holding inhibitions left the bus: they end.
    func inhibitorVanished(_ sender: String) {
        guard let inhibitor = inhibitors[sender] else { return }
        for cookie in inhibitor.holders.keys.sorted() { uninhibit(cookie) }
    }

    /// Who asks, as the call says: its desktop entry (`--inhibit` gives its command's name),
    /// else its reason, else "an application"; cleaned and cut as every reader takes it.
    private static func holder(_ invocation: OpaquePointer?) -> Inhibited.Holder? {
        guard let parameters = g_dbus_method_invocation_get_parameters(invocation) else { return nil }
        var name = VariantReading.string(parameters, at: 0)
        if name.hasSuffix(".desktop") { name.removeLast(".desktop".count) }
        let reason = VariantReading.string(parameters, at: 1)
        return Inhibited.Holder(name: name, reason: reason) ?? Inhibited.Holder(name: reason, reason: nil)
            ?? Inhibited.Holder(name: "an application", reason: nil)
    }

    /// Who holds notifications now, in the order they asked (nil: nobody).
    var inhibitedBy: Inhibited? {
        let holders = inhibitors.values.flatMap(\.holders).sorted { $0.key < $1.key }.compactMap(\.value)
        return Inhibited(holders: holders)
    }

    /// Runs `body`, then publishes who holds notifications on the display, and says `Inhibited`
    /// changed (`PropertiesChanged`) if it did.
    private func changingInhibited(_ body: () -> Void) {
        let before = inhibited
        body()
        display.publishInhibited(inhibited ? inhibitedBy : nil)
        guard inhibited != before, let connection else { return }
        let changed = g_variant_builder_new(variantType("a{sv}"))
        g_variant_builder_add_value(
            changed,
            g_variant_new_dict_entry(g_variant_new_string("Inhibited"), g_variant_new_variant(g_variant_new_boolean(inhibited ? 1 : 0))))
        var values: [OpaquePointer?] = [
            g_variant_new_string(Self.busName), g_variant_builder_end(changed), g_variant_new_array(variantType("s"), nil, 0),
        ]
        g_variant_builder_unref(changed)
        g_dbus_connection_emit_signal(
            connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged", g_variant_new_tuple(&values, 3), nil)
    }
}

/// One client's inhibitions, each cookie with who asked (nil: a name that said nothing), and
/// the bus's watch on its name.
struct Inhibitor {
    var watch: guint
    var holders: [UInt32: Inhibited.Holder?] = [:]
}
