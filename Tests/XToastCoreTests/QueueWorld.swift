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

    init(seed: UInt64) { random = SplitMix64(state: seed) }

    func failure(_ what: String) -> SimulationFailure {
        SimulationFailure(description: what + "\n" + trace.suffix(400).joined(separator: "\n"))
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
    mutating func spawn(tag: String?, urgent: Bool = false, delays: Bool = false) -> Int {
        let index = processes.count
        let id: UInt
        if !freed.isEmpty && random.below(2) == 0 {
            id = freed.removeLast()
        } else {
            id = nextID
            nextID += 0x20_0000
        }
        let member = QueueMember(me: id, ticket: Ticket(pid: index + 1, tag: tag), urgent: urgent)
        windows[id] = Window(owner: index, ticket: member.ticket)
        let plan = Session.Plan(
            content: ToastContent(message: "toast \(index)"), duration: .seconds(5), fullscreen: delays ? .delay : .show)
        var driver = SessionDriver(Session(plan, frameInterval: 1 / 60))
        driver.handle(.start, at: now)
        processes.append(Process(index: index, tag: tag, urgent: urgent, driver: driver, member: member))
        note("spawn \(index) tag \(tag ?? "-") urgent \(urgent) delays \(delays) id \(id)")
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
            processes[index].driver.answer([.turn(turn)], at: now)
        case .look:
            guard case .turn(let turn) = next else { return processes[index].driver.handle(.turn(.missing), at: now) }
            note("  \(index) looked: \(turn)")
            processes[index].driver.handle(.turn(turn), at: now)
        case .leave:
            if processes[index].state != .killed { processes[index].state = .done }
        }
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

// MARK: The session's effects

extension QueueWorld {
    /// Carries out the session's next effect, and hands its answers back through the driver.
    mutating func carryOutNext(_ index: Int) throws {
        guard let effect = processes[index].driver.next(at: now) else { return }
        let answers = try carryOut(effect, for: index)
        processes[index].driver.answer(answers, at: now)
    }

    /// An effect, carried out as `ToastSession.carryOut` does it, against this server: the
    /// queue's through the member, in a conversation whose end answers it; the questions with
    /// the scenario's facts.
    mutating func carryOut(_ effect: Session.Effect, for index: Int) throws -> [Session.Event] {
        switch effect {
        case .join: begin(index, .effect, processes[index].member.join())
        case .rejoin:
            processes[index].rejoined = true
            begin(index, .effect, processes[index].member.rejoin())
        case .lookAtTurn: processes[index].looksAtTurn = true
        case .watch(let entry): begin(index, .watch, processes[index].member.watch(entry, now: now))
        case .standAsideInPlace:
            processes[index].stoodAside = true
            begin(index, .effect, QueueMember.Step(processes[index].member.standAsideInPlace(), .done))
        case .lookAgain(let until): armPauseEnd(index, at: until)
        case .standAside(let until):
            if processes[index].urgent { throw failure("urgent \(index) stood aside") }
            begin(index, .effect, QueueMember.Step(processes[index].member.standAside(), .done))
            armPauseEnd(index, at: until)
        case .finish:
            // Its windows go, then it leaves the queue (`ToastSession.run`).
            processes[index].mapped = false
            if processes[index].state != .killed { processes[index].state = .leaving }
            begin(index, .leave, processes[index].member.leave())
        case .lookAtScreen:
            return [.screen(Session.Screen(replacing: processes[index].member.replacedShown != nil))]
        case .show(_, _, _, let morph):
            if !morph { try show(index) }
            return [.shown]
        case .present:
            if processes[index].mapped { try checkNotOverLock(index, "drawn") }
        case .announce(let progress):
            let shown = QueueMember.Shown(box: Rect(x: 10, y: 10, width: 100, height: 40), progress: progress)
            begin(index, .effect, processes[index].member.announceShown(shown))
        case .lookAtFullscreen: return [.fullscreen(covered: fullscreen)]
        case .watchFullscreen:
            processes[index].watchesFullscreen = true
            // Watched from this read on: should it have cleared in between, look again.
            if !fullscreen { return [.fullscreenChanged] }
        case .lookAtLock:
            processes[index].knowsLock = locked
            return [.lock(locked ? .locked : .clear)]
        case .watchLock: processes[index].watchesLock = true
        case .withdraw: processes[index].mapped = false
        case .restore:
            try checkNotOverLock(index, "restored")
            processes[index].mapped = true
        default: break
        }
        return []
    }

    /// `Wakeups.armPauseEnd`: `.pauseChanged` at that wall-clock second (at once when past);
    /// nil disarms it.
    mutating func armPauseEnd(_ index: Int, at until: Int?) {
        processes[index].timer = nil
        guard let until else { return }
        guard until > clock else { return processes[index].inbox.append(.pauseChanged) }
        processes[index].timer = until
    }

    /// The windows go up. Never two at once, except a toast already told to go: one we
    /// replace, one that a toast with its tag replaced, or this one, told while it looked (it
    /// reads the command next, a toast that flashed as its update came).
    mutating func show(_ index: Int) throws {
        note("  \(index) shows")
        try checkNotOverLock(index, "shown")
        if processes[index].shown { throw failure("\(index) shown twice") }
        let retiring = Set(processes[index].member.replaces)
        for other in processes where other.state == .showing && !retiring.contains(other.ticket) && other.replacedBy == nil {
            guard processes[index].replacedBy == nil else { continue }
            throw failure("\(other.index) and \(index) show at once; queue \(queue)")
        }
        processes[index].state = .showing
        processes[index].shown = true
        processes[index].mapped = true
        processes[index].hearsRoot = true
        if processes[index].tag == nil && !processes[index].urgent { showOrder.append(index) }
    }

    /// Nothing goes on screen over a lock the toast has seen (one that came after its last look
    /// it learns of at its first frame, and withdraws).
    func checkNotOverLock(_ index: Int, _ what: String) throws {
        guard locked && processes[index].knowsLock else { return }
        throw failure("\(index) \(what) over the lock it saw")
    }
}

// MARK: The server

extension QueueWorld {
    mutating func carryOut(_ write: QueueMember.Write, for index: Int) {
        let me = processes[index].ticket
        if case .listen(let entries) = write { note("  \(index) listens to \(entries)") }
        switch write {
        case .ticket(let ticket):
            windows[me]?.ticket = ticket
            notify(.touched(me), about: me)
        case .listen(let entries):
            for entry in entries where windows[entry] != nil { processes[index].selected.insert(entry) }
        case .watchStack(let entries):
            for entry in entries where windows[entry] != nil { processes[index].selected.insert(entry) }
        case .stopListening(let entry): processes[index].selected.remove(entry)
        case .listenToPause: processes[index].listensToPause = true
        case .append(let list):
            lists[list, default: []].append(me)
            if list == .queue && processes[index].joined == nil {
                note("  \(index) appends, start \(joins)")
                processes[index].joined = joins
                joins += 1
            }
        case .grab: grabbedBy = index
        case .ungrab: grabbedBy = nil
        case .write(let list, let entries): lists[list] = entries
        case .replaces(let entries): windows[me]?.replaces = entries
        case .send(let command, let entry):
            guard let owner = windows[entry]?.owner, owner >= 0 else { return }
            if command == .replaced { processes[owner].replacedBy = .some(processes[index].tag) }
            processes[owner].inbox.append(.command(command))
        case .shown(let shown): windows[me]?.shown = shown.encoded
        case .destroy: destroy(me)
        }
    }

    /// Answers a question, one request a step: a batch's second part comes a step after its
    /// first, so that other clients can change things between them. Nil until it is whole.
    mutating func ask(_ question: QueueMember.Question, for index: Int, partial: inout Partial?) -> QueueMember.Answer? {
        switch question {
        case .queueAndPause:
            // The pause is asked first, then the queue.
            guard case .pause(let pause) = partial else {
                partial = .pause(pauseValue)
                return nil
            }
            return .queueAndPause(queue: readList(.queue), pause: pause)
        case .list(let list, let limit): return .list(readList(list, limit: limit))
        case .tickets(let entries, let thenQueue):
            guard thenQueue else { return .tickets(entries.map(ticket), queue: nil) }
            guard case .tickets(let found) = partial else {
                partial = .tickets(entries.map(ticket))
                return nil
            }
            return .tickets(found, queue: readList(.queue))
        case .facts(let entries):
            return .facts(
                entries.map { entry in
                    QueueMember.Facts(
                        ticket: ticket(entry), shown: QueueMember.Shown(values: windows[entry]?.shown),
                        replaces: windows[entry]?.replaces ?? [])
                })
        case .appendChecked(let list):
            lists[list, default: []].append(processes[index].ticket)
            return .appended(failed: false)
        case .isMalformed: return .malformed(false)
        }
    }

    func readList(_ list: QueueMember.List, limit: Int = TicketQueue.entryLimit) -> [UInt] {
        TicketQueue.pruned(lists[list] ?? [], removing: [], limit: limit)
    }

    func ticket(_ entry: UInt) -> Ticket? { windows[entry]?.ticket }

    /// A PropertyNotify on `window`'s ticket, for whoever listens to it.
    mutating func notify(_ event: Event, about window: UInt) {
        for index in processes.indices where processes[index].isAlive && processes[index].selected.contains(window) {
            processes[index].inbox.append(event)
        }
    }

    mutating func destroy(_ window: UInt) {
        guard windows.removeValue(forKey: window) != nil else { return }
        notify(.destroyed(window), about: window)
        // Their selections went with the window: a new client may get its id.
        for index in processes.indices { processes[index].selected.remove(window) }
        freed.append(window)
    }

    /// `_XTOAST_PAUSED` changes: a PropertyNotify on the root, for those listening to it.
    mutating func setPause(_ value: [UInt]?) {
        pauseValue = value
        for index in processes.indices where processes[index].isAlive && (processes[index].listensToPause || processes[index].hearsRoot) {
            processes[index].inbox.append(.pauseChanged)
        }
    }

    /// The fullscreen window comes or goes: those watching the windows on top hear so.
    mutating func setFullscreen(_ on: Bool) {
        fullscreen = on
        for index in processes.indices where processes[index].isAlive && processes[index].watchesFullscreen {
            processes[index].inbox.append(.fullscreenChanged)
        }
    }

    /// A locker maps its window over the screen, or goes: toasts with windows up hear its map
    /// on the root, those watching the lock hear it go.
    mutating func setLock(_ on: Bool) {
        locked = on
        for index in processes.indices where processes[index].isAlive {
            if !on { processes[index].knowsLock = false }
            guard processes[index].watchesLock || processes[index].hearsRoot else { continue }
            processes[index].inbox.append(.lockChanged)
        }
    }

    /// A second passes: the pause timers come due.
    mutating func tick() {
        clock += 1
        for index in processes.indices where processes[index].isAlive {
            guard let until = processes[index].timer, until <= clock else { continue }
            processes[index].timer = nil
            processes[index].inbox.append(.pauseChanged)
        }
    }
}

// MARK: Checks

extension QueueWorld {
    /// Runs every process until nobody has anything to do.
    mutating func settle() throws {
        var steps = 0
        while let p = processes.indices.first(where: { isBusy($0) && mayAct($0) }) {
            steps += 1
            guard steps < 100_000 else { throw failure("does not settle") }
            try step(p)
        }
        try checkSettled()
    }

    /// With nothing left to do under a lock, no toast is on screen: each one up when it came
    /// has heard of it and withdrawn.
    func checkSettled() throws {
        guard locked, let up = processes.first(where: \.mapped) else { return }
        throw failure("\(up.index) is on screen over the lock")
    }

    func checkEnd() throws {
        for p in processes {
            if p.isAlive {
                throw failure(
                    "process \(p.index) still \(p.state), \(String(describing: p.session.phase)) (mark \(String(describing: p.member.ticket.pause))): wedged; queue \(readList(.queue))"
                )
            }
            if case .some(let tag) = p.replacedBy, tag != p.tag {
                throw failure("process \(p.index) (tag \(String(describing: p.tag))) told replaced by \(String(describing: tag))")
            }
            if p.state == .done && p.replacedBy == nil && !p.shown {
                throw failure("process \(p.index) ended without showing or being replaced")
            }
        }
        // In the order their tickets went into the queue, the ones that had to join again aside;
        // those that stood aside in their place (a film, a lock) in their order too (one that
        // started later may show while they wait for it to end, or before they have heard of its end).
        for stoodAside in [false, true] {
            let survivors = showOrder.filter {
                processes[$0].state != .killed && !processes[$0].rejoined && processes[$0].stoodAside == stoodAside
            }
            let starts = survivors.map { processes[$0].joined ?? -1 }
            if starts != starts.sorted() { throw failure("shown out of order: \(survivors)") }
        }
        if grabbedBy != nil { throw failure("the server is still grabbed") }
    }
}

extension QueueWorld {
    /// What a random schedule may do besides running the processes.
    struct Schedule {
        var processes: Int
        /// Kills, garbage in the queue, tags that replace each other.
        var faults = true
        /// Pauses set, changed, ended by their clock or by `--resume`, and urgent toasts.
        var pauses = false
        /// Everyone joins before anyone looks: a long queue drains.
        var joinFirst = false
        /// A fullscreen window comes and goes; toasts without a tag wait for it (`--fullscreen
        /// delay`), in their place.
        var fullscreen = false
        /// The screen locks and unlocks.
        var lock = false
        /// More steps than this: something goes round in a circle.
        var stepLimit = 400_000
    }

    enum Action {
        case spawn, step(Int), finish(Int), kill(Int), garbage, pause([UInt]?), tick, fullscreen(Bool), lock(Bool)
    }

    /// Runs a seeded random schedule to its end, checking the rules at every show, whenever
    /// nobody has anything to do, and at the end.
    mutating func run(_ schedule: Schedule) throws {
        var steps = 0
        var changes = Changes()
        while true {
            steps += 1
            guard steps < schedule.stepLimit else { throw failure("no end after \(steps) steps") }
            let actions = choices(schedule, changes)
            guard !actions.isEmpty else { break }
            try act(random.pick(actions), schedule, &changes)
        }
        if fullscreen { throw failure("ended with the film playing") }
        if locked { throw failure("ended locked") }
        if paused != nil { throw failure("ended paused") }
        try checkEnd()
    }

    /// How many times the facts changed so far: a few each, the last ends them.
    struct Changes {
        var pause = 0
        var fullscreen = 0
        var lock = 0
    }

    /// What may happen next: steps of the processes, often; toasts ending and the facts
    /// changing, now and then.
    mutating func choices(_ schedule: Schedule, _ changes: Changes) -> [Action] {
        var actions: [Action] = []
        var slow: [Action] = []
        var background: [Action] = []
        // While the server is grabbed, it serves the grabber alone: nobody else connects,
        // writes or has its connection's end carried out.
        let free = grabbedBy == nil
        let spawning = processes.count < schedule.processes
        if spawning && free { actions.append(.spawn) }
        for index in processes.indices where processes[index].isAlive && mayAct(index) {
            // Joining first, a toast that has joined waits for the others to join.
            let held =
                schedule.joinFirst && spawning && processes[index].conversation == nil && !processes[index].member.lists.isEmpty
            if isBusy(index) && !held { actions.append(.step(index)) }
            // Toasts stay a while: others arrive, pauses begin and end while they show.
            if processes[index].state == .showing && processes[index].mapped && processes[index].isIdle
                && (!schedule.joinFirst || !spawning)
            {
                slow.append(.finish(index))
            }
            if schedule.faults && random.below(60) == 0 { actions.append(.kill(index)) }
        }
        if schedule.faults && free && random.below(40) == 0 { actions.append(.garbage) }
        let maximumPauseChanges = schedule.pauses ? (schedule.faults ? 6 : 4) : 0
        if free && changes.pause < maximumPauseChanges {
            // The last change ends it, so that everything can drain.
            let last = changes.pause == maximumPauseChanges - 1
            let choices: [[UInt]?] = [nil, [0], [UInt(clock + 1 + random.below(4))]]
            background.append(.pause(last ? nil : random.pick(choices)))
        }
        if schedule.fullscreen && changes.fullscreen < 6 {
            background.append(.fullscreen(changes.fullscreen < 5 && random.below(2) == 0))
        }
        if schedule.lock && changes.lock < 6 { background.append(.lock(changes.lock < 5 && random.below(2) == 0)) }
        // A toast is drawn well within a passer's grace: the clock does not pass while one is
        // between its turn and its first frame.
        let drawing = processes.contains { $0.state == .showing && windows[$0.ticket]?.shown == nil }
        if schedule.pauses && !drawing && (paused != nil || processes.contains { $0.isAlive && $0.timer != nil }) {
            background.append(.tick)
        }
        if actions.isEmpty || random.below(4) == 0 { actions += slow }
        if actions.isEmpty || random.below(5) == 0 { actions += background }
        return actions
    }

    mutating func act(_ action: Action, _ schedule: Schedule, _ changes: inout Changes) throws {
        if case .step = action {
        } else {
            // Nobody had anything to do, or something else came first: the settled check then.
            if locked && !processes.indices.contains(where: { isBusy($0) }) { try checkSettled() }
            note(
                "\(action) clock \(clock) paused \(String(describing: pauseValue)) queue \(queue.map { windows[$0].map { String($0.owner) } ?? "x" })"
            )
        }
        switch action {
        case .spawn:
            let tags: [String?] =
                schedule.faults ? [nil, nil, nil, "vol", "vol", "other"] : schedule.pauses ? [nil, nil, "vol"] : [nil]
            let tag = random.pick(tags)
            spawn(tag: tag, urgent: schedule.pauses && random.below(4) == 0, delays: schedule.fullscreen && tag == nil)
        case .step(let index): try step(index)
        case .finish(let index): finish(index)
        case .kill(let index): kill(index)
        case .garbage:
            // Another client appends ids that name nothing.
            lists[.queue, default: []] += (0..<random.below(4)).map { _ in UInt(0x7f00_0000 + random.below(100)) }
        case .pause(let value):
            changes.pause += 1
            setPause(value)
        case .tick: tick()
        case .fullscreen(let on):
            changes.fullscreen += 1
            setFullscreen(on)
        case .lock(let on):
            changes.lock += 1
            setLock(on)
        }
    }
}
