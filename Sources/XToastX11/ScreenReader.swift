import CX11
import Glibc
import XToastCore
import XToastSystem

/// Tells a running screen reader what a toast says, once, as it appears.
///
/// The lightest way that is also reliable, in three steps, each taken only when the one before
/// says a screen reader may run:
/// 1. `AT_SPI_BUS` on the root window (the accessibility bus launcher sets it on X11): absent,
///    no screen reader can run, and a toast costs one property read, after its first frame.
/// 2. The session bus, on a thread of its own: is Orca's remote controller there
///    (`org.gnome.Orca1.Service`, or `org.gnome.Orca.Service` in Orca 49 and 50), or does
///    `org.a11y.Status.ScreenReaderEnabled` say a screen reader is on (older at-spi2-core)?
///    One round trip for all three questions.
/// 3. Orca's `PresentMessage` (speech with the user's settings, and braille); otherwise Speech
///    Dispatcher, at the polite priority (`SSIP.conversation`).
/// An AT-SPI event from an accessible object of our own would need the accessibility bus, a
/// registry round trip and an object tree: far heavier, for the same words spoken.
///
/// D-Bus and SSIP are spoken here directly over unix sockets (DBusWire, SSIP): a few hundred
/// bytes, no library loaded, and every wait ends at one deadline, which libdbus cannot promise.
/// GDBus (as the notification service uses it) was tried and measured: the first paint the
/// same, but where an accessibility bus runs each toast took 0.6 ms more CPU, 1 MB more peak
/// memory and three threads more (GDBus's worker, GTask's), for the same three questions.
public enum ScreenReader {
    /// Seconds the whole conversation may take, from the call. It runs beside the animation,
    /// never in its way: the limit only decides when to give up on a bus or speech service that
    /// does not answer (they answer in about a millisecond).
    public static let timeLimit = 0.5

    /// Announces `text` (worked out only when a screen reader may run; nil: nothing to say) if a
    /// screen reader runs; returns at once (one round trip to the X
    /// server when no accessibility bus runs, and a thread started when one does). Says nothing
    /// when no screen reader runs or no session bus is there; one warning when one runs and
    /// could not be told.
    public static func announceIfRunning(text: @autoclosure () -> String?, display: XDisplay) {
        // The accessibility bus first: without one, not even the text is worked out (its
        // Unicode tables would be pages touched for nothing).
        guard display.hasAccessibilityBus, let text = text(), !text.isEmpty else { return }
        // Read here, on the main thread: getenv is not safe against a setenv elsewhere.
        let environment = { (name: String) in Environment.value(name) }
        let busAddress =
            environment("DBUS_SESSION_BUS_ADDRESS") ?? environment("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" }
        guard let busAddress else { return }
        let conversation = Conversation(
            text: text, bus: UnixSocketAddress.candidates(inDBusAddress: busAddress), uid: getuid(),
            speechSocket: SSIP.socketPath(environment: environment), user: environment("USER"),
            deadline: Clock.monotonic() + timeLimit)
        conversation.start()
    }
}

/// One announcement, carried out on a detached thread.
private final class Conversation: Sendable {
    let text: String
    let bus: [UnixSocketAddress]
    let uid: UInt32
    let speechSocket: String?
    let user: String?
    let deadline: Double

    init(text: String, bus: [UnixSocketAddress], uid: UInt32, speechSocket: String?, user: String?, deadline: Double) {
        self.text = text
        self.bus = bus
        self.uid = uid
        self.speechSocket = speechSocket
        self.user = user
        self.deadline = deadline
    }

    /// Runs `carryOut` on a small detached thread. It inherits the main thread's blocked
    /// signals (read from the signalfd there) and blocks the rest, so no signal meant for the
    /// event loop lands here; it touches neither Xlib nor anything the main thread owns.
    func start() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 256 << 10)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                guard let context else { return nil }
                let conversation = Unmanaged<Conversation>.fromOpaque(context).takeRetainedValue()
                if case .failed(let why) = conversation.carryOut() {
                    // One write, so that it never interleaves with a line of the main thread.
                    var line = TerminalText.line("xtoast: warning: a screen reader runs, but the toast was not announced: \(why)") + "\n"
                    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
                }
                return nil
            }, context)
        if status != 0 { Unmanaged<Conversation>.fromOpaque(context).release() }
    }

    enum Result: Equatable {
        case noScreenReader, presented, spoken
        case failed(String)
    }

    func carryOut() -> Result {
        guard let bus = SessionBus.connect(to: bus, uid: uid, deadline: deadline) else { return .noScreenReader }
        let orca = ScreenReaderRoute.OrcaService.self
        let questions =
            DBusWire.busCall(serial: 1, member: "Hello")
            + DBusWire.busCall(serial: 2, member: "NameHasOwner", arguments: [orca.current.busName])
            + DBusWire.busCall(serial: 3, member: "NameHasOwner", arguments: [orca.older.busName])
            // Not started for this question if it is not running (no auto-start): then no
            // accessibility bus is in use and no screen reader runs.
            + DBusWire.methodCall(
                serial: 4, destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties",
                member: "Get", arguments: ["org.a11y.Status", "ScreenReaderEnabled"], flags: DBusWire.noAutoStart)
        guard bus.socket.send(questions) else { return .noScreenReader }
        let answers = bus.replies(to: [1, 2, 3, 4])
        let route = ScreenReaderRoute.choose(
            currentOrcaRuns: answers[2]?.boolean, olderOrcaRuns: answers[3]?.boolean, screenReaderEnabled: answers[4]?.boolean)
        switch route {
        case .none:
            return .noScreenReader
        case .orca(let service):
            let call = DBusWire.methodCall(
                serial: 5, destination: service.busName, path: service.path, interface: service.interface, member: "PresentMessage",
                arguments: [text], flags: DBusWire.noAutoStart)
            guard bus.socket.send(call) else { return speak() }
            // Orca is one Python main loop and may be busy: no reply in time means it has not
            // handled the call yet, not that it will not; speaking too would say it twice.
            guard let reply = bus.replies(to: [5])[5] else { return .presented }
            return reply.boolean == true ? .presented : speak()
        case .speechDispatcher:
            return speak()
        }
    }

    /// Speaks the text through Speech Dispatcher (not started if it does not run: a screen
    /// reader that uses it has started it).
    private func speak() -> Result {
        guard let path = speechSocket else { return .failed("no runtime directory for Speech Dispatcher's socket") }
        guard let socket = BoundedSocket.connect(to: .path(path), deadline: deadline) else {
            return .failed("Speech Dispatcher does not listen at \(path)")
        }
        for step in SSIP.conversation(speaking: text, user: user) {
            guard socket.send(step.bytes) else { return .failed("Speech Dispatcher closed the connection") }
            // QUIT needs no answer: the message is queued once SPEAK's data is answered.
            if step.expected == 231 { break }
            let code = socket.receive(limit: SSIP.replyLimit) { buffer throws in try SSIP.reply(in: buffer).map { ($0.code, $0.consumed) } }
            guard let code else { return .failed("Speech Dispatcher did not answer in time") }
            guard code == step.expected else { return .failed("Speech Dispatcher answered \(code)") }
        }
        return .spoken
    }
}

/// A connection to the session bus, authenticated (EXTERNAL: the kernel tells the bus our uid).
private struct SessionBus {
    let socket: BoundedSocket

    /// The first of `addresses` that accepts us; nil when none does in time.
    static func connect(to addresses: [UnixSocketAddress], uid: UInt32, deadline: Double) -> SessionBus? {
        for address in addresses {
            guard let socket = BoundedSocket.connect(to: address, deadline: deadline) else { continue }
            guard socket.send(DBusWire.authenticationRequest(uid: uid)) else { continue }
            // "OK <server guid>\r\n", or REJECTED with the mechanisms it would take.
            let line = socket.receive(limit: 512) { buffer -> ([UInt8], consumed: Int)? in
                guard let end = buffer.firstIndex(of: 10) else { return nil }
                return (Array(buffer[..<end]), end + 1 - buffer.startIndex)
            }
            guard let line, line.starts(with: Array("OK ".utf8)), socket.send(DBusWire.begin) else { continue }
            return SessionBus(socket: socket)
        }
        return nil
    }

    /// The replies (returns or errors) to `serials`, as many as come before the deadline; the
    /// bus's signals (NameAcquired) and anything else are passed over.
    func replies(to serials: Set<UInt32>) -> [UInt32: DBusWire.Message] {
        var replies: [UInt32: DBusWire.Message] = [:]
        // Bounded in count as well as in time: a peer could send small messages fast.
        for _ in 0..<64 where replies.count < serials.count {
            guard let message = socket.receive(limit: DBusWire.messageLimit * 2, { buffer throws in try DBusWire.parse(buffer) })
            else { break }
            if message.kind == .methodReturn || message.kind == .error, let serial = message.replySerial, serials.contains(serial) {
                replies[serial] = message
            }
        }
        return replies
    }
}

extension XDisplay {
    /// Whether the accessibility bus launcher has published its bus on this display's root
    /// (`AT_SPI_BUS`): without an accessibility bus, no screen reader runs. One round trip.
    var hasAccessibilityBus: Bool {
        guard atoms.atSpiBus != 0, let address = property(root, atoms.atSpiBus, type: Atom(XA_STRING), format: 8, limit: 4096) else {
            return false
        }
        return !address.isEmpty
    }
}
