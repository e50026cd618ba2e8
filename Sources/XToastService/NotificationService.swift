import CGio
import Glibc
import XToastCore
import XToastRender
import XToastSystem
import XToastX11

/// `xtoast --notification-service`: `org.freedesktop.Notifications` on the session bus, started
/// by the bus when an application first sends a notification (D-Bus activation) and gone once
/// nothing has been shown for `idleTime`. Each notification is a toast of its own process, in
/// the same queue as every other toast on the display. What goes where and when is the
/// dispatcher's (`Dispatcher`, in XToastCore); this translates calls, processes and time into
/// its events and carries out its effects, through the same `Driver` the tests run it with.
///
/// It never waits for the X server once it runs: ids are counted in a file (`NotificationIDs`),
/// icons are checked by the toasts themselves, and the display is only watched for its end.
/// Another client's grab of the server, however long, holds no call; a display that goes ends
/// the service, after closing every notification.
public final class NotificationService {
    public static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    /// The exit status when another program owns the name (sysexits' EX_UNAVAILABLE).
    public static let nameTakenStatus: Int32 = 69
    /// What the service says it can do: only what works (Chromium wants `body` and `actions`,
    /// Firefox falls back to its own popups without `actions`; with `x-kde-origin-name` Chromium
    /// sends a site's name as that hint, shown at the head of the title, instead of as the
    /// body's first paragraph).
    public static let capabilities = [
        "body", "body-markup", "body-hyperlinks", "actions", "icon-static", "persistence", "x-canonical-private-synchronous",
        "x-dunst-stack-tag", "x-kde-origin-name", "x-kde-display-appname", "inline-reply",
    ]
    /// The interface of the user's calls on kept notifications (`--press`, `--dismiss` and
    /// `--reshow` with `--notification`, the centre), on the same object: a call starts the
    /// service as a `Notify` does, so that the action reaches the application.
    public static let centerInterface = "org.xtoast.Center"
    /// The error a user's call gets for a notification that is not there, or an action it lacks.
    public static let unknownError = "org.xtoast.Error.UnknownNotification"
    public static let noActionError = "org.xtoast.Error.NoSuchAction"

    /// The first notification's toast process, forked from the service as it starts.
    public struct ToastProcess {
        let process: ToastProcesses.Spare
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
    public static func forkToastProcess() -> Fork { ToastProcesses.fork() }

    /// How the service ended: the exit status and the line to print, if any.
    public struct Ending: Error {
        public var status: Int32
        public var message: String?
    }

    let display: XDisplay
    let rules: [NotificationRule]
    let version: String
    let warn: (String) -> Void
    /// Adds entries to the history, oldest first (the command's `HistoryFile`).
    let record: ([HistoryEntry]) -> Void
    /// Entries to record a second after the first: a burst's are written at once, not one file
    /// read and write per notification while calls wait.
    private var unrecorded: [HistoryEntry] = []
    private var recordingSource: guint = 0
    private(set) var driver: Driver<Dispatcher>
    private let processes = ToastProcesses()
    private let commands = RuleCommandProcesses()
    private let images = ImageFiles()
    private let store = KeptStore()
    private var ids: NotificationIDs?
    /// The user's call being answered (its answer is an effect of the dispatcher).
    private var pendingCall: OpaquePointer?
    private var loop: OpaquePointer?
    private(set) var connection: OpaquePointer?
    /// The clients holding inhibitions (`Inhibit`), by bus name, and the last cookie given.
    var inhibitors: [String: Inhibitor] = [:]
    var nextCookie: UInt32 = 0
    var ownerID: guint = 0
    /// The name taken back after its release (`ownsName`): the watch on its loss; 0: none.
    var reclaimedNameWatch: guint = 0
    private var timer: guint = 0
    private var displayWatch: guint = 0
    private var acquired = false
    private var ending = Ending(status: 0, message: nil)

    /// The first notification's toast process, forked before anything else; nil once adopted.
    private var forked: ToastProcess?

    public init(
        display: XDisplay, rules: [NotificationRule], limits: Dispatcher.Limits, version: String, forked: ToastProcess?,
        record: @escaping ([HistoryEntry]) -> Void, warn: @escaping (String) -> Void
    ) {
        (self.display, self.rules, self.version, self.record, self.warn) = (display, rules, version, record, warn)
        self.forked = forked
        driver = Driver(Dispatcher(limits: limits))
    }

    /// Owns the name and serves until idle; the exit status, or why it could not serve.
    public func run() throws(Ending) -> Int32 {
        service = self
        defer { service = nil }
        // The toasts' images are for this user alone.
        umask(0o077)
        do throws(SystemFailure) {
            ids = try NotificationIDs(folder: NotificationIDs.folder)
        } catch {
            throw Ending(status: 1, message: "cannot count notification ids: \(error)")
        }
        loop = g_main_loop_new(nil, 0)
        defer { g_main_loop_unref(loop) }
        // Never replace another daemon, and never wait in line behind it: one clear line instead.
        ownerID = g_bus_own_name(
            G_BUS_TYPE_SESSION, Self.busName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, onBusAcquired, onNameAcquired, onNameLost, nil, nil)
        RuleCommandProcesses.current = commands
        commands.tell = { [unowned self] id, end in feed(.commandEnded(id, end)) }
        processes.tell = { [unowned self] news in
            switch news {
            case .queued(let pid): feed(.queued(pid))
            case .ended(let pid, let report, let status): feed(.ended(pid, report: report, status: status))
            }
        }
        displayWatch = g_unix_fd_add(
            display.fileDescriptor, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue), onDisplay, nil)
        // The first notification's process gets ready while the service gets onto the bus.
        feed(.start)
        let kept = store.all()
        feed(.recalled(kept, wallTime: Int(Clock.wall())))
        // Listened to before it is read: a change after the read still comes as an event.
        display.listenForPause()
        feed(.paused(until: pauseEnd()))
        images.sweep(olderThan: driver.machine.limits.keptAge + 3600, keeping: Set(kept.compactMap(\.picture)))
        if !driver.machine.isFinished { display.idle { g_main_loop_run(loop) } }
        if displayWatch != 0 { g_source_remove(displayWatch) }
        if recordingSource != 0 { g_source_remove(recordingSource) }
        recordNow()
        releaseName()
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
        connection = nil
        if ending.status != 0 || ending.message != nil { throw ending }
        return 0
    }

    fileprivate func stop(_ status: Int32, _ message: String?) {
        if ending.status == 0 && ending.message == nil { ending = Ending(status: status, message: message) }
        g_main_loop_quit(loop)
    }

    // MARK: The dispatcher

    /// The one way into the dispatcher: hands it `event`, now, and carries out what it says,
    /// with the answers, in the driver's order; then arms the one timer for its deadline.
    func feed(_ event: Dispatcher.Event) {
        driver.handle(event, at: Clock.monotonic())
        while let effect = driver.next(at: Clock.monotonic()) {
            let answers = carryOut(effect)
            driver.answer(answers, at: Clock.monotonic())
        }
        armTimer()
        // After a flood, what it kept goes back to the system, not only to malloc.
        if driver.machine.isEmpty { Memory.giveBack() }
    }

    private func carryOut(_ effect: Dispatcher.Effect) -> [Dispatcher.Event] {
        switch effect {
        case .startSpare:
            let started = processes.startSpare(adopting: forked?.process)
            forked = nil
            if let failure = started.failure { warn("cannot start a toast process: \(failure)") }
            return [.spareStarted(started.pid)]
        case .hand(let id, let arguments, let pid):
            return [.handed(id, processes.hand(arguments, to: pid))]
        case .endSpare(let pid):
            processes.endSpare(pid)
        case .dismiss(let pid):
            processes.dismiss(pid)
        case .invoke(let id, let action, let clickTime):
            if let clickTime {
                let token = NotificationChild.activationToken(service: getpid(), id: id, time: clickTime)
                signal("ActivationToken", [g_variant_new_uint32(id), g_variant_new_string(token)])
            }
            signal("ActionInvoked", [g_variant_new_uint32(id), g_variant_new_string(action)])
        case .replied(let id, let text):
            signal("NotificationReplied", [g_variant_new_uint32(id), g_variant_new_string(text)])
        case .closed(let id, let reason):
            signal("NotificationClosed", [g_variant_new_uint32(id), g_variant_new_uint32(reason.rawValue)])
        case .keep(let notification):
            do throws(SystemFailure) { try store.write(notification) } catch {
                warn("cannot keep notification \(notification.id): \(error)")
            }
        case .forget(let id):
            store.remove(id)
        case .record(let entry):
            // The history keeps its newest entries only: no more are held for it.
            unrecorded = Array((unrecorded + [entry]).suffix(HistoryStore.countLimit))
            // At most once a second: a flood's history is a write or two, not one per lull.
            if recordingSource == 0 { recordingSource = g_timeout_add_full(G_PRIORITY_LOW, 1000, onRecord, nil, nil) }
        case .answer(let answer):
            answerCall(answer)
        case .removePicture(let path):
            unlink(path)
        case .releaseName:
            releaseName()
            // The calls sent before the release are on their way to the loop already: they are
            // handled before this, at the lowest priority.
            g_idle_add_full(G_PRIORITY_LOW, onReleased, nil, nil)
        case .exit:
            if let connection { g_dbus_connection_flush_sync(connection, nil, nil) }
            g_main_loop_quit(loop)
        case .warn(let line):
            warn(line)
        case .runCommand(let id, let command, let environment):
            return commands.run(id, command, environment: environment).map { [.commandEnded(id, $0)] } ?? []
        case .killCommand(let id):
            commands.kill(id)
        case .openCenter:
            openCenter()
        }
        return []
    }

    /// When the pause on the display ends, on the monotonic clock (infinity: when resumed);
    /// nil: not paused. A round trip.
    private func pauseEnd() -> Double? {
        let wall = Clock.wall()
        guard let pause = display.pause(now: wall) else { return nil }
        return pause.end.map { Clock.monotonic() + Double($0) - wall } ?? .infinity
    }

    /// `xtoast --center`, from this same binary, on the service's display: the summary after a
    /// pause was clicked. Not waited for (GLib reaps it).
    private func openCenter() {
        do throws(Errno) {
            let pid = try ChildProcess.spawn("/proc/self/exe", arguments: ["xtoast", "--center"])
            g_child_watch_add(pid, onCenterEnded, nil)
        } catch {
            warn("cannot open the centre: \(error)")
        }
    }

    fileprivate func released() { feed(.released) }

    /// Writes what waits for the history (a second after the first, or as the service ends).
    fileprivate func recordNow() {
        recordingSource = 0
        let entries = unrecorded
        unrecorded = []
        record(entries)
    }

    fileprivate func timerFired() {
        timer = 0
        feed(.tick)
    }

    private func armTimer() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        guard let deadline = driver.machine.deadline else { return }
        let milliseconds = max(0, (deadline - Clock.monotonic()) * 1000).rounded(.up)
        timer = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(min(milliseconds, 86_400_000)), onTimer, nil, nil)
    }

    /// The display's connection has something to read, or has ended: at its end nothing can show
    /// any more, and every notification is closed before the service goes.
    fileprivate func displayReady() -> Bool {
        if display.stillConnected() {
            if display.takePauseChange() { feed(.paused(until: pauseEnd())) }
            return true
        }
        displayWatch = 0
        feed(.displayGone)
        stop(1, "lost the connection to the X server")
        return false
    }

    // MARK: The bus

    fileprivate func registered(on connection: OpaquePointer) {
        // Held until the service ends: GIO lets its own go with the name, and the calls sent
        // before the name went are still to be answered.
        g_object_ref(UnsafeMutableRawPointer(connection))
        self.connection = connection
        // GDBus would end the process by SIGTERM when the bus goes, without a word: the service
        // says so instead (its toasts go on, and end quietly).
        g_dbus_connection_set_exit_on_close(connection, 0)
        xtoast_on_connection_closed(connection, onBusClosed)
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error),
            let interface = g_dbus_node_info_lookup_interface(node, Self.busName)
        else {
            stop(1, "cannot read the interface: \(message(of: error))")
            return
        }
        guard let center = g_dbus_node_info_lookup_interface(node, Self.centerInterface) else { return }
        for served in [interface, center]
        where xtoast_register_object(connection, Self.objectPath, served, onMethodCall, onGetProperty, &error) == 0 {
            stop(1, "cannot serve \(Self.objectPath): \(message(of: error))")
            return
        }
    }

    fileprivate func nameAcquired() { acquired = true }

    fileprivate func busClosed() { stop(1, "the session bus closed the connection") }

    func nameLost(_ connection: OpaquePointer?) {
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

    fileprivate func call(_ interface: String, _ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        if interface == Self.centerInterface {
            userCall(method, parameters, invocation)
            return
        }
        switch method {
        case "Notify":
            guard let parameters else { return }
            guard ownsName() else { return passOn(parameters, invocation) }
            let request = VariantReading.request(parameters)
            let id = id(replacing: request.replacesID)
            // Answered first: whatever the notification costs to take in, the caller never waits
            // for it.
            reply(invocation, [g_variant_new_uint32(id)])
            feed(.notify(accept(request, id: id)))
        case "CloseNotification":
            var id: UInt32 = 0
            if let parameters, let value = g_variant_get_child_value(parameters, 0) {
                id = g_variant_get_uint32(value)
                g_variant_unref(value)
            }
            reply(invocation, [])
            recallIfKept(id)
            // A notification that is gone already is not an error (as in dunst and GNOME).
            feed(.close(id))
        case "Inhibit":
            guard ownsName() else { return Self.refuseWhileLeaving(invocation) }
            inhibit(invocation)
        case "UnInhibit":
            uninhibit(parameters.map { VariantReading.uint32($0, at: 0) } ?? 0)
            reply(invocation, [])
        case "GetCapabilities":
            // `sound` only where one can play (libcanberra loads: asked once, at the first call).
            let names = (Self.capabilities + (SoundPlayer.canPlay ? ["sound"] : [])).map { g_variant_new_string($0) }
            reply(invocation, [g_variant_new_array(variantType("s"), names, gsize(names.count))])
        case "GetServerInformation":
            let information: [String] = ["xtoast", "xtoast", version, "1.2"]
            reply(invocation, information.map { g_variant_new_string($0) })
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    /// `org.xtoast.Center`: `Press(u id, s label, u time)` (an empty label: the default action;
    /// time 0: none known), `Dismiss(u id)`, `Reshow(u id)`, `DismissAll()`, and the centre's
    /// `DismissMany(au ids)`.
    private func userCall(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        if method == "DismissAll" {
            reply(invocation, [])
            feed(.dismissAll)
            return
        }
        guard let parameters else { return }
        if method == "DismissMany" {
            // The centre's Delete and "Clear all": answered at once, each id dismissed as Dismiss
            // would, none of them an error (another may have closed it meanwhile).
            reply(invocation, [])
            for id in VariantReading.uint32s(parameters, at: 0, limit: KeptNotifications.fileCountLimit) {
                recallIfKept(id)
                feed(.user(id, .dismiss))
            }
            return
        }
        let id = VariantReading.uint32(parameters, at: 0)
        let call: Dispatcher.UserCall
        switch method {
        case "Press":
            let label = VariantReading.string(parameters, at: 1)
            let time = VariantReading.uint32(parameters, at: 2)
            call = .press(label: label.isEmpty ? nil : label, clickTime: time == 0 ? nil : time)
        case "Dismiss": call = .dismiss
        case "Reshow": call = .reshow
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
            return
        }
        recallIfKept(id)
        pendingCall = invocation
        feed(.user(id, call))
        // Not answered (the service is finished): the caller is told, not left waiting.
        if let invocation = pendingCall { answerCall(.unknown(id), to: invocation) }
    }

    private func answerCall(_ answer: Dispatcher.Answer, to invocation: OpaquePointer? = nil) {
        guard let invocation = invocation ?? pendingCall else { return }
        pendingCall = nil
        switch answer {
        case .done: reply(invocation, [])
        case .unknown(let id):
            g_dbus_method_invocation_return_dbus_error(invocation, Self.unknownError, "no notification \(id) is kept or showing")
        case .noAction(let id, let label):
            let what = label.map { "no button \"\(TerminalText.line($0))\"" } ?? "no default action"
            g_dbus_method_invocation_return_dbus_error(invocation, Self.noActionError, "notification \(id) has \(what)")
        }
    }

    /// A call names `id`, which this service does not know: another service may have kept it
    /// since this one read the store.
    private func recallIfKept(_ id: UInt32) {
        guard driver.machine.place(of: id) == nil, driver.machine.kept[id] == nil, let notification = store.read(id) else { return }
        feed(.recalled([notification], wallTime: Int(Clock.wall())))
    }

    private func reply(_ invocation: OpaquePointer?, _ values: [OpaquePointer?]) {
        var values = values
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&values, gsize(values.count)))
    }

    /// The id a `Notify` gets: the one it replaces when that was given, else a new one (a
    /// `replaces_id` never given would be handed out again later: two applications would share
    /// an id, a toast and `NotificationClosed`; dunst and GNOME give a new one too).
    private func id(replacing replaced: UInt32) -> UInt32 {
        guard let ids else { return 0 }
        return replaced != 0 && ids.isIssued(replaced) ? replaced : ids.take()
    }

    /// A notification as the dispatcher takes it: its picture written (no larger than a toast
    /// draws it), its icon a name or path the toast can be given (the toast checks it, and
    /// shows without it when it cannot be drawn: a slow icon holds nobody else's call).
    private func accept(_ request: NotificationRequest, id: UInt32) -> Dispatcher.Notification {
        if !request.hints.mistyped.isEmpty {
            warn("hints of the wrong type ignored: \(request.hints.mistyped.joined(separator: ", "))")
        }
        var picture: String?
        if let image = request.hints.image {
            do throws(NotificationImage.Problem) {
                picture = try images.write(image, id: id)
            } catch {
                warn("\(error.description); the notification is shown without it")
            }
        }
        let icon = picture ?? iconName(request.hints.imagePath) ?? iconName(request.appIcon)
        let toast = NotificationToast(id: id, request: request, icon: icon, rules: rules)
        return Dispatcher.Notification(id: id, toast: toast, time: Int(Clock.wall()), picture: picture)
    }

    /// An icon name or local file the toast's command line takes; nil, with one warning, for
    /// what it never could (another host's file). Whether it can be drawn is the toast's to find
    /// out, after its place in the queue is taken: a slow icon holds nobody else.
    private func iconName(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let path: String
        do throws(FileURI.Refusal) {
            path = try FileURI.path(text)
        } catch {
            warn("icon \(TerminalText.line(text)): \(error.reason); the notification is shown without it")
            return nil
        }
        return Icon(parsing: path) != nil ? path : nil
    }

    private func signal(_ name: String, _ values: [OpaquePointer?]) {
        guard let connection else { return }
        var values = values
        g_dbus_connection_emit_signal(
            connection, nil, Self.objectPath, Self.busName, name, g_variant_new_tuple(&values, gsize(values.count)), nil)
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
            <signal name="NotificationReplied"><arg type="u"/><arg type="s"/></signal>
            <method name="Inhibit">
              <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
              <arg type="u" direction="out"/>
            </method>
            <method name="UnInhibit"><arg type="u" direction="in"/></method>
            <property name="Inhibited" type="b" access="read"/>
          </interface>
          <interface name="org.xtoast.Center">
            <method name="Press">
              <arg type="u" direction="in"/><arg type="s" direction="in"/><arg type="u" direction="in"/>
            </method>
            <method name="Dismiss"><arg type="u" direction="in"/></method>
            <method name="Reshow"><arg type="u" direction="in"/></method>
            <method name="DismissAll"/>
            <method name="DismissMany"><arg type="au" direction="in"/></method>
          </interface>
        </node>
        """
}

/// The running service, for GLib's C callbacks (one per process).
nonisolated(unsafe) var service: NotificationService?

private let onBusAcquired: GBusAcquiredCallback = { connection, _, _ in
    if let connection { service?.registered(on: connection) }
}
private let onNameAcquired: GBusNameAcquiredCallback = { _, _, _ in service?.nameAcquired() }
private let onNameLost: GBusNameLostCallback = { connection, _, _ in service?.nameLost(connection) }
private let onMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, interface, method, parameters, invocation, _ in
    guard let interface, let method else { return }
    service?.call(String(cString: interface), String(cString: method), parameters, invocation)
}
private let onGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, name, _, _ in
    guard let name, String(cString: name) == "Inhibited" else { return nil }
    return g_variant_new_boolean(service?.inhibited == true ? 1 : 0)
}
let onInhibitorVanished: GBusNameVanishedCallback = { _, name, _ in
    if let name { service?.inhibitorVanished(String(cString: name)) }
}
private let onCenterEnded: GChildWatchFunc = { pid, _, _ in g_spawn_close_pid(pid) }
private let onTimer: GSourceFunc = { _ in
    service?.timerFired()
    return 0
}
private let onRecord: GSourceFunc = { _ in
    service?.recordNow()
    return 0
}
private let onReleased: GSourceFunc = { _ in
    service?.released()
    return 0
}
private let onDisplay: GUnixFDSourceFunc = { _, _, _ in (service?.displayReady() ?? false) ? 1 : 0 }
private let onBusClosed: @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { _, _, _, _ in
    service?.busClosed()
}

extension String {
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
