@testable import XToastCore

struct SimulationFailure: Error, CustomStringConvertible {
    var description: String
}

/// A fake X server with many xtoast processes on it, each driving the shipped `QueueMember`:
/// one server request a step, so that any client can act between any two requests of another
/// (a question's batch included: its requests are carried out one by one too). The server keeps
/// what the real one keeps for the protocol: the root's lists, `_XTOAST_PAUSED`, ticket windows
/// and their properties, who listens to what, the grab, and ids given again to new clients.
///
/// What a process does with a turn is what the session does: `.mine` shows, `.waitFor` watches,
/// `.paused` stands aside, `.missing` joins again; a toast that may not show over a fullscreen
/// window (`--fullscreen delay`) stands aside in its place while one plays. The checks are the protocol's promises: never
/// two queued toasts on screen at once, toasts that are not urgent shown in start order, only
/// tickets with the same tag told `replaced`, nothing lost or wedged.
struct QueueWorld {
    enum State: Equatable { case new, waiting, showing, leaving, done, killed }

    /// What reaches a process from the server, in order: its Xlib event queue.
    enum Event: Equatable {
        case destroyed(UInt)
        case touched(UInt)
        case pauseChanged
        case command(RemoteCommand)
        /// The fullscreen window went (for those standing aside for it).
        case fullscreenEnded
    }

    /// What the process does once a conversation ends.
    enum Purpose: Equatable { case join, look, announce, leave, rejoin }

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

    struct Process {
        let index: Int
        let tag: String?
        let urgent: Bool
        var member: QueueMember
        var state = State.new
        var conversation: Conversation?
        var inbox: [Event] = []
        /// The turn is to be looked at (an event asked for it).
        var looks = false
        /// Standing aside for a pause; its end, a wall-clock second, rings once.
        var standingAside = false
        /// Waiting for a ticket behind that passed it, until `timer` at the latest.
        var waitsForPasser = false
        var timer: Int?
        var selected: Set<UInt> = []
        var listensToPause = false
        var replacedBy: String?? = nil
        var shown = false
        /// `--fullscreen delay`: it stands aside while a fullscreen window plays; `aside` while it
        /// does, `stoodAside` once it has.
        var delays = false
        var aside = false
        var stoodAside = false
        /// When its ticket first went into the queue (its start, for the order), and whether it
        /// had to join again since (its place is then at the end).
        var joined: Int?
        var rejoined = false
        var ticket: UInt { member.me }

        var isAlive: Bool { state == .waiting || state == .showing || state == .leaving }
        var isIdle: Bool { conversation == nil }
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
    /// The wall clock, in whole seconds.
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

    // MARK: Processes

    /// Starts a process: a ticket window, on an id a dead client had or a new one, and its
    /// first conversation (joining the queue).
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
        processes.append(Process(index: index, tag: tag, urgent: urgent, member: member, state: .waiting, delays: delays))
        begin(index, .join, processes[index].member.join())
        note("spawn \(index) tag \(tag ?? "-") urgent \(urgent) id \(id)")
        return index
    }

    /// Whether a process can take a step now: the grab holds everyone else.
    func mayAct(_ index: Int) -> Bool { grabbedBy == nil || grabbedBy == index }

    /// Whether a process has something to do.
    func isBusy(_ index: Int) -> Bool {
        let p = processes[index]
        guard p.isAlive else { return false }
        return p.conversation != nil || !p.inbox.isEmpty || (p.looks && p.state == .waiting)
    }

    /// One step of a process: a request of its conversation, or, idle, its next event, or a look.
    mutating func step(_ index: Int) throws {
        if processes[index].conversation != nil { return try request(index) }
        if !processes[index].inbox.isEmpty { return try handle(processes[index].inbox.removeFirst(), index) }
        if processes[index].looks && processes[index].state == .waiting {
            processes[index].looks = false
            looksStarted += 1
            begin(index, .look, processes[index].member.lookAtTurn(now: Double(clock)))
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
        switch conversation.next {
        case .ask(let question):
            guard let answer = ask(question, for: index, partial: &conversation.partial) else {
                processes[index].conversation = conversation
                return
            }
            let step = processes[index].member.answer(answer)
            processes[index].conversation = Conversation(purpose: conversation.purpose, writes: step.writes, next: step.next)
        case .turn(let turn):
            processes[index].conversation = nil
            try decide(index, turn)
        case .done, .placed:
            // No simulated process is stacked.
            processes[index].conversation = nil
            try ended(conversation.purpose, index)
        }
    }

    /// What the session does with a turn.
    mutating func decide(_ index: Int, _ turn: QueueProtocol.Turn) throws {
        note("  \(index) decides \(turn)")
        processes[index].standingAside = false
        processes[index].waitsForPasser = false
        processes[index].timer = nil
        switch turn {
        case .mine where fullscreen && processes[index].delays:
            // Covered: it waits for the film in its place, and lets the others pass.
            processes[index].aside = true
            processes[index].stoodAside = true
            begin(index, .look, QueueMember.Step(processes[index].member.standAsideInPlace(), .done))
        case .mine:
            // Never two at once, except a toast already told to go: one we replace, one that a
            // toast with its tag replaced, or this one, told while it looked (it reads the
            // command next, a toast that flashed as its update came).
            let retiring = Set(processes[index].member.replaces)
            for other in processes where other.state == .showing && !retiring.contains(other.ticket) && other.replacedBy == nil {
                guard processes[index].replacedBy == nil else { continue }
                throw failure("\(other.index) and \(index) show at once; queue \(queue)")
            }
            processes[index].state = .showing
            processes[index].shown = true
            if processes[index].tag == nil && !processes[index].urgent { showOrder.append(index) }
            let box = Rect(x: 10, y: 10, width: 100, height: 40)
            begin(index, .announce, processes[index].member.announceShown(QueueMember.Shown(box: box, progress: nil)))
        case .waitFor(let entry):
            begin(index, .look, processes[index].member.watch(entry, now: Double(clock)))
        case .waitForPasser(let entry, let until):
            processes[index].timer = until
            processes[index].waitsForPasser = true
            begin(index, .look, processes[index].member.watch(entry, now: Double(clock)))
        case .paused(let until):
            if processes[index].urgent { throw failure("urgent \(index) stood aside") }
            processes[index].standingAside = true
            processes[index].timer = until
            begin(index, .look, QueueMember.Step(processes[index].member.standAside(), .done))
            if let until, until <= clock { processes[index].looks = true }
        case .missing:
            processes[index].rejoined = true
            begin(index, .rejoin, processes[index].member.rejoin())
        }
    }

    mutating func ended(_ purpose: Purpose, _ index: Int) throws {
        switch purpose {
        case .join, .rejoin: processes[index].looks = true
        case .look, .announce: break
        case .leave: processes[index].state = processes[index].state == .killed ? .killed : .done
        }
    }

    /// An event from the server, taken from the process's queue when it is idle.
    mutating func handle(_ event: Event, _ index: Int) throws {
        note("  \(index) hears \(event) watching \(String(describing: processes[index].member.watched))")
        switch event {
        case .command:
            // A command reaches a process before any queue change that followed it.
            guard processes[index].state == .waiting || processes[index].state == .showing else { return }
            finish(index)
        case .destroyed(let entry):
            guard entry == processes[index].member.watched else { return }
            processes[index].member.watchedEnded()
            // Standing aside for a film, it does not look at its turn.
            processes[index].looks = !processes[index].aside
        case .touched(let entry):
            if entry == processes[index].member.watched && !processes[index].aside { processes[index].looks = true }
        case .pauseChanged:
            if processes[index].standingAside || processes[index].waitsForPasser { processes[index].looks = true }
        case .fullscreenEnded:
            guard processes[index].aside else { return }
            processes[index].aside = false
            processes[index].looks = true
        }
    }

    /// The toast ends (expired, clicked, told): its windows go, then it leaves.
    mutating func finish(_ index: Int) {
        guard processes[index].isIdle, processes[index].state == .waiting || processes[index].state == .showing else { return }
        processes[index].state = .leaving
        begin(index, .leave, processes[index].member.leave())
    }

    /// SIGKILL: the server destroys its window and releases its grab.
    mutating func kill(_ index: Int) {
        processes[index].state = .killed
        processes[index].conversation = nil
        if grabbedBy == index { grabbedBy = nil }
        destroy(processes[index].ticket)
    }

    // MARK: The server

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
            guard let owner = windows[entry]?.owner else { return }
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

    mutating func setPause(_ value: [UInt]?) {
        pauseValue = value
        for index in processes.indices where processes[index].isAlive && processes[index].listensToPause {
            processes[index].inbox.append(.pauseChanged)
        }
    }

    /// The fullscreen window comes or goes; when it goes, those standing aside for it hear so.
    mutating func setFullscreen(_ on: Bool) {
        fullscreen = on
        guard !on else { return }
        for index in processes.indices where processes[index].isAlive && processes[index].aside {
            processes[index].inbox.append(.fullscreenEnded)
        }
    }

    /// A second passes: the pause timers of those standing aside come due.
    mutating func tick() {
        clock += 1
        for index in processes.indices where processes[index].isAlive {
            guard let until = processes[index].timer, until <= clock else { continue }
            processes[index].timer = nil
            processes[index].inbox.append(.pauseChanged)
        }
    }

    // MARK: Checks

    /// Runs every process until nobody has anything to do.
    mutating func settle() throws {
        var steps = 0
        while let p = processes.indices.first(where: { isBusy($0) && mayAct($0) }) {
            steps += 1
            guard steps < 100_000 else { throw failure("does not settle") }
            try step(p)
        }
    }

    func checkEnd() throws {
        for p in processes {
            if p.isAlive || p.state == .new {
                throw failure(
                    "process \(p.index) still \(p.state) (mark \(String(describing: p.member.ticket.pause))): wedged; queue \(readList(.queue))"
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
        // those that stood aside for a film in their order too (one that started later may show
        // while they wait for it to end, or before they have heard of its end).
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
        /// More steps than this: something goes round in a circle.
        var stepLimit = 400_000
    }

    enum Action {
        case spawn, step(Int), finish(Int), kill(Int), garbage, pause([UInt]?), tick, fullscreen(Bool)
    }

    /// Runs a seeded random schedule to its end, checking the rules at every show and at the end.
    mutating func run(_ schedule: Schedule) throws {
        var steps = 0
        var pauseChanges = 0
        var fullscreenChanges = 0
        let maximumPauseChanges = schedule.pauses ? (schedule.faults ? 6 : 4) : 0
        while true {
            steps += 1
            guard steps < schedule.stepLimit else { throw failure("no end after \(steps) steps") }
            var actions: [Action] = []
            var slow: [Action] = []
            var background: [Action] = []
            // While the server is grabbed, it serves the grabber alone: nobody else connects,
            // writes or has its connection's end carried out.
            let free = grabbedBy == nil
            let spawning = processes.count < schedule.processes
            if spawning && free { actions.append(.spawn) }
            for p in processes where p.isAlive && mayAct(p.index) {
                if isBusy(p.index) && !(schedule.joinFirst && spawning && p.conversation == nil) { actions.append(.step(p.index)) }
                // Toasts stay a while: others arrive, pauses begin and end while they show.
                if p.state == .showing && p.isIdle && (!schedule.joinFirst || !spawning) { slow.append(.finish(p.index)) }
                if schedule.faults && random.below(60) == 0 { actions.append(.kill(p.index)) }
            }
            if schedule.faults && grabbedBy == nil && random.below(40) == 0 { actions.append(.garbage) }
            if grabbedBy == nil && pauseChanges < maximumPauseChanges {
                // The last change ends it, so that everything can drain.
                let last = pauseChanges == maximumPauseChanges - 1
                let choices: [[UInt]?] = [nil, [0], [UInt(clock + 1 + random.below(4))]]
                background.append(.pause(last ? nil : random.pick(choices)))
            }
            if schedule.fullscreen && fullscreenChanges < 6 {
                // The last change ends it, so that everything can drain.
                background.append(.fullscreen(fullscreenChanges < 5 && random.below(2) == 0))
            }
            // A toast is drawn well within a passer's grace: the clock does not pass while one is
            // between its turn and its first frame.
            let drawing = processes.contains { $0.state == .showing && windows[$0.ticket]?.shown == nil }
            if schedule.pauses && !drawing && (paused != nil || processes.contains { $0.isAlive && $0.timer != nil }) {
                background.append(.tick)
            }
            if actions.isEmpty || random.below(4) == 0 { actions += slow }
            if actions.isEmpty || random.below(5) == 0 { actions += background }
            guard !actions.isEmpty else { break }
            let action = random.pick(actions)
            if case .step = action {
            } else {
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
                pauseChanges += 1
                setPause(value)
            case .tick: tick()
            case .fullscreen(let on):
                fullscreenChanges += 1
                setFullscreen(on)
            }
        }
        if fullscreen { throw failure("ended with the film playing") }
        if paused != nil { throw failure("ended paused") }
        try checkEnd()
    }
}
