import CGio
import CX11
import Glibc
import XToastCore

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
/// D-Bus goes through GDBus (`SessionBusClient`: GIO is loaded already, and every wait ends at
/// one deadline), SSIP directly over a unix socket (`BoundedSocket`, `SSIP`).
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
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        let busAddress =
            environment("DBUS_SESSION_BUS_ADDRESS")
            ?? environment("XDG_RUNTIME_DIR").flatMap { directory in
                g_dbus_address_escape_value(directory + "/bus").map { escaped in
                    defer { g_free(escaped) }
                    return "unix:path=" + String(cString: escaped)
                }
            }
        guard let busAddress else { return }
        let conversation = Conversation(
            text: text, bus: busAddress, speechSocket: SSIP.socketPath(environment: environment), user: environment("USER"),
            deadline: Wakeups.now() + timeLimit)
        conversation.start()
    }
}

/// One announcement, carried out on a detached thread.
private final class Conversation: Sendable {
    let text: String
    /// The session bus's D-Bus address.
    let bus: String
    let speechSocket: String?
    let user: String?
    let deadline: Double

    init(text: String, bus: String, speechSocket: String?, user: String?, deadline: Double) {
        self.text = text
        self.bus = bus
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
        guard let bus = SessionBusClient(address: bus, deadline: deadline) else { return .noScreenReader }
        let orca = ScreenReaderRoute.OrcaService.self
        bus.callBus(1, member: "NameHasOwner", arguments: [orca.current.busName])
        bus.callBus(2, member: "NameHasOwner", arguments: [orca.older.busName])
        // Not started for this question if it is not running (no auto-start): then no
        // accessibility bus is in use and no screen reader runs.
        bus.call(
            3, destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: ["org.a11y.Status", "ScreenReaderEnabled"], activates: false)
        let answers = bus.answers(to: [1, 2, 3])
        let route = ScreenReaderRoute.choose(
            currentOrcaRuns: answers[1] ?? nil, olderOrcaRuns: answers[2] ?? nil, screenReaderEnabled: answers[3] ?? nil)
        switch route {
        case .none:
            return .noScreenReader
        case .orca(let service):
            bus.call(
                4, destination: service.busName, path: service.path, interface: service.interface, member: "PresentMessage",
                arguments: [text], activates: false)
            // Orca is one Python main loop and may be busy: no reply in time means it has not
            // handled the call yet, not that it will not; speaking too would say it twice.
            guard let presented = bus.answers(to: [4])[4] else { return .presented }
            return presented == true ? .presented : speak()
        case .speechDispatcher:
            return speak()
        }
    }

    /// Speaks the text through Speech Dispatcher (not started if it does not run: a screen
    /// reader that uses it has started it).
    private func speak() -> Result {
        guard let path = speechSocket else { return .failed("no runtime directory for Speech Dispatcher's socket") }
        guard let socket = BoundedSocket.connect(to: path, deadline: deadline) else {
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
