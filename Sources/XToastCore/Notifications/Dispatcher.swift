/// The notification service's decisions (issues #28, #29), as a machine without I/O: which
/// notification a toast process gets and when, what is closed and why, when the service leaves.
/// Events in (a `Notify`, a `CloseNotification`, a process ready, queued or ended, the time),
/// effects out (start a process, hand a notification to one, dismiss one, a signal for the
/// application, release the bus name). The service (`NotificationService`, GLib) only carries
/// them out, through the same `Driver` as the simulations in the tests.
///
/// - Order: notifications are handed out in the order they came, one at a time into the queue:
///   the next goes once the last one's place is on the server (`queued`), or it ended, or
///   `joinBound` passed.
/// - Speed: a spare process is started before there is work for it, so that a notification
///   only has to be written into its standard input.
/// - Bounds: at most `running` processes alive (each an X client), at most `waiting`
///   notifications or `waitingBytes` bytes waiting for one; past those the oldest waiting is
///   closed (`expired`), with its signal: nothing is lost silently.
/// - A notification whose process ended before it joined the queue, without a word (a server
///   that stalled it past its bound, a process that could not start), is handed out again,
///   `retries` times, before it is closed (`undefined`).
/// - Replace: a `Notify` with the id of one waiting takes its place in line; of one on screen,
///   it follows it (the same tag replaces it in place; a new tag dismisses it).
/// - Bursts: a notification of an application (`NotificationToast.group`) whose toast shows or
///   waits takes that toast's place instead of queuing behind it (on screen: no sooner than
///   `burstPace` after it showed; what comes meanwhile gathers in line): one toast, "Signal · 4 new",
///   with the newest text; the one it replaced is kept (in the store, as if its time were up)
///   and recorded in the history (one on screen too: its toast's own entry gives way to the
///   newest's, which has its tag). `bursts = .queued` turns it off.
/// - Kept (the spec's `persistence`): a notification whose toast's time is up (when the server
///   chose the time) or that is `resident` after an action stays, in the store, until the user
///   presses or dismisses it, the application closes it, or a bound expires it (`kept`
///   notifications at most, each at most `keptAge` old); only then `NotificationClosed`. A
///   service that starts is told what the store holds (`recalled`): what one service kept, the
///   next one acts on. Kept notifications hold no process and keep no service running.
/// - Leaving: nothing to do for `idleTime`, the service releases its name; a call that came
///   before the release, or within `linger` after it, is still served, and the service exits
///   once nothing is left. One that leaves something for later (a `Notify`'s signals, an
///   `Inhibit`'s `UnInhibit`) needs the name: the bus gives a signal from a process that does
///   not own it to no client that listens by the name (libnotify's), and later calls go to the
///   name's owner. The service takes the name back first (`reclaimed`) and serves on.
public struct Dispatcher: Sendable {
    /// The bounds, each with the setting it comes from.
    public struct Limits: Equatable, Sendable {
        /// Toast processes alive at most: a flood must not start thousands of X clients.
        public var running = 32
        /// Notifications waiting for a process at most.
        public var waiting = 256
        /// Bytes kept for waiting notifications at most (their command lines and pictures).
        public var waitingBytes = 32 << 20
        /// Seconds a process may take to join the queue before the next is handed out.
        public var joinBound = 5.0
        /// Seconds with nothing shown or waiting before the service leaves (`service-idle`;
        /// infinity: never, it stays for the X session).
        public var idleTime = 30.0
        /// Seconds the service stays after it released its name: a client that resolved the name
        /// to the service's own connection before (dbus-python does) may still be sending.
        public var linger = 1.0
        /// Times a notification whose process ended before joining is handed out again.
        public var retries = 2
        /// Processes that end before they are given work, in a row, before the service stops
        /// starting them (the display is gone, or the binary): waiting notifications are closed.
        public var failedStarts = 3
        /// Notifications kept after their toasts at most: past it the oldest is closed (`expired`).
        public var kept = 100
        /// Seconds a kept notification stays at most (a day).
        public var keptAge = 86_400
        /// Whether an application's burst joins one toast, or each notification waits its turn.
        public var bursts = Bursts.joined
        /// Seconds a burst's toast stays before the newest of its burst replaces it: a flood
        /// is not a toast process (and a redraw) a notification, and the text stays readable.
        public var burstPace = 1.0
        /// Rules' commands running at once at most, and seconds each may run.
        public var commands = 8
        public var commandTime = 30.0
        /// What the notifications that came during a pause make as it ends.
        public var afterQuiet = AfterQuiet.summary
        /// At least this many for a summary: fewer show as themselves.
        public var summaryFrom = AwaySummary.threshold

        public init() {}
    }

    /// What a burst of one application's notifications makes.
    public enum Bursts: String, Equatable, Sendable {
        /// One toast that counts them, the newest text (the others kept).
        case joined
        /// A toast each, in turn.
        case queued
    }

    /// What the notifications that came while toasts were paused make as the pause ends.
    public enum AfterQuiet: String, Equatable, Sendable {
        /// One toast that says what came ("While you were away: 12", by application); a click
        /// on it opens the centre, where they all are.
        case summary
        /// Each shows as itself, in turn (as before: the flood KDE removed).
        case replay
    }

    /// Whether toasts are kept from the screen, and what came meanwhile: while they are paused
    /// (as the service last heard) or an application inhibits them (KDE's `Inhibit`).
    public struct Quiet: Equatable, Sendable {
        /// Until when toasts are paused (monotonic; infinity: until resumed); nil: not paused.
        public var pausedUntil: Double?
        /// The inhibitions applications hold, by cookie.
        public var inhibitions: Set<UInt32> = []
        /// What came meanwhile, kept unseen, in order.
        public var held: [UInt32] = []

        /// Whether what comes is held now.
        public var holds: Bool { pausedUntil != nil || !inhibitions.isEmpty }
    }

    /// A notification as the service accepted it.
    public struct Notification: Equatable, Sendable {
        public var id: UInt32
        public var toast: NotificationToast
        /// When it came, in seconds since 1970 (UTC).
        public var time: Int
        /// The picture the service wrote for it (`image-data`), removed when it ends.
        public var picture: String?
        /// Bytes it keeps while it waits.
        public var bytes: Int

        public init(id: UInt32, toast: NotificationToast, time: Int = 0, picture: String? = nil, bytes: Int? = nil) {
            self.id = id
            self.toast = toast
            self.time = time
            self.picture = picture
            self.bytes = bytes ?? toast.arguments.reduce(0) { $0 + $1.utf8.count + 1 }
        }
    }

    /// What the user asked of a notification: `--press`, `--dismiss`, `--reshow` with
    /// `--notification`, or the centre.
    public enum UserCall: Equatable, Sendable {
        /// Its default action (nil) or the button of that label; `clickTime`: the X server time
        /// of the key or click that asked, for the activation token.
        case press(label: String?, clickTime: UInt32?)
        case dismiss
        /// Its toast shown again, its buttons live.
        case reshow
    }

    /// The answer to a `UserCall`.
    public enum Answer: Equatable, Sendable {
        case done
        /// No notification of that id is kept or showing.
        case unknown(UInt32)
        /// It has no such action.
        case noAction(UInt32, label: String?)
    }

    public enum Event: Equatable, Sendable {
        /// The service runs (`idleTime` counts from now).
        case start
        /// A `Notify`, with the id the service gave it.
        case notify(Notification)
        /// `CloseNotification`.
        case close(UInt32)
        /// What the store holds, as a service reads it: at its start, and for an id a call
        /// names that it does not know (another service may have kept it since). `wallTime`:
        /// now, in seconds since 1970, for their age.
        case recalled([Notification], wallTime: Int)
        /// The user's call about notification `id`: answered by `answer`.
        case user(UInt32, UserCall)
        /// `xtoast --dismiss-all`: every notification on screen or waiting is dismissed (kept
        /// ones stay kept).
        case dismissAll
        /// The answer to `startSpare`: the process started (nil: it could not be).
        case spareStarted(Int32?)
        /// The answer to `hand`: whether the command line went into the process whole.
        case handed(UInt32, Bool)
        /// A process said its toast's place in the queue is on the server.
        case queued(Int32)
        /// A process ended: what it wrote (nil: nothing) and its status as a shell says it.
        case ended(Int32, report: NotificationChild.Report?, status: Int32)
        /// Time has passed.
        case tick
        /// The name is released, and the calls sent before the release are handled.
        case released
        /// The name is the service's again: a call that leaves something for later came after
        /// the release (see `hasReleasedName`). It serves on.
        case reclaimed
        /// A call that came after the release was passed on to the service that has the name
        /// now (`true`), or its answer came back (`false`): until then the service stays.
        case passingOn(Bool)
        /// The X display is gone: nothing can show any more.
        case displayGone
        /// A rule's command ended (the answer to `runCommand`, at its end).
        case commandEnded(Int, RuleCommands.End)
        /// Toasts are paused until `until` (monotonic; infinity: until resumed), or not (nil).
        case paused(until: Double?)
        /// An application inhibits notifications (`Inhibit`), until `uninhibit` with its cookie.
        case inhibit(UInt32)
        case uninhibit(UInt32)
    }

    public enum Effect: Equatable, Sendable {
        /// Start a toast process with no work yet: answer `spareStarted`.
        case startSpare
        /// Write notification `id`'s command line into process `pid`'s standard input: answer `handed`.
        case hand(UInt32, arguments: [String], to: Int32)
        /// End a spare that has no work: close its input (it ends without a word).
        case endSpare(Int32)
        /// Close the toast of process `pid` (SIGUSR1: dismissed).
        case dismiss(Int32)
        /// The application's action was taken: `ActivationToken` (for a click at that X server
        /// time), then `ActionInvoked`.
        case invoke(UInt32, action: String, clickTime: UInt32?)
        /// `NotificationReplied`: the text typed into its reply entry.
        case replied(UInt32, text: String)
        /// `NotificationClosed`.
        case closed(UInt32, NotificationClosedReason)
        /// Write the notification into the store: kept after its toast.
        case keep(Notification)
        /// Remove notification `id` from the store.
        case forget(UInt32)
        /// Add a notification that never showed to the history (one a burst replaced).
        case record(HistoryEntry)
        /// The answer to the user's call.
        case answer(Answer)
        /// Remove a picture file the service wrote.
        case removePicture(String)
        /// Release the bus name; answer `released` once the calls sent before it are handled.
        case releaseName
        /// The service's work is done.
        case exit
        /// One line for the service's standard error.
        case warn(String)
        /// Run a rule's command (`run = …`), its environment the service's and `environment`:
        /// answer `commandEnded` when it ends, however it ends.
        case runCommand(Int, command: [String], environment: [String])
        /// Kill a rule's command (and what it started): its time is up.
        case killCommand(Int)
        /// Open the notification centre (the summary after a pause was clicked).
        case openCenter
    }

    /// Where a notification is.
    public enum Place: Equatable, Sendable {
        case waiting
        /// Being written into process `pid`'s input.
        case handing(to: Int32)
        /// Handed to `pid`, whose place in the queue is not on the server yet (until `until`).
        case joining(pid: Int32, until: Double)
        /// Still not on the server past `joinBound`: the next ones were handed out meanwhile.
        case late(pid: Int32)
        /// Its place in the queue on the server since `since`.
        case running(pid: Int32, since: Double)
    }

    /// The service's own phase.
    public enum Phase: Equatable, Sendable {
        /// Serving; `idleSince`: nothing shown or waiting since then.
        case serving(idleSince: Double?)
        /// The name is being released: calls sent before it are still coming.
        case releasing
        /// Released: exits once nothing is left, not before `until`.
        case leaving(until: Double)
        case finished
    }

    /// The spare process.
    public enum Spare: Equatable, Sendable {
        case none
        case starting
        case ready(pid: Int32)
    }

    /// What a call asked of a notification whose toast is up: its end says the rest.
    enum Asked: Equatable, Sendable {
        case nothing
        /// `CloseNotification`.
        case close
        /// The user pressed its action `key`.
        case press(key: String, clickTime: UInt32?)
        /// The user dismissed it.
        case dismiss
    }

    struct Entry: Equatable, Sendable {
        var notification: Notification
        var place: Place = .waiting
        var asked = Asked.nothing
        var attempts = 0
        /// The notifications of its burst, itself included.
        var burst = 1
    }

    public let limits: Limits
    public internal(set) var phase: Phase = .serving(idleSince: nil)
    public private(set) var spare: Spare = .none
    /// The newest notification of each id still alive.
    var entries: [UInt32: Entry] = [:]
    /// The waiting ones, in the order they are handed out.
    var line: [UInt32] = []
    /// The notifications kept after their toasts, by id.
    public internal(set) var kept: [UInt32: Notification] = [:]
    /// The rules' commands running.
    public private(set) var commands = RuleCommands()
    /// Whether toasts are paused, and what came meanwhile.
    public internal(set) var quiet = Quiet()
    /// Processes whose notification was replaced by a newer one of its id: their end is no
    /// one's (but for their pictures).
    private var superseded: [Int32: String?] = [:]
    private var startsFailed = 0
    /// When the first in line may replace its burst's toast on screen (`burstPace`), while that
    /// holds it back.
    private var paced: Double?

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Nothing shows or waits (a spare is no work).
    public var isEmpty: Bool { entries.isEmpty && commands.running.isEmpty && quiet.inhibitions.isEmpty && passingOn == 0 }

    /// Calls passed on to the service that has the name now, not answered yet.
    public private(set) var passingOn = 0

    /// Whether the service has given its name up (or is giving it up): a call that leaves
    /// something for later takes it back first (`reclaimed`).
    public var hasReleasedName: Bool {
        switch phase {
        case .releasing, .leaving: true
        case .serving, .finished: false
        }
    }

    /// The place of notification `id`, nil when it is not alive.
    public func place(of id: UInt32) -> Place? { entries[id]?.place }

    /// Processes with a notification (joining or running).
    var busy: Int { entries.values.filter { $0.place != .waiting }.count + superseded.count }

    private var joining: Bool {
        entries.values.contains {
            switch $0.place {
            case .handing, .joining: true
            default: false
            }
        }
    }

    /// When the machine next wants a `.tick`: a join's bound, the idle time's end.
    public var deadline: Double? {
        var times: [Double] = []
        for entry in entries.values { if case .joining(_, let until) = entry.place { times.append(until) } }
        if let paced { times.append(paced) }
        if let command = commands.deadline { times.append(command) }
        if let until = quiet.pausedUntil, until.isFinite { times.append(until) }
        if case .serving(let since?) = phase, limits.idleTime.isFinite { times.append(since + limits.idleTime) }
        // Only once nothing is left: with work, its end decides (the linger may be past by then).
        if case .leaving(let until) = phase, isEmpty { times.append(until) }
        return times.min()
    }
}

extension Dispatcher: Machine {
    public var isFinished: Bool { phase == .finished }

    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        switch event {
        case .start:
            phase = .serving(idleSince: now)
            return prepareSpare()
        case .notify(let notification):
            return notify(notification, at: now)
        case .close(let id):
            return close(id, at: now)
        case .recalled(let notifications, let wallTime):
            return recall(notifications, wallTime: wallTime)
        case .user(let id, let call):
            return user(call, id, at: now)
        case .dismissAll:
            return dismissAll(at: now)
        case .spareStarted(let pid):
            return spareStarted(pid, at: now)
        case .handed(let id, let whole):
            return handed(id, whole: whole, at: now)
        case .queued(let pid):
            guard let id = entries.first(where: { $0.value.place.pid == pid })?.key, entries[id]?.place.isBeforeTheQueue == true else {
                return []
            }
            entries[id]?.place = .running(pid: pid, since: now)
            startsFailed = 0
            return handOut(at: now)
        case .ended(let pid, let report, let status):
            return ended(pid, report: report, status: status, at: now)
        case .tick:
            return tick(at: now)
        case .reclaimed:
            guard hasReleasedName else { return [] }
            phase = .serving(idleSince: nil)
            return becameIdle(at: now)
        case .passingOn(let started):
            passingOn = max(0, passingOn + (started ? 1 : -1))
            return becameIdle(at: now)
        case .released:
            guard phase == .releasing else { return [] }
            phase = .leaving(until: now + limits.linger)
            return leaveIfDone(at: now)
        case .displayGone:
            let closing = entries.keys.sorted().flatMap { id in closeEntry(id, .undefined) }
            line = []
            phase = .finished
            return closing + commands.killAll() + [.releaseName, .exit]
        case .commandEnded(let id, let end):
            return commands.ended(id, end, limits: limits) + becameIdle(at: now)
        case .paused(let until):
            return paused(until: until, at: now)
        case .inhibit(let cookie):
            quiet.inhibitions.insert(cookie)
            return []
        case .uninhibit(let cookie):
            guard quiet.inhibitions.remove(cookie) != nil else { return [] }
            return quietEnds(at: now) + becameIdle(at: now)
        }
    }

    // MARK: Calls

    mutating func notify(_ notification: Notification, at now: Double) -> [Effect] {
        if case .serving = phase { phase = .serving(idleSince: nil) }
        // Its rules' commands, however it shows (or not).
        var effects = commands.start(
            notification.toast.commands, environment: notification.toast.commandEnvironment, limits: limits, at: now)
        let id = notification.id
        // A stack tag replaces what it names, kept ones too (a volume key's notifications are one).
        if notification.toast.tag != NotificationToast.tag(id: id) {
            for (other, keptOne) in kept.sorted(by: { $0.key < $1.key }) where other != id && keptOne.toast.tag == notification.toast.tag {
                effects += forgetKept(other, .undefined)
            }
        }
        if let old = kept.removeValue(forKey: id) {
            // Kept after its toast: the new one takes its place, on screen again.
            effects.append(.forget(id))
            if let picture = old.picture, picture != notification.picture { effects.append(.removePicture(picture)) }
        }
        // A rule's: unseen into the centre, or dropped, as it comes (one with its id on screen
        // stays as it is: a rule is for what arrives).
        if entries[id] == nil, notification.toast.arrival != .shown { return effects + arrive(notification, at: now) }
        // While toasts are paused: kept unseen, for the summary as the pause ends (with nothing
        // kept, `keep-notifications = 0`, it waits its turn in the queue instead: never lost).
        if entries[id] == nil, quiet.holds, limits.kept > 0, notification.toast.group != nil {
            quiet.held.append(id)
            var unseen = notification
            unseen.toast.arrival = .quiet
            return effects + arrive(unseen, at: now)
        }
        if let old = entries[id] {
            switch old.place {
            case .waiting:
                // Not handed out yet: the new one takes its place in line.
                entries[id]?.notification = notification
                entries[id]?.attempts = 0
                return effects + (old.notification.picture.map { [Effect.removePicture($0)] } ?? []) + handOut(at: now)
            case .handing(let pid), .joining(let pid, _), .late(let pid), .running(let pid, _):
                // On screen: the same tag replaces it in place; a new tag would leave it up.
                superseded[pid] = old.notification.picture
                if old.notification.toast.tag != notification.toast.tag { effects.append(.dismiss(pid)) }
            }
        }
        // One of its burst waits: the newest takes its place (one on screen it replaces as it is
        // handed out, `joinShowing`).
        if entries[id] == nil, limits.bursts == .joined, let group = notification.toast.group,
            let (other, entry) = first(where: {
                $0.notification.toast.group == group && $0.asked == .nothing && $0.place == .waiting
            })
        {
            return effects + join(notification, replacing: other, entry, at: now)
        }
        entries[id] = Entry(notification: notification)
        line.append(id)
        effects += bound()
        return effects + handOut(at: now)
    }

    /// A notification a rule keeps off the screen: kept at once, unread, in the centre and the
    /// history (`popup = false`), or closed as dismissed with nothing kept (`drop = true`).
    private mutating func arrive(_ notification: Notification, at now: Double) -> [Effect] {
        let id = notification.id
        let picture = notification.picture.map { [Effect.removePicture($0)] } ?? []
        switch notification.toast.arrival {
        case .shown:
            return []
        case .dropped:
            return [.closed(id, .dismissed)] + picture + becameIdle(at: now)
        case .quiet:
            let record = Effect.record(HistoryEntry(notification, ending: HistoryEntry.quietEnding, shown: false))
            // Nothing is kept (`keep-notifications = 0`): in the history alone.
            if limits.kept == 0 { return [record, .closed(id, .expired)] + picture + becameIdle(at: now) }
            kept[id] = notification
            return [record, .keep(notification)] + boundKept() + becameIdle(at: now)
        }
    }

    /// `notification` joins the burst of `other`, which waits: it takes its place in line,
    /// counting the burst (its toast says so as it is handed out: a flood rewrites no command
    /// line per notification); `other`, never shown, is kept and recorded in the history.
    private mutating func join(_ notification: Notification, replacing other: UInt32, _ entry: Entry, at now: Double) -> [Effect] {
        let id = notification.id
        line[line.firstIndex(of: other) ?? 0] = id
        entries[id] = Entry(notification: notification, burst: entry.burst + 1)
        return [.record(HistoryEntry(replaced: entry.notification))] + setAside(other) + bound() + handOut(at: now)
    }

    /// The toast on screen of `id`'s burst, if any: its notification, process and since when.
    private func showingOfBurst(_ id: UInt32) -> (id: UInt32, pid: Int32, since: Double)? {
        guard limits.bursts == .joined, let group = entries[id]?.notification.toast.group,
            let (other, showing) = first(where: {
                $0.notification.id != id && $0.notification.toast.group == group && $0.asked == .nothing && $0.place.isRunning
            }),
            case .running(let pid, let since) = showing.place
        else { return nil }
        return (other, pid, since)
    }

    /// The alive notification of the lowest id that `matches`: a decision never rests on a
    /// dictionary's order.
    private func first(where matches: (Entry) -> Bool) -> (UInt32, Entry)? {
        entries.filter { matches($0.value) }.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Takes `id` out of the running as if its toast's time were up: kept, or closed (expired).
    private mutating func setAside(_ id: UInt32) -> [Effect] {
        guard let entry = entries[id] else { return [] }
        return entry.notification.toast.whenExpired == .kept ? keepEntry(id) : closeEntry(id, .expired)
    }

    /// Past the bounds, the oldest waiting notifications are closed (`expired`).
    mutating func bound() -> [Effect] {
        var effects: [Effect] = []
        var bytes = line.reduce(0) { $0 + (entries[$1]?.notification.bytes ?? 0) }
        while line.count > limits.waiting || (bytes > limits.waitingBytes && line.count > 1) {
            let oldest = line.removeFirst()
            bytes -= entries[oldest]?.notification.bytes ?? 0
            effects += closeEntry(oldest, .expired)
        }
        return effects
    }

    private mutating func close(_ id: UInt32, at now: Double) -> [Effect] {
        guard let entry = entries[id] else { return forgetKept(id, .closedByCall) }
        switch entry.place {
        case .waiting:
            line.removeAll { $0 == id }
            return closeEntry(id, .closedByCall) + becameIdle(at: now)
        case .handing(let pid), .joining(let pid, _), .late(let pid), .running(let pid, _):
            // Its process says how it ended; dismissed by this call, it is closed by it.
            entries[id]?.asked = .close
            return [.dismiss(pid)]
        }
    }

    // MARK: Kept notifications and the user's calls

    private mutating func recall(_ notifications: [Notification], wallTime: Int) -> [Effect] {
        var effects: [Effect] = []
        for notification in notifications where entries[notification.id] == nil && kept[notification.id] == nil {
            kept[notification.id] = notification
        }
        for (id, notification) in kept.sorted(by: { $0.key < $1.key }) where wallTime - notification.time > limits.keptAge {
            effects += forgetKept(id, .expired)
        }
        return effects + boundKept()
    }

    /// Past the bound of kept notifications the oldest are closed (`expired`).
    private mutating func boundKept() -> [Effect] {
        var effects: [Effect] = []
        // One over, as a rule: the oldest found in one pass, not by sorting thousands.
        while kept.count > limits.kept, let oldest = kept.values.min(by: { ($0.time, $0.id) < ($1.time, $1.id) }) {
            effects += forgetKept(oldest.id, .expired)
        }
        return effects
    }

    /// Ends kept notification `id` for `reason`: out of the store, its signal, its picture.
    private mutating func forgetKept(_ id: UInt32, _ reason: NotificationClosedReason) -> [Effect] {
        guard let notification = kept.removeValue(forKey: id) else { return [] }
        return [.forget(id), .closed(id, reason)] + (notification.picture.map { [.removePicture($0)] } ?? [])
    }

    /// Keeps `id` after its toast: out of the running, into the store.
    private mutating func keepEntry(_ id: UInt32) -> [Effect] {
        // Nothing is kept: closed as its toast's time is up, as dunst does.
        if limits.kept == 0 { return closeEntry(id, .expired) }
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        kept[id] = entry.notification
        return [.keep(entry.notification)] + boundKept()
    }

    /// Everything waiting is closed (dismissed) at once; every toast up or joining is dismissed,
    /// and closed by its end.
    private mutating func dismissAll(at now: Double) -> [Effect] {
        var effects: [Effect] = []
        for id in line { effects += closeEntry(id, .dismissed) }
        line = []
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) where entry.asked == .nothing {
            guard let pid = entry.place.pid else { continue }
            entries[id]?.asked = .dismiss
            effects.append(.dismiss(pid))
        }
        return effects + becameIdle(at: now)
    }

    private mutating func user(_ call: UserCall, _ id: UInt32, at now: Double) -> [Effect] {
        if let notification = kept[id] {
            switch call {
            case .press(let label, let clickTime):
                guard let key = notification.toast.action(label: label) else { return [.answer(.noAction(id, label: label))] }
                let after: [Effect] = notification.toast.whenActed == .kept ? [] : forgetKept(id, .dismissed)
                return [.invoke(id, action: key, clickTime: clickTime)] + after + [.answer(.done)]
            case .dismiss:
                return forgetKept(id, .dismissed) + [.answer(.done)]
            case .reshow:
                kept[id] = nil
                if case .serving = phase { phase = .serving(idleSince: nil) }
                // Shown again as itself, not as the newest of a burst.
                var again = notification
                again.toast.group = nil
                entries[id] = Entry(notification: again)
                line.append(id)
                return [.forget(id)] + bound() + handOut(at: now) + [.answer(.done)]
            }
        }
        guard let entry = entries[id] else { return [.answer(.unknown(id))] }
        let asked: Asked
        switch call {
        case .press(let label, let clickTime):
            guard let key = entry.notification.toast.action(label: label) else { return [.answer(.noAction(id, label: label))] }
            asked = .press(key: key, clickTime: clickTime)
        case .dismiss: asked = .dismiss
        case .reshow: return [.answer(.done)]  // it shows, or is about to
        }
        guard let pid = entry.place.pid else {
            // Not handed out yet: ended here, as its toast would have.
            line.removeAll { $0 == id }
            entries[id]?.asked = asked
            return end(id, report: nil) + [.answer(.done)] + becameIdle(at: now)
        }
        entries[id]?.asked = asked
        return [.dismiss(pid), .answer(.done)]
    }

    // MARK: Processes

    private mutating func spareStarted(_ pid: Int32?, at now: Double) -> [Effect] {
        guard spare == .starting else { return pid.map { [.endSpare($0)] } ?? [] }
        guard let pid else {
            spare = .none
            startsFailed += 1
            return [.warn("cannot start a toast process")] + handOut(at: now)
        }
        spare = .ready(pid: pid)
        return handOut(at: now)
    }

    private mutating func handed(_ id: UInt32, whole: Bool, at now: Double) -> [Effect] {
        guard let entry = entries[id], case .handing(let pid) = entry.place else { return [] }
        if whole {
            entries[id]?.place = .joining(pid: pid, until: now + limits.joinBound)
            return prepareSpare()
        }
        // The spare went away before it had its work (its end is no one's now): again, first.
        entries[id]?.place = .waiting
        line.insert(id, at: 0)
        return handOut(at: now)
    }

    private mutating func ended(_ pid: Int32, report: NotificationChild.Report?, status: Int32, at now: Double) -> [Effect] {
        if spare == .ready(pid: pid) {
            // It could not get ready (its error is on the service's standard error).
            spare = .none
            startsFailed += 1
            return handOut(at: now)
        }
        if let picture = superseded.removeValue(forKey: pid) {
            return (picture.map { [Effect.removePicture($0)] } ?? []) + handOut(at: now)
        }
        guard let (id, entry) = entries.first(where: { $0.value.place.pid == pid }) else { return [] }
        var effects: [Effect] = []
        let said = report.map { $0.queued || !$0.outcome.isEmpty } ?? false
        if entry.place.isBeforeTheQueue, !said, status != 0, entry.asked == .nothing, entry.attempts < limits.retries {
            // Gone before it joined, without a word: handed out again, first in line.
            entries[id]?.place = .waiting
            entries[id]?.attempts += 1
            line.insert(id, at: 0)
            return [.warn("the toast of notification \(id) ended before it showed (status \(status)); trying again")]
                + handOut(at: now)
        }
        if !said && status != 0 { effects.append(.warn("the toast of notification \(id) failed (status \(status))")) }
        return effects + end(id, report: report) + handOut(at: now) + becameIdle(at: now)
    }

    /// Notification `id`'s toast has ended (`report`: what it wrote): the action it invoked,
    /// then the notification kept or closed. What a call asked of it wins over the report.
    private mutating func end(_ id: UInt32, report: NotificationChild.Report?) -> [Effect] {
        guard let entry = entries[id] else { return [] }
        let toast = entry.notification.toast
        let action: String?
        let clickTime: UInt32?
        let end: NotificationToast.End
        switch entry.asked {
        case .press(let key, let time): (action, clickTime, end) = (key, time, toast.whenActed == .kept ? .kept : .closed(.dismissed))
        case .dismiss: (action, clickTime, end) = (nil, nil, .closed(.dismissed))
        case .nothing, .close:
            (action, end) = toast.ending(report ?? NotificationChild.Report(), closedByCall: entry.asked == .close)
            clickTime = report?.clickTime
        }
        // The summary after a pause is no application's: a click on it opens the centre.
        if id == Self.summaryID {
            entries[id] = nil
            return action == nil ? [] : [.openCenter]
        }
        // Spec 1.2: the token first, so that the application has it when it acts.
        var invoked: [Effect] = action.map { [.invoke(id, action: $0, clickTime: clickTime)] } ?? []
        if entry.asked == .nothing, let report, let text = toast.reply(in: report) { invoked.append(.replied(id, text: text)) }
        switch end {
        case .kept: return invoked + keepEntry(id)
        case .closed(let reason): return invoked + closeEntry(id, reason)
        }
    }

    /// Closes `id` for `reason`: its signal and its picture.
    private mutating func closeEntry(_ id: UInt32, _ reason: NotificationClosedReason) -> [Effect] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        // The summary after a pause is no application's: nobody hears its end.
        let signal: [Effect] = id == Self.summaryID ? [] : [.closed(id, reason)]
        return signal + (entry.notification.picture.map { [.removePicture($0)] } ?? [])
    }

    // MARK: Handing out

    /// Hands the next waiting notification to the spare, one at a time into the queue.
    mutating func handOut(at now: Double) -> [Effect] {
        paced = nil
        guard !joining, busy < limits.running, let id = line.first, let entry = entries[id] else { return prepareSpare() }
        if let until = showingOfBurst(id).map({ $0.since + limits.burstPace }), now < until {
            // Its burst's toast showed only now: the burst gathers in line meanwhile.
            paced = until
            return prepareSpare()
        }
        if startsFailed >= limits.failedStarts {
            // Processes cannot start: what waits is closed, not kept for ever.
            line.removeFirst()
            return [.warn("no toast process could start; notification \(id) is closed")] + closeEntry(id, .undefined)
                + handOut(at: now)
        }
        guard case .ready(let pid) = spare else { return prepareSpare(needed: true) }
        line.removeFirst()
        spare = .none
        let joined = joinShowing(id)
        entries[id]?.place = .handing(to: pid)
        return joined + [.hand(id, arguments: entries[id]?.notification.toast.arguments ?? entry.notification.toast.arguments, to: pid)]
    }

    /// As notification `id` is handed out: if a toast of its burst is on screen (its place in
    /// the queue taken), it replaces that toast in place, by its tag, counting the burst; the
    /// one it replaces is kept. Only then, so that it never joins the queue before the other.
    private mutating func joinShowing(_ id: UInt32) -> [Effect] {
        guard let entry = entries[id], let (other, pid, _) = showingOfBurst(id), let showing = entries[other] else {
            // Alone on screen, counting the burst that joined it while it waited.
            if let entry = entries[id], entry.burst > 1 {
                entries[id]?.notification.toast = entry.notification.toast.joining(count: entry.burst)
            }
            return []
        }
        let burst = entry.burst + showing.burst
        entries[id]?.notification.toast = entry.notification.toast.joining(count: burst, tag: showing.notification.toast.tag)
        entries[id]?.burst = burst
        superseded[pid] = .some(nil)  // its picture stays with it, kept
        // Its toast's own history entry gives way to the newest's, which has its tag.
        return [.record(HistoryEntry(replaced: showing.notification, shown: true))] + setAside(other)
    }

    /// Starts a spare if none is ready or starting and one may start: always while serving (the
    /// next notification finds it ready), while leaving only when one is `needed`.
    private mutating func prepareSpare(needed: Bool = false) -> [Effect] {
        guard spare == .none, !joining, busy < limits.running, startsFailed < limits.failedStarts else { return [] }
        switch phase {
        case .serving: break
        case .releasing, .leaving: guard needed else { return [] }
        case .finished: return []
        }
        spare = .starting
        return [.startSpare]
    }

    // MARK: Time and leaving

    private mutating func tick(at now: Double) -> [Effect] {
        var effects = commands.tick(at: now)
        if let until = quiet.pausedUntil, now >= until { effects += paused(until: nil, at: now) }
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard case .joining(let pid, let until) = entry.place, now >= until else { continue }
            // One stuck before the server answers must not hold up every other notification.
            entries[id]?.place = .late(pid: pid)
            effects.append(.warn("the toast of notification \(id) took over \(Int(limits.joinBound)) s to join the queue"))
        }
        effects += handOut(at: now)
        if case .leaving = phase { return effects + leaveIfDone(at: now) }
        if case .serving(let since?) = phase, now >= since + limits.idleTime, isEmpty {
            phase = .releasing
            var leaving: [Effect] = [.releaseName]
            if case .ready(let pid) = spare {
                spare = .none
                leaving.append(.endSpare(pid))
            }
            return effects + leaving
        }
        return effects
    }

    /// Nothing left: the idle time starts (serving), or the service exits (leaving).
    private mutating func becameIdle(at now: Double) -> [Effect] {
        guard isEmpty else { return [] }
        switch phase {
        case .serving(nil): phase = .serving(idleSince: now)
        case .leaving: return leaveIfDone(at: now)
        default: break
        }
        return []
    }

    private mutating func leaveIfDone(at now: Double) -> [Effect] {
        guard case .leaving(let until) = phase, now >= until, isEmpty else { return [] }
        phase = .finished
        if case .ready(let pid) = spare {
            spare = .none
            return [.endSpare(pid), .exit]
        }
        return [.exit]
    }
}

extension Dispatcher.Place {
    /// Given to a process whose place in the queue is not on the server yet.
    var isBeforeTheQueue: Bool {
        switch self {
        case .handing, .joining, .late: true
        case .waiting, .running: false
        }
    }

    /// On screen: its place in the queue taken.
    var isRunning: Bool {
        if case .running = self { true } else { false }
    }

    /// The process it is with, if any.
    var pid: Int32? {
        switch self {
        case .waiting: nil
        case .handing(let pid), .joining(let pid, _), .late(let pid), .running(let pid, _): pid
        }
    }
}
