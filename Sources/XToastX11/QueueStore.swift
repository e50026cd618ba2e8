import CX11
import Glibc
import XToastCore
import XToastSystem

/// Takes turns with the other xtoast processes on a display through the X server alone: no
/// daemon, no files, no sockets, so it works the same over `ssh -X`.
///
/// Each process owns an unmapped *ticket* window; the server destroys it when the process
/// exits, even by SIGKILL, so nothing is ever left locked. The root window's `_XTOAST_QUEUE`
/// lists tickets oldest first; the first live ticket shows, the others wait for it to leave.
/// Registering appends in one request (atomic on the server); every rewrite of the list runs
/// under a server grab, which the server also releases if the grabber dies.
///
/// What to ask and write, and what it means, is `QueueMember`'s (in XToastCore, where the
/// simulations drive it); this is its store: it carries out the writes and answers each
/// question with one batch of requests.
final class QueueStore {
    let display: XDisplay
    /// Our ticket window.
    let ticket: Window
    private var member: QueueMember
    private let warn: (String) -> Void
    /// The stacked tickets before ours that we watch for appearing, resizing and leaving.
    private var watchedStack = Set<Window>()
    /// The notification service's window whose end is heard of (see `affectsPause`); 0: none.
    private var inhibitionWindow: Window = 0

    init(
        display: XDisplay, tag: String?, at: Int?, stack: Position?, buttons: [String] = [], urgent: Bool = false,
        away: Ticket.Away? = nil, said: Listing.Said? = nil, warn: @escaping (String) -> Void
    ) {
        self.display = display
        self.warn = warn
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        ticket = XCreateWindow(
            display.pointer, display.root, -1, -1, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
        var info = Ticket(pid: Int(getpid()), tag: tag, at: at, stack: stack)
        info.buttons = Press.publishable(buttons)
        info.away = away
        member = QueueMember(me: UInt(ticket), ticket: info, urgent: urgent)
        write(.ticket(member.ticket))
        if let said { say(said) }
        XStoreName(display.pointer, ticket, "xtoast ticket")
    }

    deinit { leave() }

    /// Where the shown toast we replace is on screen, and its progress value, for the transition.
    var replacedRect: Rect? { member.replacedShown?.box }
    var replacedProgress: Double? { member.replacedShown?.progress }

    // MARK: The machine's requests

    /// Carries a conversation through: the writes, and each question answered, until it ends.
    @discardableResult
    private func converse(_ first: QueueMember.Step) -> QueueMember.Next {
        var step = first
        while true {
            if let warning = step.warning { warn(warning) }
            step.writes.forEach(write)
            guard case .ask(let question) = step.next else {
                XFlush(display.pointer)
                return step.next
            }
            step = member.answer(answer(question))
        }
    }

    private func write(_ write: QueueMember.Write) {
        let dpy = display.pointer
        switch write {
        case .ticket(let info):
            let bytes = info.encoded
            XChangeProperty(dpy, ticket, display.atoms.ticket, display.atoms.utf8String, 8, PropModeReplace, bytes, Int32(bytes.count))
        case .listen(let entries):
            for entry in entries { XSelectInput(dpy, Window(entry), Self.waitMask) }
        case .stopListening(let entry): XSelectInput(dpy, Window(entry), NoEventMask)
        case .watchStack(let entries): watchStack(entries.map { Window($0) })
        case .listenToPause: display.listenOnRoot(PropertyChangeMask, as: .queue)
        case .append(let list):
            display.setListProperty(display.root, display.atom(list), type: Atom(XA_WINDOW), [UInt(ticket)], mode: PropModeAppend)
        case .grab: XGrabServer(dpy)
        case .ungrab: XUngrabServer(dpy)
        case .write(let list, let entries):
            if entries.isEmpty {
                XDeleteProperty(dpy, display.root, display.atom(list))
            } else {
                display.setListProperty(display.root, display.atom(list), type: Atom(XA_WINDOW), entries)
            }
        case .replaces(let entries):
            display.setListProperty(ticket, display.atoms.replaces, type: Atom(XA_WINDOW), entries)
        case .send(let command, let entry): display.send(command, to: Window(entry))
        case .shown(let shown):
            display.setListProperty(ticket, display.atoms.shown, type: Atom(XA_CARDINAL), shown.encoded)
        case .destroy:
            XDestroyWindow(dpy, ticket)
            // Waited for: the process exits next, and requests still in flight when a
            // connection closes are not certain to be carried out.
            XSync(dpy, 0)
        }
    }

    private func answer(_ question: QueueMember.Question) -> QueueMember.Answer {
        switch question {
        case .queueAndPause:
            let (queue, pause, inhibitedBy) = display.queueAndRawPause()
            follow(inhibition: inhibitedBy)
            return .queueAndPause(queue: queue, pause: Pause.values(pause, inhibited: inhibitedBy != nil, now: Clock.wall()))
        case .list(let list, let limit): return .list(display.readList(display.atom(list), limit: limit))
        case .tickets(let entries, let thenQueue):
            let windows = entries.map { Window($0) }
            guard thenQueue else { return .tickets(display.tickets(windows), queue: nil) }
            let (found, queue) = display.ticketsThenQueue(windows)
            return .tickets(found, queue: queue)
        case .facts(let entries): return .facts(display.ticketFacts(entries.map { Window($0) }))
        case .appendChecked(let list):
            let failed = display.trapErrors {
                display.setListProperty(display.root, display.atom(list), type: Atom(XA_WINDOW), [UInt(ticket)], mode: PropModeAppend)
            }
            return .appended(failed: !failed.isEmpty)
        case .isMalformed(let list):
            let type = display.propertyType(display.root, display.atom(list))
            return .malformed(type != 0 && type != Atom(XA_WINDOW))
        }
    }

    // MARK: Joining and leaving

    /// Joins the queue: at the end, or in the place of a live toast with the same tag.
    func register() { converse(member.join()) }

    /// Joins again after `turn` found us missing.
    func rejoin() { converse(member.rejoin()) }

    /// Waits out a `--in`/`--at` delay in `_XTOAST_SCHEDULED`, where `--cancel-scheduled` finds it.
    func joinSchedule() { converse(member.join(.scheduled)) }

    func leaveSchedule() { converse(member.leave(.scheduled)) }

    /// Shows alongside the others instead of waiting (`--stack`), listed in `_XTOAST_STACK`.
    func joinStack() { converse(member.join(.stack)) }

    /// Leaves the queue and the schedule and destroys the ticket, so that the next toast can show.
    func leave() { converse(member.leave()) }

    /// Stands aside for a fullscreen window, in our place (see
    /// `QueueMember.standAsideInPlace`).
    func standAsideInPlace() { member.standAsideInPlace().forEach(write) }

    /// Tells the toasts that came back behind ours that ours shows their summary (see
    /// `QueueMember.summarise`).
    func summarise(_ others: [UInt]) { converse(member.summarise(others)) }

    /// What the toast says, for `xtoast --list` (`_XTOAST_TEXT`).
    func say(_ said: Listing.Said) {
        let bytes = said.encoded
        XChangeProperty(
            display.pointer, ticket, display.atoms.text, display.atoms.utf8String, 8, PropModeReplace, bytes, Int32(bytes.count))
    }

    // MARK: Whose turn it is

    /// Looks at the queue: whose turn it is, and whom to wait for (see `watch`).
    func turn() -> QueueProtocol.Turn {
        guard case .turn(let turn) = converse(member.lookAtTurn(now: Clock.wall())) else { return .missing }
        return turn
    }

    /// Stands aside for a pause (see `QueueMember.standAside`).
    func standAside() {
        member.standAside().forEach(write)
    }

    /// Waits for `window` to go: its end (even by SIGKILL) wakes us through a DestroyNotify.
    /// Returns a new turn when it had gone already.
    func watch(_ window: Window) -> QueueProtocol.Turn? {
        guard case .turn(let turn) = converse(member.watch(UInt(window), now: Clock.wall())) else { return nil }
        return turn
    }

    /// What a waiting process hears of the ticket it waits for: its end, and its touches.
    private static let waitMask = StructureNotifyMask | PropertyChangeMask

    /// Whether an event means the turn may have changed: the ticket we wait for ended or was
    /// touched. Changes to the queue itself do not wake a waiter: the ones that matter end a
    /// ticket (a replacement is told first) or touch it (a ticket that joins again).
    func affectsTurn(_ event: inout XEvent) -> Bool {
        guard let watched = member.watched.map({ Window($0) }) else { return false }
        switch event.type {
        case PropertyNotify: return event.xproperty.window == watched && event.xproperty.atom == display.atoms.ticket
        case DestroyNotify:
            guard event.xdestroywindow.window == watched else { return false }
            member.watchedEnded()
            return true
        default: return false
        }
    }

    /// Whether an event is a change of the pause or the inhibition on the root, or the end of
    /// the notification service's window that says who inhibits (the service died).
    func affectsPause(_ event: inout XEvent) -> Bool {
        switch event.type {
        case PropertyNotify:
            let atom = event.xproperty.atom
            return event.xproperty.window == display.root && (atom == display.atoms.paused || atom == display.atoms.inhibited)
        case DestroyNotify:
            guard inhibitionWindow != 0, event.xdestroywindow.window == inhibitionWindow else { return false }
            inhibitionWindow = 0
            return true
        default: return false
        }
    }

    /// Hears of the end of `window`, the service's that says who inhibits: a service that dies
    /// leaves the root's pointer behind, and nothing else would tell a toast held by it.
    private func follow(inhibition window: Window?) {
        guard let window, window != inhibitionWindow else { return }
        inhibitionWindow = window
        display.listen(on: window, UInt32(StructureNotifyMask))
    }

    // MARK: The stack

    /// Takes our place in the stack (see `QueueMember.placeInStack`): the shift on each monitor,
    /// or nil when the toast does not fit on one of them.
    func placeInStack(_ placing: QueueMember.Placing) -> [Int]? {
        guard case .placed(let shifts) = converse(member.placeInStack(placing)) else { return nil }
        return shifts
    }

    /// The boxes of the stacked toasts placed before ours at our position, in the order they
    /// were placed. Watches the tickets before ours first, so that one placed, resized or
    /// leaving after this read wakes us.
    func stackedBoxes() -> [Rect] {
        let list = display.readList(display.atoms.stack)
        let before = Array(list.prefix { $0 != UInt(ticket) })
        watchStack(before.map { Window($0) })
        return display.ticketFacts(before.map { Window($0) }).compactMap { facts in
            guard let other = facts.ticket, other.stack == member.ticket.stack else { return nil }
            return facts.shown?.box
        }
    }

    private func watchStack(_ windows: [Window]) {
        for window in windows where watchedStack.insert(window).inserted {
            XSelectInput(display.pointer, window, StructureNotifyMask | PropertyChangeMask)
        }
    }

    /// Whether an event means the stacked toasts placed before ours may have changed: one
    /// published another box, or ended. (Toasts placed later go past ours: the stack's list
    /// itself changing moves nobody.)
    func affectsStack(_ event: inout XEvent) -> Bool {
        switch event.type {
        case PropertyNotify: watchedStack.contains(event.xproperty.window) && event.xproperty.atom == display.atoms.shown
        case DestroyNotify: watchedStack.remove(event.xdestroywindow.window) != nil
        default: false
        }
    }

    // MARK: Messages

    /// A command sent to our ticket and its argument (`data.l[1]`, a press's button), if the
    /// event is one (malformed ones are ignored).
    func command(in event: inout XEvent) -> (RemoteCommand, argument: Int)? {
        guard event.type == ClientMessage, event.xclient.window == ticket, event.xclient.message_type == display.atoms.command
        else { return nil }
        guard event.xclient.format == 32, let command = RemoteCommand(rawValue: Int(event.xclient.data.l.0)) else {
            warn("ignored a malformed _XTOAST_COMMAND message")
            return nil
        }
        return (command, Int(event.xclient.data.l.1))
    }

    /// Publishes where our toast is, and its progress value, once it is drawn, and tells the
    /// ones we replaced to go.
    func announceShown(at box: Rect, progress: Double?) {
        converse(member.announceShown(QueueMember.Shown(box: box, progress: progress)))
    }

    func send(_ command: RemoteCommand, to window: Window) { display.send(command, to: window) }

    /// A ticket's `_XTOAST_SHOWN`, if its toast is on screen.
    private func shown(of window: Window) -> QueueMember.Shown? {
        QueueMember.Shown(values: display.listProperty(window, display.atoms.shown, type: Atom(XA_CARDINAL), limit: 5))
    }
}

extension XDisplay {
    /// The root window's property that holds `list`.
    public func atom(_ list: QueueMember.List) -> Atom {
        switch list {
        case .queue: atoms.queue
        case .scheduled: atoms.scheduled
        case .stack: atoms.stack
        }
    }

    /// The queue, or empty when absent or malformed.
    public func readQueue() -> [UInt] { readList(atoms.queue) }

    /// A root list of tickets (`_XTOAST_QUEUE`, `_XTOAST_SCHEDULED`), its first `limit`
    /// entries; empty when absent or malformed.
    public func readList(_ list: Atom, limit: Int = TicketQueue.entryLimit) -> [UInt] {
        let entries = listProperty(root, list, type: Atom(XA_WINDOW), limit: limit)
        return TicketQueue.pruned(entries ?? [], removing: [], limit: limit)
    }

    /// Sends `command` to the live tickets that `select` picks from the queue; returns how many.
    public func send(_ command: RemoteCommand, in list: Atom? = nil, selecting select: ([(Window, Ticket)]) -> [(Window, Ticket)]) -> Int {
        let targets = select(liveTickets(in: readList(list ?? atoms.queue)))
        for (window, _) in targets { send(command, to: window) }
        XSync(pointer, 0)
        return targets.count
    }

    /// Sends a press (`xtoast --press`) where `target` says, and waits until the server has it.
    public func press(_ target: Press.Target) {
        send(.press, to: Window(target.entry), argument: target.argument)
        XSync(pointer, 0)
    }

    /// Sends `command` (with `argument`, a press's button) to a ticket window's owner.
    func send(_ command: RemoteCommand, to window: Window, argument: Int = 0) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = atoms.command
        event.xclient.format = 32
        event.xclient.data.l.0 = command.rawValue
        event.xclient.data.l.1 = argument
        // No event mask: the event goes to the client that created the window.
        XSendEvent(pointer, window, 0, 0, &event)
    }
}
