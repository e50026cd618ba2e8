import CX11
import Glibc
import XToastCore

/// Takes turns with the other xtoast processes on a display through the X server alone: no
/// daemon, no files, no sockets, so it works the same over `ssh -X`.
///
/// Each process owns an unmapped *ticket* window; the server destroys it when the process
/// exits, even by SIGKILL, so nothing is ever left locked. The root window's `_XTOAST_QUEUE`
/// lists tickets oldest first; the first live ticket shows, the others wait for it to leave.
/// Registering appends in one request (atomic on the server); every rewrite of the list runs
/// under a server grab, which the server also releases if the grabber dies.
final class Coordinator {
    let display: XDisplay
    /// Our ticket window.
    let ticket: Window
    /// What our ticket says (its pause mark changes).
    private(set) var info: Ticket
    /// Tickets with our tag that we took the place of, to tell once our toast is drawn.
    private(set) var replaces: [Window] = []
    /// Where the toast we replace is on screen, and its progress value, for the transition.
    private(set) var replacedRect: Rect?
    private(set) var replacedProgress: Double?
    /// The ticket ahead of us that we wait for.
    private var watched: Window = 0
    private let warn: (String) -> Void

    /// Whether our ticket is in `_XTOAST_QUEUE`, or in `_XTOAST_SCHEDULED`.
    private var inQueue = false
    private var inSchedule = false
    private var inStack = false
    private var left = false
    /// The stacked tickets before ours that we watch for appearing, resizing and leaving.
    private var watchedStack = Set<Window>()
    /// Whether the toast goes through a pause (`--urgent`), or took over from one that went
    /// through it (an update of a toast on screen).
    private let urgent: Bool
    private var inheritedThrough = false
    private var through: Bool { urgent || inheritedThrough }
    /// Whether a toast behind may have passed ours during a pause: ours stood aside (or took the
    /// place of a waiting one), so it looks behind before it shows.
    private var checksBehind = false
    /// Whether the root's property changes reach us (to hear the pause change).
    private var listensForPause = false

    init(display: XDisplay, tag: String?, at: Int?, stack: Position?, urgent: Bool = false, warn: @escaping (String) -> Void) {
        self.display = display
        self.warn = warn
        self.urgent = urgent
        info = Ticket(pid: Int(getpid()), tag: tag, at: at, stack: stack)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        ticket = XCreateWindow(
            display.pointer, display.root, -1, -1, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
        let bytes = info.encoded
        XChangeProperty(
            display.pointer, ticket, display.atoms.ticket, display.atoms.utf8String, 8, PropModeReplace, bytes, Int32(bytes.count))
        XStoreName(display.pointer, ticket, "xtoast ticket")
    }

    deinit { leave() }

    // MARK: Joining and leaving the queue

    /// Joins the queue: at the end, or in the place of a live toast with the same tag.
    func register() {
        inQueue = true
        guard info.tag != nil else {
            // One request, not waited for: should someone have written garbage over the list,
            // the append fails, `turn` finds us missing, and `rejoin` repairs the list.
            display.setListProperty(display.root, display.atoms.queue, type: Atom(XA_WINDOW), [UInt(ticket)], mode: PropModeAppend)
            return
        }
        let dpy = display.pointer
        // Looking at the tickets takes a round trip each (long over ssh -X): do it without
        // holding the server, then grab it only to check that the queue is still what was read
        // and write. After two races with other writers, decide under the grab.
        var attempts = 0
        while true {
            let decidesUnderGrab = attempts >= 2
            if decidesUnderGrab { XGrabServer(dpy) }
            let queue = display.readQueue()
            let plan = placeWithTag(in: queue)
            if !decidesUnderGrab { XGrabServer(dpy) }
            if decidesUnderGrab || display.readQueue() == queue {
                replaces = plan.replaces
                (replacedRect, replacedProgress) = (plan.shown?.rect, plan.shown?.progress)
                if !replaces.isEmpty { display.setListProperty(ticket, display.atoms.replaces, type: Atom(XA_WINDOW), replaces) }
                // One not yet on screen can go now; one on screen goes when ours is drawn. Told
                // before the queue changes, so that it reads its command before it finds itself
                // missing from the queue (and does not join again).
                for old in replaces where !plan.onScreen.contains(old) { send(.replaced, to: old) }
                checksBehind = checksBehind || plan.checksBehind
                if plan.inheritsThrough {
                    // Marked before the queue has us: a held toast ahead that looks behind
                    // itself later sees the update that will be drawn over a toast on screen.
                    inheritedThrough = true
                    info.pause = .through
                    touch()
                }
                writeQueue(plan.queue)
                XUngrabServer(dpy)
                XFlush(dpy)
                return
            }
            XUngrabServer(dpy)
            attempts += 1
        }
    }

    /// Where a tagged ticket goes in `queue`: in the place of a live one with our tag (taking
    /// over whoever that one was still to tell, so that a chain of quick replacements never
    /// leaves an old toast on screen), else at the end.
    private func placeWithTag(in queue: [UInt]) -> (
        queue: [UInt], replaces: [Window], shown: (rect: Rect, progress: Double?)?, onScreen: Set<Window>, checksBehind: Bool,
        inheritsThrough: Bool
    ) {
        // The queue's tickets in one round trip; the few ids a replaced ticket inherited, if any,
        // one by one.
        var known = Dictionary(uniqueKeysWithValues: zip(queue, display.tickets(queue.map { Window($0) })))
        var shownStates: [UInt: (rect: Rect, progress: Double?)?] = [:]
        func shown(_ id: UInt) -> (rect: Rect, progress: Double?)? {
            if let cached = shownStates[id] { return cached }
            shownStates[id] = shownState(Window(id))
            return shownStates[id] ?? nil
        }
        let plan = QueueProtocol.placement(
            of: UInt(ticket), tag: info.tag, in: queue,
            ticket: { id in
                if let cached = known[id] { return cached }
                known[id] = display.ticketInfo(Window(id))
                return known[id] ?? nil
            },
            isShown: { shown($0) != nil },
            inherited: {
                display.listProperty(Window($0), display.atoms.replaces, type: Atom(XA_WINDOW), limit: TicketQueue.entryLimit) ?? []
            })
        let onScreen = plan.replaces.compactMap { old in shown(old).map { (Window(old), $0) } }
        return (
            plan.queue, plan.replaces.map { Window($0) }, onScreen.first?.1, Set(onScreen.map(\.0)), plan.checksBehind,
            plan.inheritsThrough
        )
    }

    /// Joins again after `turn` found us missing: someone wrote garbage over the queue (our
    /// append failed) or rewrote it without us (a real replacement sends a command first).
    func rejoin() {
        let type = display.propertyType(display.root, display.atoms.queue)
        if type != 0 && type != Atom(XA_WINDOW) {
            warn("ignored a malformed _XTOAST_QUEUE on the root window")
        } else {
            warn("this toast was missing from _XTOAST_QUEUE; queued again")
        }
        appendUnderGrab(to: display.atoms.queue)
        // Whoever waits for us (from where we were before) looks again.
        touch()
    }

    /// Appends our ticket to a root list in one atomic request. It fails (BadMatch) only if
    /// someone wrote garbage there, which is then replaced.
    private func append(to list: Atom, named name: String) {
        let failed = display.trapErrors {
            display.setListProperty(display.root, list, type: Atom(XA_WINDOW), [UInt(ticket)], mode: PropModeAppend)
        }
        guard !failed.isEmpty else { return }
        warn("ignored a malformed \(name) on the root window")
        appendUnderGrab(to: list)
    }

    /// Rewrites a root list with our ticket at the end, under a grab: what was there is kept
    /// when it is a list of windows (less its dead entries), and replaced when it is garbage.
    private func appendUnderGrab(to list: Atom) {
        rewrite(list) { $0 + [UInt(ticket)] }
    }

    /// Rewrites a root list under a server grab: without our ticket, without dead entries (all
    /// asked about in one round trip), and then as `change` says. Returns how many dead
    /// entries went.
    @discardableResult
    private func rewrite(_ list: Atom, _ change: ([UInt]) -> [UInt]) -> Int {
        let dpy = display.pointer
        XGrabServer(dpy)
        let entries = TicketQueue.pruned(
            display.readList(list, limit: TicketQueue.rewriteLimit), removing: [UInt(ticket)], limit: TicketQueue.rewriteLimit)
        let dead = Set(zip(entries, display.tickets(entries.map { Window($0) })).compactMap { $1 == nil ? $0 : nil })
        writeList(list, change(entries.filter { !dead.contains($0) }))
        XUngrabServer(dpy)
        XFlush(dpy)
        return dead.count
    }

    /// Waits out a `--in`/`--at` delay in `_XTOAST_SCHEDULED`, where `--cancel-scheduled` finds it.
    func joinSchedule() {
        inSchedule = true
        append(to: display.atoms.scheduled, named: "_XTOAST_SCHEDULED")
    }

    func leaveSchedule() {
        guard inSchedule else { return }
        inSchedule = false
        removeTicket(from: display.atoms.scheduled)
    }

    /// Shows alongside the others instead of waiting (`--stack`), listed in `_XTOAST_STACK`.
    func joinStack() {
        inStack = true
        append(to: display.atoms.stack, named: "_XTOAST_STACK")
    }

    /// The heights of the stacked toasts before ours at the same position on `monitor`, oldest
    /// first. Watches them, so that one appearing, resizing or leaving wakes us.
    func stackedHeights(on monitor: Rect) -> [Int] {
        var heights: [Int] = []
        for entry in display.readList(display.atoms.stack) {
            let window = Window(entry)
            if window == ticket { break }
            if watchedStack.insert(window).inserted {
                XSelectInput(display.pointer, window, StructureNotifyMask | PropertyChangeMask)
            }
            guard let other = display.ticketInfo(window), other.stack == info.stack, let rect = shownRect(window),
                monitor.contains(rect)
            else { continue }
            heights.append(rect.height)
        }
        return heights
    }

    /// Whether an event means the stacked toasts before ours may have changed.
    func affectsStack(_ event: inout XEvent) -> Bool {
        switch event.type {
        case PropertyNotify:
            (event.xproperty.window == display.root && event.xproperty.atom == display.atoms.stack)
                || (watchedStack.contains(event.xproperty.window) && event.xproperty.atom == display.atoms.shown)
        case DestroyNotify: watchedStack.remove(event.xdestroywindow.window) != nil
        default: false
        }
    }

    /// Leaves the queue and the schedule and destroys the ticket, so that the next toast can show.
    func leave() {
        guard !left else { return }
        left = true
        // Those we took the place of but never told (we end before our toast was drawn) must
        // not stay on screen where nothing can reach them.
        tellReplaced()
        leaveSchedule()
        if inStack { removeTicket(from: display.atoms.stack) }
        inStack = false
        if inQueue { removeTicket(from: display.atoms.queue) }
        inQueue = false
        XDestroyWindow(display.pointer, ticket)
        // Waited for: the process exits next, and requests still in flight when a connection
        // closes are not certain to be carried out.
        XSync(display.pointer, 0)
    }

    /// Leaves the queue for a while (delayed by a fullscreen window), and touches the ticket so
    /// that whoever waits for us looks again and goes ahead; `register` joins again at the end.
    func leaveQueue() {
        guard inQueue else { return }
        inQueue = false
        removeTicket(from: display.atoms.queue)
        touch()
        XFlush(display.pointer)
    }

    /// Rewrites a root list without our ticket and without dead entries, so that their ids
    /// (which the server gives to new clients) do not linger.
    private func removeTicket(from list: Atom) {
        rewrite(list) { $0 }
    }

    // MARK: Whose turn it is

    /// Looks at the queue: whose turn it is, and whom to wait for (see `watch`).
    func turn() -> QueueProtocol.Turn { turn(attempt: 0) }

    private func turn(attempt: Int) -> QueueProtocol.Turn {
        // A held ticket is cleared before we look: a toast behind that reads it after this no
        // longer passes us, and one that read it before marked itself `through` first, which
        // the look behind finds.
        if info.pause == .held { mark(nil) }
        var (queue, pause) = display.queueAndPause(now: Wakeups.wallClock())
        if pause != nil && prepareForPause() { (queue, pause) = display.queueAndPause(now: Wakeups.wallClock()) }
        if !queue.contains(UInt(ticket)) && queue.count >= TicketQueue.entryLimit {
            // We are past the part of the list anyone reads: dead entries go (garbage written
            // there by some client); if every one is alive, we wait for the first to end.
            if rewrite(display.atoms.queue, { $0 + [UInt(ticket)] }) > 0 {
                touch()
                queue = display.readQueue()
            }
            guard queue.contains(UInt(ticket)) else { return .waitFor(queue[0]) }
        }
        // The entries ahead are asked about in batches that double (the nearest is usually
        // alive; dead entries take a few round trips), together, after selecting their events,
        // so that one that dies after the check still sends its DestroyNotify.
        let ahead = QueueProtocol.ahead(of: UInt(ticket), in: queue)
        var known: [UInt: Ticket?] = [:]
        var asked = 0
        var batch = 1
        // The queue asked again with each batch, in the same round trip.
        var latest: [UInt]?
        // The shown toasts we replace stay ahead of us until ours is drawn over them.
        let turn = QueueProtocol.turn(
            ahead: ahead, tag: info.tag, replacing: Set(replaces.map { UInt($0) }), pause: pause, through: through
        ) { entry in
            if known[entry] == nil, let ahead {
                let chunk = ahead[asked..<min(asked + batch, ahead.count)].map { Window($0) }
                for window in chunk where window != watched { XSelectInput(display.pointer, window, Self.waitMask) }
                let (found, queueNow) = display.ticketsThenQueue(chunk)
                for (window, ticket) in zip(chunk, found) { known[UInt(window)] = ticket }
                latest = queueNow
                asked += chunk.count
                batch *= 2
            }
            return known[entry] ?? nil
        }
        // Bounded: each new look needs another client to have changed the queue meanwhile.
        if let latest, attempt < 8,
            !QueueProtocol.stillHolds(turn, ahead: ahead ?? [], latest: QueueProtocol.ahead(of: UInt(ticket), in: latest))
        {
            return self.turn(attempt: attempt + 1)
        }
        switch turn {
        case .mine where checksBehind:
            if let passer = lookBehind(in: queue) { return .waitFor(passer) }
        case .waitFor where info.pause == .through:
            // Not about to show: a held toast that looks behind need not wait for us.
            mark(nil)
        default: break
        }
        return turn
    }

    // MARK: Pauses

    /// Before a look during a pause: listen for the pause to change (selected before the pause
    /// is read again, so that no change is missed) or, going through it, say so before looking
    /// (see `turn`). True when the queue and the pause are to be read again.
    private func prepareForPause() -> Bool {
        var again = false
        if !through && !listensForPause {
            listensForPause = true
            XSelectInput(display.pointer, display.root, PropertyChangeMask)
            again = true
        }
        if through && info.pause != .through {
            mark(.through)
            again = true
        }
        return again
    }

    /// Stands aside for a pause: the ticket is marked held, so that toasts behind may pass it
    /// while the pause lasts; before it shows, it looks behind itself.
    func hold() {
        checksBehind = true
        if info.pause != .held { mark(.held) }
    }

    /// The first ticket behind ours marked `through` (on screen or about to decide), asked about
    /// in one round trip after selecting their events, so that one that ends after the check
    /// still wakes us. Only a toast that stood aside asks: the normal path pays nothing.
    private func lookBehind(in queue: [UInt]) -> UInt? {
        let behind = QueueProtocol.behind(of: UInt(ticket), in: queue)
        guard !behind.isEmpty else { return nil }
        let windows = behind.map { Window($0) }
        for window in windows where window != watched { XSelectInput(display.pointer, window, Self.waitMask) }
        let found = Dictionary(zip(behind, display.tickets(windows)), uniquingKeysWith: { $1 })
        return QueueProtocol.firstThrough(behind: behind) { found[$0] ?? nil }
    }

    /// Whether an event is a change of the pause on the root.
    func affectsPause(_ event: inout XEvent) -> Bool {
        event.type == PropertyNotify && event.xproperty.window == display.root && event.xproperty.atom == display.atoms.paused
    }

    private func mark(_ mark: Ticket.PauseMark?) {
        info.pause = mark
        touch()
    }

    /// What a waiting process hears of the ticket it waits for: its end, and its touches.
    private static let waitMask = StructureNotifyMask | PropertyChangeMask

    /// Waits for `window` to go: its end (even by SIGKILL) wakes us through a DestroyNotify.
    /// A new choice is announced by touching our ticket: whoever waits
    /// for us looks again, so that waits never go round in a circle after some client reordered
    /// the queue.
    func watch(_ window: Window) {
        guard window != watched else { return }
        if watched != 0 { XSelectInput(display.pointer, watched, NoEventMask) }
        XSelectInput(display.pointer, window, Self.waitMask)
        watched = window
        touch()
    }

    /// Writes our ticket again (the same bytes): a PropertyNotify for whoever waits for us.
    private func touch() {
        let bytes = info.encoded
        XChangeProperty(
            display.pointer, ticket, display.atoms.ticket, display.atoms.utf8String, 8, PropModeReplace, bytes, Int32(bytes.count))
    }

    /// Whether an event means the turn may have changed: the ticket we wait for ended or was
    /// touched. Changes to the queue itself do not wake a waiter: the ones that matter end a
    /// ticket (a replacement is told first) or touch it (a ticket that joins again).
    func affectsTurn(_ event: inout XEvent) -> Bool {
        guard watched != 0 else { return false }
        switch event.type {
        case PropertyNotify: return event.xproperty.window == watched && event.xproperty.atom == display.atoms.ticket
        case DestroyNotify:
            guard event.xdestroywindow.window == watched else { return false }
            // Our selection went with the window, and the server may give its id to a new
            // client's ticket: the next look selects afresh, even on the same id.
            watched = 0
            return true
        default: return false
        }
    }

    // MARK: Messages

    /// A command sent to our ticket, if the event is one (malformed ones are ignored).
    func command(in event: inout XEvent) -> Command? {
        guard event.type == ClientMessage, event.xclient.window == ticket, event.xclient.message_type == display.atoms.command
        else { return nil }
        guard event.xclient.format == 32, let command = Command(rawValue: Int(event.xclient.data.l.0)) else {
            warn("ignored a malformed _XTOAST_COMMAND message")
            return nil
        }
        return command
    }

    /// Publishes where our toast is, and its progress value (in hundredths of a percent, plus
    /// one; 0 for none), once it is drawn, and tells the ones we replaced to go.
    func announceShown(at box: Rect, progress: Double?) {
        let progressCode = progress.map { UInt(($0 * 100).rounded()) + 1 } ?? 0
        display.setListProperty(
            ticket, display.atoms.shown, type: Atom(XA_CARDINAL),
            [UInt(bitPattern: box.x), UInt(bitPattern: box.y), UInt(box.width), UInt(box.height), progressCode])
        tellReplaced()
        XFlush(display.pointer)
    }

    /// Sends `replaced` to the tickets we took the place of that are still theirs: a dead
    /// ticket's window id may have been given to a new, unrelated ticket, so the tag must match.
    private func tellReplaced() {
        for old in replaces where display.ticketInfo(old)?.tag == info.tag { send(.replaced, to: old) }
        replaces = []
    }

    func send(_ command: Command, to window: Window) { display.send(command, to: window) }

    private func writeQueue(_ entries: [UInt]) { writeList(display.atoms.queue, entries) }

    private func writeList(_ list: Atom, _ entries: [UInt]) {
        if entries.isEmpty {
            XDeleteProperty(display.pointer, display.root, list)
        } else {
            display.setListProperty(display.root, list, type: Atom(XA_WINDOW), entries)
        }
    }

    /// Where a ticket's toast is on screen, if it is.
    private func shownRect(_ window: Window) -> Rect? { shownState(window)?.rect }

    /// A ticket's `_XTOAST_SHOWN`: its box, and its progress value if it has a bar.
    private func shownState(_ window: Window) -> (rect: Rect, progress: Double?)? {
        guard let v = display.listProperty(window, display.atoms.shown, type: Atom(XA_CARDINAL), limit: 5), v.count >= 4,
            v[2] > 0, v[2] < 1 << 15, v[3] > 0, v[3] < 1 << 15
        else { return nil }
        let rect = Rect(
            x: Int(Int32(truncatingIfNeeded: v[0])), y: Int(Int32(truncatingIfNeeded: v[1])), width: Int(v[2]), height: Int(v[3]))
        let code = v.count == 5 ? v[4] : 0
        let progress = code > 0 && code <= UInt(Progress.maximum * 100) + 1 ? Double(code - 1) / 100 : nil
        return (rect, progress)
    }
}

extension XDisplay {
    /// The queue, or empty when absent or malformed.
    public func readQueue() -> [UInt] { readList(atoms.queue) }

    /// A root list of tickets (`_XTOAST_QUEUE`, `_XTOAST_SCHEDULED`), its first `limit`
    /// entries; empty when absent or malformed.
    public func readList(_ list: Atom, limit: Int = TicketQueue.entryLimit) -> [UInt] {
        let entries = listProperty(root, list, type: Atom(XA_WINDOW), limit: limit)
        return TicketQueue.pruned(entries ?? [], removing: [], limit: limit)
    }

    /// Sends `command` to the live tickets that `select` picks from the queue; returns how many.
    public func send(_ command: Command, in list: Atom? = nil, selecting select: ([(Window, Ticket)]) -> [(Window, Ticket)]) -> Int {
        let targets = select(liveTickets(in: readList(list ?? atoms.queue)))
        for (window, _) in targets { send(command, to: window) }
        XSync(pointer, 0)
        return targets.count
    }

    /// Sends `command` to a ticket window's owner.
    func send(_ command: Command, to window: Window) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = atoms.command
        event.xclient.format = 32
        event.xclient.data.l.0 = command.rawValue
        // No event mask: the event goes to the client that created the window.
        XSendEvent(pointer, window, 0, 0, &event)
    }
}
