@testable import XToastCore

struct SimulationFailure: Error, CustomStringConvertible {
    var description: String
}

/// A fake X server with many xtoast processes on it, each running the shipped machines as the
/// program does: a `Session` through the interpreter's own driver (`SessionDriver`), and its
/// `QueueMember`, whose conversations the server carries out one request a step, so that any
/// client can act between any two requests of another (a question's batch included: its
/// requests are carried out one by one too). Each effect the session asks for is answered as
/// `ToastSession` answers it (`carryOut`), against this server and the facts the scenario sets:
/// the pause, a fullscreen window, a locked screen. The server keeps what the real one keeps
/// for the protocol: the root's lists, `_XTOAST_PAUSED`, ticket windows and their properties,
/// who listens to what, the grab, and ids given again to new clients.
///
/// The checks are the protocol's promises: never two queued toasts on screen at once, toasts
/// that are not urgent shown in start order, only tickets with the same tag told `replaced`,
/// nothing lost, wedged or shown twice, nothing drawn over a lock the toast knows of.
struct QueueWorld {
    enum State: Equatable { case waiting, showing, leaving, done, killed }

    /// What reaches a process from the server, in order: its Xlib event queue.
    enum Event: Equatable {
        case destroyed(UInt)
        case touched(UInt)
        case pauseChanged
        case command(RemoteCommand)
        case fullscreenChanged
        /// A locker came or went (a map on the root, or the end of a window it watches).
        case lockChanged
    }

    /// What a conversation with the server is for, and so what its end answers.
    enum Purpose: Equatable {
        /// An effect of the session: nothing is answered.
        case effect
        /// `watch`: a new turn, when the ticket had gone.
        case watch
        /// The look at the turn the interpreter makes after a batch of events (`.turn`).
        case look
        /// Leaving, after the session finished: the process exits next.
        case leave
    }

    /// A conversation in progress: the writes still to send, then the question (`partial`: the
    /// part of its batch already answered).
    struct Conversation {
        var purpose: Purpose
        var writes: [QueueMember.Write]
        var next: QueueMember.Next
        var partial: Partial? = nil
    }

    /// The first part of a batch, read a step before the rest.
    enum Partial {
        case pause([UInt]?)
        case tickets([Ticket?])
    }

    /// One xtoast process: its machines, and what the X side keeps beside them (`ToastSession`'s
    /// watches, its timer, its windows). Nothing here decides what the toast does. A class: the
    /// world looks at every process at every step, and a session is too big to copy that often.
    final class Process {
        let index: Int
        let tag: String?
        let urgent: Bool
        var driver: SessionDriver
        var member: QueueMember
        var state = State.waiting
        var conversation: Conversation?
        var inbox: [Event] = []
        /// The session asked for a look at the turn: made once the events queued are read
        /// (`ToastSession.looksAtTurn`).
        var looksAtTurn = false
        /// The pause's timer (`Wakeups.armPauseEnd`), a wall-clock second.
        var timer: Int?
        var selected: Set<UInt> = []
        var listensToPause = false
        /// Its windows are up: it hears the root's maps and properties (`ToastSession.show`).
        var hearsRoot = false
        var watchesFullscreen = false
        var watchesLock = false
        /// Its windows are on screen (mapped, not withdrawn).
        var mapped = false
        /// Its last look at the lock, during this lock, found it locked.
        var knowsLock = false
        var replacedBy: String?? = nil
        var shown = false
        /// It stood aside in its place (a fullscreen window, a lock).
        var stoodAside = false
        /// The tickets it told that it shows their summary after quiet.
        var summarised: [UInt] = []
        /// When its ticket first went into the queue (its start, for the order), and whether it
        /// had to join again since (its place is then at the end).
        var joined: Int?
        var rejoined = false
        var ticket: UInt { member.me }
        var session: Session { driver.session }

        init(index: Int, tag: String?, urgent: Bool, driver: SessionDriver, member: QueueMember) {
            self.index = index
            self.tag = tag
            self.urgent = urgent
            self.driver = driver
            self.member = member
        }

        var isAlive: Bool { state == .waiting || state == .showing || state == .leaving }
        /// Nothing in progress: no conversation, no effect of the session left to carry out.
        var isIdle: Bool { conversation == nil && driver.isIdle }
    }

    /// A ticket window on the server.
    struct Window {
        var owner: Int
        var ticket: Ticket?
        var shown: [UInt]?
        var replaces: [UInt] = []
    }

    var random: SplitMix64
    var processes: [Process] = []
    var lists: [QueueMember.List: [UInt]] = [:]
    var windows: [UInt: Window] = [:]
    var pauseValue: [UInt]?
    /// A fullscreen window covers the screen.
    var fullscreen = false
    /// A locker covers the screen.
    var locked = false
    /// The wall clock, in whole seconds (the sessions' monotonic clock too: only the order matters).
    var clock = 1_000_000
    var grabbedBy: Int?
    var freed: [UInt] = []
    var nextID: UInt = 0x20_0000
    /// Untagged, not urgent toasts in the order they began to show.
    var showOrder: [Int] = []
    /// Tickets appended to the queue so far.
    var joins = 0
    var looksStarted = 0
    var trace: [String] = []
    var keepAll = false

    /// The seed of the interleaving: `QueueWorld(seed:)` with it replays a failure.
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(state: seed)
    }

    func failure(_ what: String) -> SimulationFailure {
        SimulationFailure(description: "seed \(seed): " + what + "\n" + trace.suffix(400).joined(separator: "\n"))
    }

    mutating func note(_ line: String) {
        trace.append(line)
        if trace.count > 400 && !keepAll { trace.removeFirst(100) }
    }

    var queue: [UInt] { lists[.queue] ?? [] }
    var paused: Pause? { Pause.reading(pauseValue, now: Double(clock)) }
    var now: Double { Double(clock) }

    // MARK: Processes

    /// Starts a process: a ticket window, on an id a dead client had or a new one, and its
    /// session, started. `delays`: `--fullscreen delay`.
    @discardableResult
    /// `away`: its name in a summary after quiet (`Configuration.awayName`), nil: none; `awayCount`:
    /// the notifications it stands for there (a burst's toast). `reusing`:
    /// the freed id the server gives it (a scripted interleaving), nil: a random choice.
    mutating func spawn(
        tag: String?, urgent: Bool = false, delays: Bool = false, away: String? = nil, awayCount: Int = 1,
        reusing: UInt? = nil
    ) -> Int {
        let index = processes.count
        let id: UInt
        if let reusing, let freedAt = freed.firstIndex(of: reusing) {
            id = freed.remove(at: freedAt)
        } else if !freed.isEmpty && random.below(2) == 0 {
            id = freed.removeLast()
        } else {
            id = nextID
            nextID += 0x20_0000
        }
        var ticket = Ticket(pid: index + 1, tag: tag)
        ticket.away = away.map { Ticket.Away($0, count: awayCount) }
        let member = QueueMember(me: id, ticket: ticket, urgent: urgent)
        windows[id] = Window(owner: index, ticket: member.ticket)
        let plan = Session.Plan(
            content: ToastContent(message: "toast \(index)"), duration: .seconds(5), fullscreen: delays ? .delay : .show)
        var driver = SessionDriver(Session(plan, frameInterval: 1 / 60))
        driver.handle(.start, at: now)
        processes.append(Process(index: index, tag: tag, urgent: urgent, driver: driver, member: member))
        note("spawn \(index) tag \(tag ?? "-") urgent \(urgent) delays \(delays) away \(away ?? "-") id \(id)")
        return index
    }

    /// Whether a process can take a step now: the grab holds everyone else.
    func mayAct(_ index: Int) -> Bool { grabbedBy == nil || grabbedBy == index }

    /// Whether a process has something to do.
    func isBusy(_ index: Int) -> Bool {
        guard processes[index].isAlive else { return false }
        if processes[index].conversation != nil || !processes[index].inbox.isEmpty { return true }
        return !processes[index].driver.isIdle || (processes[index].looksAtTurn && !processes[index].driver.machine.isFinished)
    }

    /// One step of a process, in `ToastSession`'s order: a request of its conversation; or the
    /// session's next effect, carried out; or, with nothing left to carry out, its next event;
    /// or, with none queued, the look at the turn asked for.
    mutating func step(_ index: Int) throws {
        if processes[index].conversation != nil { return try request(index) }
        if !processes[index].driver.isIdle { return try carryOutNext(index) }
        if !processes[index].inbox.isEmpty { return hear(processes[index].inbox.removeFirst(), index) }
        if processes[index].looksAtTurn && !processes[index].session.isFinished {
            processes[index].looksAtTurn = false
            looksStarted += 1
            begin(index, .look, processes[index].member.lookAtTurn(now: now))
        }
    }

    /// Steps one process until `done` says so; a failure when it has nothing left to do first
    /// (a broken rule must turn a test red, not hang it).
    mutating func step(_ index: Int, until done: (QueueWorld) -> Bool) throws {
        while !done(self) {
            guard isBusy(index) else { throw failure("\(index) stopped before it got there") }
            try step(index)
        }
    }

    mutating func begin(_ index: Int, _ purpose: Purpose, _ step: QueueMember.Step) {
        processes[index].conversation = Conversation(purpose: purpose, writes: step.writes, next: step.next)
    }

    /// The process's next request to the server.
    mutating func request(_ index: Int) throws {
        guard var conversation = processes[index].conversation else { return }
        if !conversation.writes.isEmpty {
            let write = conversation.writes.removeFirst()
            processes[index].conversation = conversation
            carryOut(write, for: index)
            return
        }
        guard case .ask(let question) = conversation.next else {
            processes[index].conversation = nil
            return ended(conversation.purpose, conversation.next, index)
        }
        guard let answer = ask(question, for: index, partial: &conversation.partial) else {
            processes[index].conversation = conversation
            return
        }
        let step = processes[index].member.answer(answer)
        processes[index].conversation = Conversation(purpose: conversation.purpose, writes: step.writes, next: step.next)
    }

    /// A conversation's end, answered as `QueueStore` answers it.
    mutating func ended(_ purpose: Purpose, _ next: QueueMember.Next, _ index: Int) {
        switch purpose {
        case .effect: processes[index].driver.answer([], at: now)
        case .watch:
            guard case .turn(let turn) = next else { return processes[index].driver.answer([], at: now) }
            processes[index].driver.answer(takeCommands(index).map { .remote($0) } + [.turn(turn)], at: now)
        case .look:
            guard case .turn(let turn) = next else { return processes[index].driver.handle(.turn(.missing), at: now) }
            note("  \(index) looked: \(turn)")
            // Commands that came during the look first (`ToastSession.commandsQueued`).
            for command in takeCommands(index) { hand(.remote(command), to: index) }
            if !processes[index].session.isFinished { processes[index].driver.handle(.turn(turn), at: now) }
        case .leave:
            if processes[index].state != .killed { processes[index].state = .done }
        }
    }

    /// The commands in the process's queue, taken out of it (`ToastSession.commandsQueued`).
    mutating func takeCommands(_ index: Int) -> [RemoteCommand] {
        var commands: [RemoteCommand] = []
        processes[index].inbox.removeAll { event in
            guard case .command(let command) = event else { return false }
            commands.append(command)
            return true
        }
        return commands
    }

    /// An event from the server, read once the process has nothing left to carry out, in the
    /// session's terms (as `ToastSession.translate` and `QueueStore.affectsTurn` read it).
    mutating func hear(_ event: Event, _ index: Int) {
        note("  \(index) hears \(event) watching \(String(describing: processes[index].member.watched))")
        let translated: Session.Event?
        switch event {
        case .command(let command): translated = .remote(command)
        case .destroyed(let entry):
            guard entry == processes[index].member.watched else { return }
            processes[index].member.watchedEnded()
            translated = .queueChanged
        case .touched(let entry): translated = entry == processes[index].member.watched ? .queueChanged : nil
        case .pauseChanged: translated = .pauseChanged
        case .fullscreenChanged: translated = .fullscreenChanged
        case .lockChanged: translated = .lockChanged
        }
        if let translated { hand(translated, to: index) }
    }

    /// Hands an event to the process's session; one that ends it makes it leave.
    mutating func hand(_ event: Session.Event, to index: Int) {
        processes[index].driver.handle(event, at: now)
        if processes[index].session.isFinished && [.waiting, .showing].contains(processes[index].state) {
            processes[index].state = .leaving
        }
    }

    /// The toast ends (expired, clicked): a click on its windows. Not while they are withdrawn
    /// under a lock: nobody can click them, and their time stands still.
    mutating func finish(_ index: Int) {
        guard processes[index].isIdle, processes[index].state == .showing, processes[index].mapped else { return }
        hand(.click(.clicked), to: index)
    }

    /// SIGKILL: the server destroys its window and releases its grab.
    mutating func kill(_ index: Int) {
        processes[index].state = .killed
        processes[index].conversation = nil
        processes[index].mapped = false
        if grabbedBy == index { grabbedBy = nil }
        destroy(processes[index].ticket)
    }
}
