import CX11
import Glibc
import XToastCore
import XToastRender
import XToastSystem

/// What can go wrong while talking to the X server, in words for the user.
public enum X11Error: Error, Equatable, CustomStringConvertible {
    case noDisplay
    /// The display's name, and why when Xlib or the system said (sanitized, one line).
    case cannotOpen(String, reason: String?)
    /// The server did not answer for `XDisplay.answerTimeout` seconds, while connecting
    /// (`connected` false) or later.
    case noAnswer(String, connected: Bool)
    /// The server kept working for `XDisplay.busyTimeout` seconds without answering us (another
    /// client's grab that does not end).
    case busyElsewhere(String)
    case unknownMonitor(UnknownMonitorError)
    case noMonitors
    case cannotCreateWindow(String)
    case system(String)

    public var description: String {
        switch self {
        case .noDisplay:
            "no display: DISPLAY is not set (use --render-png FILE to draw without X)"
        case .cannotOpen(let name, let reason):
            "cannot open display \"\(name)\"" + (reason.map { ": " + $0 } ?? "")
        case .noAnswer(let name, connected: false):
            "display \"\(name)\" did not answer within \(XDisplay.answerTimeout) s"
        case .noAnswer(let name, connected: true):
            "display \"\(name)\" stopped answering: no reply within \(XDisplay.answerTimeout) s"
        case .busyElsewhere(let name):
            "display \"\(name)\" served other clients but not this one for \(XDisplay.busyTimeout) s"
        case .unknownMonitor(let error):
            error.description
        case .noMonitors:
            "the X server reports no monitors"
        case .cannotCreateWindow(let why):
            "cannot create the window: \(why)"
        case .system(let what):
            what
        }
    }
}

/// The X protocol errors that arrived since the last `XDisplay.trapErrors`. Xlib calls the
/// handler on this same thread from inside Xlib calls, so a plain global is enough.
nonisolated(unsafe) private var trappedErrors: [UInt8] = []

/// The connection to the X server; owns the `Display*` and closes it last.
public final class XDisplay {
    public let pointer: OpaquePointer
    /// The same connection seen through XCB, for requests whose answers are collected later:
    /// questions asked together cost one round trip (Xlib waits after each).
    let connection: OpaquePointer
    public let screen: Int32
    public let root: Window
    public let atoms: Atoms
    /// The name it was opened with, for messages.
    public let name: String
    /// What each part of xtoast listens to on the root; the root gets their union.
    private var rootListeners: [RootListener: Int] = [:]
    /// `_XTOAST_PAUSED` changed (a `PropertyNotify` read by `stillConnected`).
    private var pauseChanged = false
    /// An InputOnly window that is never mapped, for `InputProbe`; made when first asked for.
    private var probe: xcb_window_t = 0
    /// The notification service's window that says who holds notifications (see `Inhibited`);
    /// 0 while nobody does.
    var inhibitionWindow: Window = 0

    /// Seconds the server may stay silent while xtoast waits for its answer (to connect, or to
    /// a request) before xtoast gives up with one line and status 1. Only silence counts: not
    /// xtoast's own work, nor waiting for the CPU, nor a local server busy with other clients
    /// (see watchdog.h). Waiting for events is not bounded.
    public static let answerTimeout: UInt32 = 5
    /// Seconds a local server may keep working for others while xtoast waits for its answer.
    public static let busyTimeout: UInt32 = 60

    /// Connects, with the watchdog armed from here on (see `idle`).
    public init(name requested: String?) throws(X11Error) {
        let name = requested ?? String(cString: XDisplayName(nil))
        guard !name.isEmpty else { throw .noDisplay }
        // A server that accepts the connection and then says nothing (stopped, or a silent
        // port) would hold Xlib for ever, and with it the caller.
        let lines = [X11Error.noAnswer(name, connected: false), .noAnswer(name, connected: true), .busyElsewhere(name)].map {
            "xtoast: " + TerminalText.line($0.description) + "\n"
        }
        xtoast_watchdog_start(XDisplay.answerTimeout, XDisplay.busyTimeout, lines[0], lines[1], lines[2])
        // Xlib would set up XKB (two round trips) for keyboard translation we never do.
        let keepsXKBSetting = Environment.isSet("XKB_DISABLE")
        if !keepsXKBSetting { Environment.set("XKB_DISABLE", to: "1") }
        let (opened, reason) = XDisplay.open(name)
        if !keepsXKBSetting { Environment.unset("XKB_DISABLE") }
        guard let display = opened else { throw .cannotOpen(name, reason: reason) }
        xtoast_watchdog_set_connected(XConnectionNumber(display))
        guard let connection = XGetXCBConnection(display) else {
            XCloseDisplay(display)
            throw .cannotOpen(name, reason: nil)
        }
        pointer = display
        self.connection = connection
        self.name = name
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        XDisplay.installErrorHandlers()
        // cairo-xlib asks libXrender for RENDER's opcode, then its version and picture formats,
        // each a round trip of its own before the first paint; asked here, while XCB's
        // questions are out, they come back with those answers, and libXrender keeps them.
        atoms = Atoms(connection: connection, screen: screen) {
            var event: Int32 = 0
            var error: Int32 = 0
            _ = XRenderQueryExtension(display, &event, &error)
        }
    }

    /// The second half of RENDER's set-up (see `init`): its version and picture formats, to be
    /// called while other questions are out (the start-up batch's).
    func finishRenderSetUp() { _ = XRenderQueryFormats(pointer) }

    /// The parts of xtoast that listen to the root, each with a mask of its own: X keeps one
    /// mask per client and window, so each part's is kept here and the root gets the union.
    public enum RootListener: Hashable {
        /// The queue's lists and the pause (`QueueStore`), the stack.
        case queue
        /// Windows mapped or raised over the toast on screen, docks coming and going (`WindowSet`).
        case windows
        /// The lock's end while a locker's grabs decided (`LockWatch`).
        case lock
        /// The fullscreen windows' list and states (`FullscreenWatch`).
        case fullscreen
        /// The queue's lists and the pause, for a status bar (`StatusWatch`).
        case status
        /// The pause, for the centre's switch (`CenterWindow`).
        case center
        /// The pause, for the notification service (what comes during it is kept unseen).
        case service
    }

    /// Seconds a keyboard grab is tried for: the window manager's binding that started us (or
    /// pressed a button, `xtoast --press`) holds the keyboard until its key comes up, as dmenu
    /// finds.
    static let keyboardGrabPatience = 1.0

    /// Grabs the keyboard for `window`, trying again every 5 ms for `keyboardGrabPatience`
    /// while another client holds it; whether it is ours. `ownerEvents`: keys for our other
    /// windows go to them, as usual, instead of all to `window`.
    func grabKeyboard(for window: Window, ownerEvents: Bool) -> Bool {
        let deadline = Clock.monotonic() + Self.keyboardGrabPatience
        while XGrabKeyboard(pointer, window, ownerEvents ? 1 : 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime)) != GrabSuccess {
            guard Clock.monotonic() < deadline else { return false }
            usleep(5000)
        }
        return true
    }

    /// Sets what `listener` wants of the root's events (0: nothing) and asks for the union,
    /// through XCB, in order with the questions asked there.
    func listenOnRoot(_ mask: Int, as listener: RootListener) {
        rootListeners[listener] = mask
        var union = UInt32(truncatingIfNeeded: rootListeners.values.reduce(0, |))
        xcb_change_window_attributes(
            connection, xcb_window_t(truncatingIfNeeded: root), UInt32(XCB_CW_EVENT_MASK.rawValue), &union)
    }

    /// The window `InputProbe` asks its grabs on: InputOnly, never mapped.
    var probeWindow: xcb_window_t {
        if probe == 0 {
            probe = xcb_generate_id(connection)
            xcb_create_window(
                connection, 0, probe, xcb_window_t(truncatingIfNeeded: root), -1, -1, 1, 1, 0,
                UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0, 0, nil)
        }
        return probe
    }

    /// Closed, the connection is nothing to watch: its descriptor's number may be another's next.
    deinit {
        XDisplay.disarmWatchdog()
        XCloseDisplay(pointer)
    }

    /// The watchdog's switch (watchdog.h: one per process, however the calls are inlined).
    static func armWatchdog() { xtoast_watchdog_arm() }
    static func disarmWatchdog() { xtoast_watchdog_disarm() }

    /// Switches the watchdog off for good in this process: for a test, which waits for its own
    /// conditions (the watchdog would end the whole test process).
    public func stopWatchdog() { XDisplay.disarmWatchdog() }

    /// `XOpenDisplay`, with what Xlib writes to standard error meanwhile captured, so that its
    /// reason ("Maximum number of clients reached", "Authorization required…") becomes part of
    /// our one line instead of a line of its own. On success anything captured (a library's
    /// warning from another thread) is passed on. Returns the reason on failure.
    private static func open(_ name: String) -> (OpaquePointer?, reason: String?) {
        let standardError = dup(2)
        guard standardError >= 0, let pipe = try? Pipe() else {
            if standardError >= 0 { close(standardError) }
            let (display, failure) = Errno.leftBy { XOpenDisplay(name) }
            return (display, display == nil ? reason(captured: [], failure: failure) : nil)
        }
        // Never blocking on a full pipe: past 64 KiB, Xlib's writes fail instead.
        Descriptor.setNonBlocking(pipe.write)
        dup2(pipe.write, 2)
        close(pipe.write)
        xtoast_watchdog_write_to(standardError)
        let (display, failure) = Errno.leftBy { XOpenDisplay(name) }
        dup2(standardError, 2)
        close(standardError)
        xtoast_watchdog_write_to(2)
        // Every writing end is closed now: the read ends at what was written.
        var captured: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while captured.count < 4096 {
            guard case .success(let count) = retryingOnInterrupt({ read(pipe.read, &buffer, buffer.count) }), count > 0 else { break }
            captured += buffer[0..<count]
        }
        close(pipe.read)
        if display != nil {
            if !captured.isEmpty { captured.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) } }
            return (display, nil)
        }
        return (nil, reason(captured: captured, failure: failure))
    }

    /// Runs `body`, a wait for events, signals or time, with the watchdog off: only waiting for
    /// the server's answers is bounded, and a toast may hold or wait its turn for hours.
    public func idle<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        XDisplay.disarmWatchdog()
        defer { XDisplay.armWatchdog() }
        return try body()
    }

    /// Runs `body`, requests to the server, with the watchdog armed inside an `idle` wait (the
    /// notification service asks between long waits in GLib's loop).
    public func awake<T>(_ body: () -> T) -> T {
        XDisplay.armWatchdog()
        defer { XDisplay.disarmWatchdog() }
        return body()
    }

    /// Whether the connection is still up, for a client that only watches it (the notification
    /// service): what the server sent is read and dropped without waiting. Its end is read
    /// without Xlib, whose end is its I/O error handler's.
    public func stillConnected() -> Bool {
        var byte: UInt8 = 0
        let peeked = recv(fileDescriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if peeked == 0 { return false }
        if peeked < 0 {
            let failure = Errno.current
            return failure == .wouldBlock || failure == .interrupted
        }
        while XPending(pointer) > 0 {
            var event = XEvent()
            XNextEvent(pointer, &event)
            if event.type == PropertyNotify && event.xproperty.window == root && event.xproperty.atom == atoms.paused {
                pauseChanged = true
            }
        }
        return true
    }

    /// Whether `_XTOAST_PAUSED` changed since this was last asked, as the events `stillConnected`
    /// read said (the notification service listens for it: `listenForPause`).
    public func takePauseChange() -> Bool {
        defer { pauseChanged = false }
        return pauseChanged
    }

    /// Asks for the root's property changes, for `takePauseChange` (the notification service's
    /// summary after a pause).
    public func listenForPause() { listenOnRoot(PropertyChangeMask, as: .service) }

    /// The visual and depth for a window: a 32-bit TrueColor one when `alpha` is asked for and
    /// the server has one (per-pixel alpha for a compositor), else the screen's default.
    func visual(alpha: Bool) -> (visual: UnsafeMutablePointer<Visual>?, depth: Int32) {
        var info = XVisualInfo()
        guard alpha, XMatchVisualInfo(pointer, screen, 32, TrueColor, &info) != 0 else {
            return (XDefaultVisual(pointer, screen), XDefaultDepth(pointer, screen))
        }
        return (info.visual, 32)
    }

    /// The file descriptor to poll for events.
    public var fileDescriptor: Int32 { XConnectionNumber(pointer) }

    /// Protocol errors (a window that vanished, a bad property) are expected from a world of
    /// other clients: they are collected, never fatal. A lost connection is fatal and said once.
    private static func installErrorHandlers() {
        XSetErrorHandler { _, event in
            // Bounded: a long wait beside other clients' dying windows collects errors that
            // nobody asks about until the next `trapErrors`.
            if let event, trappedErrors.count < 64 { trappedErrors.append(event.pointee.error_code) }
            return 0
        }
        XSetIOErrorHandler { _ in
            let message = "xtoast: lost the connection to the X server\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            // Xlib must not be called again, and nothing of ours is left on a dead server.
            _exit(1)
        }
    }

    /// Runs `body`, waits for the server to answer everything it sent, and returns the protocol
    /// error codes it caused (empty when it succeeded). One round trip: use it sparingly.
    public func trapErrors(_ body: () -> Void) -> [UInt8] {
        XSync(pointer, 0)
        trappedErrors.removeAll()
        body()
        XSync(pointer, 0)
        defer { trappedErrors.removeAll() }
        return trappedErrors
    }

    /// The resource database string (`xrdb`'s), read when the connection opened: no round trip.
    /// Any client can write it: only its first MiB is looked at, as with a config file.
    public var resourceString: String? {
        XResourceManagerString(pointer).map { text in
            let bytes = UnsafeRawBufferPointer(start: text, count: strnlen(text, 1 << 20))
            return MessageText.decode(bytes).text
        }
    }

    /// The XSETTINGS manager's settings property, nil when no manager runs (a round trip to
    /// find the manager unless `manager` says who it is, one more to read it).
    public func xsettings(manager: Window? = nil) -> [UInt8]? {
        let owner = manager ?? XGetSelectionOwner(pointer, atoms.xsettingsSelection)
        guard owner != 0 else { return nil }
        return property(owner, atoms.xsettings, type: atoms.xsettings, format: 8, limit: 1 << 16)
    }

    /// Whether an XSETTINGS manager (`manager`, when already known) says `Net/EnableAnimations`
    /// is off.
    public func reducesMotion(manager: Window? = nil) -> Bool {
        xsettings(manager: manager).map(XSettings.reducesMotion) ?? false
    }

    /// The owner of a selection, asked now and read with `owner(_:)`: the question travels with
    /// the next ones and adds no round trip of its own.
    func askOwner(of selection: Atom) -> xcb_get_selection_owner_cookie_t {
        xcb_get_selection_owner(connection, xcb_atom_t(truncatingIfNeeded: selection))
    }

    /// The answer to `askOwner(of:)`: a window, or 0 for none (or a lost connection).
    func owner(_ question: xcb_get_selection_owner_cookie_t) -> Window {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_selection_owner_reply(connection, question, &error)
        defer {
            free(reply)
            free(error)
        }
        return Window(reply?.pointee.owner ?? 0)
    }

    /// Whether a compositing manager owns `_NET_WM_CM_S<screen>`.
    public func compositorIsRunning() -> Bool {
        XGetSelectionOwner(pointer, atoms.compositorSelection) != 0
    }

    /// The type of a property, 0 when the window has no such property.
    public func propertyType(_ window: Window, _ property: Atom) -> Atom {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        _ = XGetWindowProperty(pointer, window, property, 0, 0, 0, Atom(AnyPropertyType), &type, &format, &count, &remaining, &data)
        if let data { XFree(data) }
        return type
    }

    /// The raw value of a property of the given type and format, nil when absent, of another
    /// type or format, or longer than `limit` bytes: any client can write anything there.
    public func property(_ window: Window, _ property: Atom, type: Atom, format: Int32, limit: Int, cut: Bool = false) -> [UInt8]? {
        var actualType: Atom = 0
        var actualFormat: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let longs = (limit + 3) / 4
        let status = XGetWindowProperty(
            pointer, window, property, 0, longs, 0, type, &actualType, &actualFormat, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, actualType == type, actualFormat == format, remaining == 0 || cut, let data else { return nil }
        // Format-32 data arrives as C longs (8 bytes each here), whatever the wire size.
        let itemSize = format == 32 ? MemoryLayout<UInt>.size : Int(format) / 8
        return Array(UnsafeBufferPointer(start: data, count: Int(count) * itemSize))
    }

    /// A format-32 list property (WINDOW, CARDINAL) as numbers; nil when absent or malformed.
    public func listProperty(_ window: Window, _ property: Atom, type: Atom, limit: Int) -> [UInt]? {
        // A list longer than the limit is read up to it: garbage must not hide the real entries.
        guard let bytes = self.property(window, property, type: type, format: 32, limit: limit * 4, cut: true) else { return nil }
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt.self)) }
    }

    /// Replaces a format-32 list property.
    public func setListProperty(_ window: Window, _ property: Atom, type: Atom, _ values: [UInt], mode: Int32 = PropModeReplace) {
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(
                pointer, window, property, type, 32, mode, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                Int32(values.count))
        }
    }
}

/// The atoms xtoast uses, interned in one round trip, which also brings the answers about the
/// RandR and SHAPE extensions, and whatever `meanwhile` asks through Xlib.
public struct Atoms {
    public let windowType, windowTypeNotification, wmState, wmStateAbove, wmStateSkipTaskbar: Atom
    public let activeWindow, wmPid, wmName, utf8String, compositorSelection: Atom
    /// The coordination protocol's own atoms (docs/protocol.md).
    public let queue, ticket, shown, replaces, command, scheduled, stack: Atom
    /// The XSETTINGS manager's selection and its settings property.
    public let xsettingsSelection, xsettings: Atom
    /// What compositors read from our window: its opacity (which their shadow follows too), and
    /// picom's switch for its own shadow.
    public let windowOpacity, compositorShadow: Atom
    /// Where docks and panels are: the window manager's client list and work area, and each
    /// client's struts.
    public let clientList, workArea, currentDesktop, strutPartial, strut: Atom
    /// What the fullscreen rule reads (`FullscreenWatch`): the stacking order, and the states in
    /// `_NET_WM_STATE` it looks for. Asked with the others: no round trip of their own.
    public let clientListStacking, wmStateFullscreen, wmStateHidden, wmStateMaximizedVert, wmStateMaximizedHorz: Atom
    public let windowTypeDesktop: Atom
    /// A dock or panel: in a toast's way even when it reserves nothing (`Coverage`).
    public let windowTypeDock: Atom
    /// Where the accessibility bus launcher publishes its bus (see `ScreenReader`).
    public let atSpiBus: Atom
    /// Do not disturb: the root's `_XTOAST_PAUSED` (see `Pause`).
    public let paused: Atom
    /// What a toast says, on its ticket window, for `--list` (`Listing.Said`).
    public let text: Atom
    /// Who holds notifications: on the root, the service's window; on it, the text (`Inhibited`).
    public let inhibited: Atom

    init(connection: OpaquePointer, screen: Int32, meanwhile: () -> Void) {
        let names = [
            "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WM_STATE", "_NET_WM_STATE_ABOVE",
            "_NET_WM_STATE_SKIP_TASKBAR", "_NET_ACTIVE_WINDOW", "_NET_WM_PID", "_NET_WM_NAME", "UTF8_STRING",
            "_NET_WM_CM_S\(screen)", "_XTOAST_QUEUE", "_XTOAST_TICKET", "_XTOAST_SHOWN", "_XTOAST_REPLACES",
            "_XTOAST_COMMAND", "_XTOAST_SCHEDULED", "_XTOAST_STACK", "_XSETTINGS_S\(screen)", "_XSETTINGS_SETTINGS",
            "_NET_WM_WINDOW_OPACITY", "_COMPTON_SHADOW", "_NET_CLIENT_LIST", "_NET_WORKAREA", "_NET_CURRENT_DESKTOP",
            "_NET_WM_STRUT_PARTIAL", "_NET_WM_STRUT", "AT_SPI_BUS", "_NET_CLIENT_LIST_STACKING", "_NET_WM_STATE_FULLSCREEN",
            "_NET_WM_STATE_HIDDEN", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_WINDOW_TYPE_DESKTOP",
            "_XTOAST_PAUSED", "_NET_WM_WINDOW_TYPE_DOCK", "_XTOAST_TEXT",
            "_XTOAST_INHIBITED",
        ]
        let questions = names.map { name in
            name.withCString { xcb_intern_atom(connection, 0, UInt16(strlen($0)), $0) }
        }
        xtoast_prefetch_extensions(connection)
        LockWatch.prefetchExtension(connection)
        meanwhile()
        // 0 (None) for an atom the server did not answer: only when the connection is gone,
        // which the next Xlib call reports.
        let atoms = questions.map { question -> Atom in
            let reply = xcb_intern_atom_reply(connection, question, nil)
            defer { free(reply) }
            return Atom(reply?.pointee.atom ?? 0)
        }
        (windowType, windowTypeNotification, wmState, wmStateAbove, wmStateSkipTaskbar) =
            (atoms[0], atoms[1], atoms[2], atoms[3], atoms[4])
        (activeWindow, wmPid, wmName, utf8String, compositorSelection) = (atoms[5], atoms[6], atoms[7], atoms[8], atoms[9])
        (queue, ticket, shown, replaces, command) = (atoms[10], atoms[11], atoms[12], atoms[13], atoms[14])
        (scheduled, stack, xsettingsSelection, xsettings) = (atoms[15], atoms[16], atoms[17], atoms[18])
        (windowOpacity, compositorShadow) = (atoms[19], atoms[20])
        (clientList, workArea, currentDesktop, strutPartial, strut) = (atoms[21], atoms[22], atoms[23], atoms[24], atoms[25])
        atSpiBus = atoms[26]
        (clientListStacking, wmStateFullscreen, wmStateHidden, wmStateMaximizedVert, wmStateMaximizedHorz) =
            (atoms[27], atoms[28], atoms[29], atoms[30], atoms[31])
        windowTypeDesktop = atoms[32]
        paused = atoms[33]
        windowTypeDock = atoms[34]
        text = atoms[35]
        inhibited = atoms[36]
    }
}
