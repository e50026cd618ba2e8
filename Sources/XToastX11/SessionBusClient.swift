import CGio
import XToastCore

/// A short conversation with the session bus through GDBus, for one thread, where every wait
/// ends at one deadline: GDBus's own waits would be 25 s for a reply and none at all for
/// connecting and authenticating. Its calls run on a main context of the calling thread's own,
/// so that several questions go out together and their answers are awaited together (one
/// round trip). GIO is in every xtoast process already (Pango brings it): no library is loaded.
final class SessionBusClient {
    private let context: OpaquePointer
    private let cancellable: UnsafeMutablePointer<GCancellable>
    /// Monotonic seconds (`Wakeups.now()`).
    private let deadline: Double
    fileprivate var connection: OpaquePointer?
    /// Calls (and the connection) not answered yet.
    fileprivate var outstanding = 0
    /// Each call's answer by its number: a boolean, or nil for an error or another type.
    fileprivate var answers: [Int: Bool?] = [:]

    /// Connects to the bus at `address` (a D-Bus address), as a client of a message bus (with
    /// `Hello`); nil when it does not accept us before `deadline`.
    init?(address: String, deadline: Double) {
        guard let context = g_main_context_new(), let cancellable = g_cancellable_new() else { return nil }
        (self.context, self.cancellable, self.deadline) = (context, cancellable, deadline)
        g_main_context_push_thread_default(context)
        outstanding = 1
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        g_dbus_connection_new_for_address(address, flags, nil, cancellable, onConnected, Unmanaged.passUnretained(self).toOpaque())
        wait()
        if connection == nil { return nil }
    }

    deinit {
        // What is still under way stops; its callbacks never run, as nobody runs the context.
        g_cancellable_cancel(cancellable)
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
        g_object_unref(cancellable)
    }

    /// Sends a method call with string arguments; its answer comes from `answers(to:)` under
    /// `number`. `activates`: whether the bus may start the destination if it is not running.
    func call(
        _ number: Int, destination: String, path: String, interface: String, member: String, arguments: [String] = [],
        activates: Bool = true
    ) {
        guard let connection else { return }
        var values = arguments.map { g_variant_new_string($0) }
        let parameters = g_variant_new_tuple(&values, gsize(values.count))
        // GDBus's own timeout comes after the deadline: an error before it is a real answer.
        let timeout = Int32(max(deadline - Wakeups.now(), 0) * 1000) + 1000
        let call = Unmanaged.passRetained(Call(client: self, number: number)).toOpaque()
        outstanding += 1
        g_dbus_connection_call(
            connection, destination, path, interface, member, parameters, nil,
            activates ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout, cancellable, onReply, call)
    }

    /// A call to the bus itself (`NameHasOwner`).
    func callBus(_ number: Int, member: String, arguments: [String]) {
        call(
            number, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member,
            arguments: arguments)
    }

    /// The answers that came before the deadline, by call number (a call missing here had no
    /// answer in time).
    func answers(to numbers: Set<Int>) -> [Int: Bool?] {
        wait()
        return answers.filter { numbers.contains($0.key) }
    }

    /// Runs the context until nothing is outstanding or the deadline passes.
    private func wait() {
        let left = deadline - Wakeups.now()
        guard outstanding > 0, left > 0, let timer = g_timeout_source_new(guint((left * 1000).rounded(.up))) else { return }
        var expired = false
        withUnsafeMutablePointer(to: &expired) { flag in
            g_source_set_callback(timer, onDeadline, UnsafeMutableRawPointer(flag), nil)
            g_source_attach(timer, context)
            while outstanding > 0 && !flag.pointee { g_main_context_iteration(context, 1) }
        }
        g_source_destroy(timer)
        g_source_unref(timer)
    }

    /// One call's number, for its reply's callback.
    fileprivate final class Call {
        unowned let client: SessionBusClient
        let number: Int
        init(client: SessionBusClient, number: Int) { (self.client, self.number) = (client, number) }
    }

    /// The boolean a reply carries, also inside a variant (a property's value); nil otherwise.
    fileprivate static func boolean(in reply: OpaquePointer) -> Bool? {
        guard g_variant_n_children(reply) > 0, var value = g_variant_get_child_value(reply, 0) else { return nil }
        if g_variant_is_of_type(value, xtoast_variant_type("v")) != 0, let inner = g_variant_get_variant(value) {
            g_variant_unref(value)
            value = inner
        }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, xtoast_variant_type("b")) != 0 else { return nil }
        return g_variant_get_boolean(value) != 0
    }
}

private let onConnected: GAsyncReadyCallback = { _, result, client in
    guard let client else { return }
    let bus = Unmanaged<SessionBusClient>.fromOpaque(client).takeUnretainedValue()
    var error: UnsafeMutablePointer<GError>?
    bus.connection = g_dbus_connection_new_for_address_finish(result, &error)
    if let error { g_error_free(error) }
    bus.outstanding -= 1
}

private let onReply: GAsyncReadyCallback = { source, result, call in
    guard let call else { return }
    let (bus, number) = Unmanaged<SessionBusClient.Call>.fromOpaque(call).takeRetainedValue().unpacked
    var error: UnsafeMutablePointer<GError>?
    let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
    if let error { g_error_free(error) }
    // updateValue: a nil answer (an error) is an answer too, not a removal.
    bus.answers.updateValue(reply.flatMap(SessionBusClient.boolean(in:)), forKey: number)
    if let reply { g_variant_unref(reply) }
    bus.outstanding -= 1
}

private let onDeadline: GSourceFunc = { flag in
    flag?.assumingMemoryBound(to: Bool.self).pointee = true
    return 0
}

extension SessionBusClient.Call {
    fileprivate var unpacked: (SessionBusClient, Int) { (client, number) }
}
