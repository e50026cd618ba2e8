import Testing

@testable import XToastCore

/// Do not disturb against the queue protocol: many processes on a fake X server, each looking
/// at the queue as `Coordinator.turn` does, one server request a step, so that another client
/// can act between any two of its requests: the pause set, changed, ended by its clock or by
/// `--resume`; urgent toasts that go through it; tags, kills and reused ids. Checked: never
/// two queued toasts on screen at once, toasts that are not urgent shown in start order,
/// nothing lost or wedged.
@Suite("Pauses, simulated")
struct PauseSimulationTests {
    @Test("Thousands of random schedules with pauses keep every rule", arguments: 0..<40)
    func randomSchedules(seed: UInt64) throws {
        for round in 0..<60 {
            var simulation = PauseSimulation(seed: seed * 1000 + UInt64(round), processes: 10)
            try simulation.run()
        }
    }

    @Test("Random schedules without faults: pauses alone")
    func withoutFaults() throws {
        for seed in 0..<400 {
            var simulation = PauseSimulation(seed: 90_000 + UInt64(seed), processes: 8, faults: false)
            try simulation.run()
        }
    }

    @Test("Paused: the queue stands aside, an urgent toast shows, the rest follow in order after the pause")
    func scenario() throws {
        var simulation = PauseSimulation(seed: 1, processes: 0, faults: false)
        simulation.setPause([0])
        let held = (0..<3).map { _ in simulation.spawn(tag: nil, urgent: false) }
        try simulation.settle()
        #expect(held.allSatisfy { simulation.processes[$0].mark == .held })
        #expect(simulation.processes.allSatisfy { $0.state == .waiting })

        let urgent = simulation.spawn(tag: nil, urgent: true)
        try simulation.settle()
        #expect(simulation.processes[urgent].state == .showing)
        #expect(simulation.processes[urgent].mark == .through)

        simulation.setPause(nil)
        try simulation.settle()
        // The head waits for the urgent one, which it let pass.
        #expect(held.allSatisfy { simulation.processes[$0].state == .waiting })
        simulation.finish(urgent)
        for index in held {
            try simulation.settle()
            #expect(simulation.processes.filter { $0.state == .showing }.map(\.index) == [index])
            simulation.finish(index)
        }
        #expect(simulation.showOrder == held)
    }

    @Test("A toast that stood aside and then showed is not passed when a new pause begins")
    func pausedAgain() throws {
        var simulation = PauseSimulation(seed: 4, processes: 0, faults: false)
        simulation.setPause([0])
        let first = simulation.spawn(tag: nil, urgent: false)
        try simulation.settle()
        simulation.setPause(nil)
        try simulation.settle()
        #expect(simulation.processes[first].state == .showing)
        #expect(simulation.processes[first].mark == nil)
        simulation.setPause([0])
        let urgent = simulation.spawn(tag: nil, urgent: true)
        try simulation.settle()
        #expect(simulation.processes[urgent].state == .waiting)
        simulation.finish(first)
        try simulation.settle()
        #expect(simulation.processes[urgent].state == .showing)
    }

    @Test("A timed pause ends by its clock, with nobody told")
    func timedPause() throws {
        var simulation = PauseSimulation(seed: 2, processes: 0, faults: false)
        simulation.setPause([UInt(simulation.clock + 3)])
        let toast = simulation.spawn(tag: nil, urgent: false)
        try simulation.settle()
        #expect(simulation.processes[toast].state == .waiting)
        simulation.tick()
        simulation.tick()
        try simulation.settle()
        #expect(simulation.processes[toast].state == .waiting)
        simulation.tick()
        try simulation.settle()
        #expect(simulation.processes[toast].state == .showing)
    }

    @Test("Garbage in _XTOAST_PAUSED pauses nothing")
    func garbage() throws {
        for value: [UInt]? in [[1, 2], [], [UInt(UInt32.max) + 5], [UInt(1_000_000 + 400 * 86_400)], [999_999]] {
            var simulation = PauseSimulation(seed: 3, processes: 0, faults: false)
            simulation.setPause(value)
            let toast = simulation.spawn(tag: nil, urgent: false)
            try simulation.settle()
            #expect(simulation.processes[toast].state == .showing, "\(String(describing: value))")
        }
    }
}

struct PauseSimulation {
    enum State: Equatable {
        case new, waiting, showing, done, killed
    }

    /// A look at the queue in progress, as far as its requests have gone.
    struct Look {
        enum Stage { case pause, queue, tickets, validate }
        var stage = Stage.pause
        var pause: Pause?
        var queue: [UInt] = []
        var preparedForPause = false
        var known: [UInt: Ticket?] = [:]
        /// The queue as the last batch of tickets read it again.
        var latestQueue: [UInt]?
    }

    struct Process {
        let index: Int
        let tag: String?
        let urgent: Bool
        var inheritedThrough = false
        var through: Bool { urgent || inheritedThrough }
        var ticket: UInt = 0
        var state = State.new
        var mark: Ticket.PauseMark?
        var woken = false
        var replacedBy: String??
        var watching: UInt?
        /// Windows whose events reach it, and those that sent one since its look began.
        var selected: Set<UInt> = []
        var heard: Set<UInt> = []
        var replaces: [UInt] = []
        var shown = false
        var listens = false
        var holding = false
        /// A change of the pause (or its timer) reached it: acted on once its look is over,
        /// and only while it stands aside, as the session does with `.pauseChanged`.
        var pauseEvent = false
        var checksBehind = false
        var timer: Int?
        var look: Look?

        var isAlive: Bool { state == .waiting || state == .showing }
    }

    var random: SplitMix64
    let total: Int
    let faults: Bool
    var processes: [Process] = []
    var queue: [UInt] = []
    var owners: [UInt: Int] = [:]
    var freed: [UInt] = []
    var nextID: UInt = 0x20_0000
    /// The root's `_XTOAST_PAUSED` (nil: absent) and the wall clock, in whole seconds.
    var pauseValue: [UInt]?
    var clock = 1_000_000
    var pauseChanges = 0
    var showOrder: [Int] = []
    var trace: [String] = []

    init(seed: UInt64, processes: Int, faults: Bool = true) {
        random = SplitMix64(state: seed)
        total = processes
        self.faults = faults
    }

    func failure(_ what: String) -> SimulationFailure {
        SimulationFailure(description: what + "\n" + trace.joined(separator: "\n"))
    }

    func ticket(_ id: UInt) -> Ticket? {
        owners[id].map { Ticket(pid: $0 + 1, tag: processes[$0].tag, pause: processes[$0].mark) }
    }

    var readQueue: [UInt] { TicketQueue.pruned(queue, removing: []) }

    var paused: Pause? { Pause.reading(pauseValue, now: Double(clock)) }

    enum Action {
        case start, step(Int), look(Int), finish(Int), kill(Int), garbage, pause([UInt]?), tick
    }

    mutating func run() throws {
        var steps = 0
        while true {
            steps += 1
            guard steps < 300_000 else { throw failure("no end after \(steps) steps") }
            var actions: [Action] = []
            var background: [Action] = []
            var slow: [Action] = []
            if processes.count < total { actions.append(.start) }
            for p in processes where p.isAlive {
                if p.look != nil {
                    actions.append(.step(p.index))
                } else if p.woken || p.replacedBy != nil {
                    actions.append(.look(p.index))
                }
                // Toasts stay a while: pauses begin and urgent toasts arrive while they show.
                if p.state == .showing && p.look == nil { slow.append(.finish(p.index)) }
                if faults && random.below(60) == 0 { actions.append(.kill(p.index)) }
            }
            if faults && random.below(40) == 0 { actions.append(.garbage) }
            let maximumChanges = faults ? 6 : 4
            if pauseChanges < maximumChanges {
                // The last change ends it, so that everything can drain.
                let last = pauseChanges == maximumChanges - 1
                let choices: [[UInt]?] = [nil, [0], [UInt(clock + 1 + random.below(4))]]
                background.append(.pause(last ? nil : random.pick(choices)))
            }
            if clock < 1_000_040 || paused != nil || processes.contains(where: { $0.timer != nil }) { background.append(.tick) }
            if actions.isEmpty || random.below(4) == 0 { actions += slow }
            if actions.isEmpty || random.below(5) == 0 { actions += background }
            guard !actions.isEmpty else { break }
            let action = random.pick(actions)
            trace.append(
                "\(action) clock \(clock) paused \(String(describing: pauseValue)) queue \(queue.map { owners[$0].map(String.init) ?? "x" })"
            )
            if trace.count > 400 { trace.removeFirst() }
            switch action {
            case .start:
                let tags: [String?] = faults ? [nil, nil, nil, "vol", "vol", "other"] : [nil, nil, "vol"]
                spawn(tag: random.pick(tags), urgent: random.below(4) == 0)
            case .step(let index): try step(index)
            case .look(let index): try beginLook(index)
            case .finish(let index): finish(index)
            case .kill(let index): destroy(index, as: .killed)
            case .garbage: queue += (0..<random.below(4)).map { _ in UInt(0x7f00_0000 + random.below(100)) }
            case .pause(let value):
                pauseChanges += 1
                setPause(value)
            case .tick: tick()
            }
        }
        if paused != nil { throw failure("ended paused") }
        try checkEnd()
    }

    // MARK: The world

    mutating func setPause(_ value: [UInt]?) {
        pauseValue = value
        // PropertyNotify on the root, for those that listen.
        for index in processes.indices where processes[index].isAlive && processes[index].listens {
            processes[index].pauseEvent = true
            deliverPauseEvent(index)
        }
    }

    mutating func tick() {
        clock += 1
        for index in processes.indices {
            guard let timer = processes[index].timer, timer <= clock else { continue }
            processes[index].timer = nil
            guard processes[index].isAlive else { continue }
            processes[index].pauseEvent = true
            deliverPauseEvent(index)
        }
    }

    /// Events wait while a look runs (it reads replies, the events queue up behind them).
    mutating func deliverPauseEvent(_ index: Int) {
        guard processes[index].look == nil, processes[index].pauseEvent else { return }
        processes[index].pauseEvent = false
        if processes[index].holding { processes[index].woken = true }
    }

    /// Runs every process until nobody has anything to do (no faults, no pause changes).
    mutating func settle() throws {
        var steps = 0
        while let p = processes.first(where: { $0.isAlive && ($0.look != nil || $0.woken || $0.replacedBy != nil) }) {
            steps += 1
            guard steps < 10_000 else { throw failure("does not settle") }
            if p.look != nil { try step(p.index) } else { try beginLook(p.index) }
        }
    }

    /// Starts a process: its ticket joins the queue (a tagged one under the grab).
    @discardableResult
    mutating func spawn(tag: String?, urgent: Bool) -> Int {
        let index = processes.count
        processes.append(Process(index: index, tag: tag, urgent: urgent))
        let id: UInt
        if !freed.isEmpty && random.below(2) == 0 {
            id = freed.removeLast()
        } else {
            id = nextID
            nextID += 0x20_0000
        }
        processes[index].ticket = id
        owners[id] = index
        processes[index].state = .waiting
        if tag == nil {
            queue.append(id)
        } else {
            let plan = QueueProtocol.placement(
                of: id, tag: tag, in: readQueue, ticket: ticket,
                isShown: { self.owners[$0].map { self.processes[$0].state == .showing } ?? false },
                inherited: { old in self.owners[old].map { self.processes[$0].replaces } ?? [] })
            processes[index].replaces = plan.replaces
            processes[index].checksBehind = plan.checksBehind
            if plan.inheritsThrough {
                processes[index].inheritedThrough = true
                processes[index].mark = .through
            }
            for old in plan.replaces {
                guard let owner = owners[old] else { continue }
                if processes[owner].state != .showing { processes[owner].replacedBy = tag }
            }
            queue = plan.queue
        }
        processes[index].woken = true
        return index
    }

    /// A ticket written (a touch, a mark): whoever selected it hears it.
    mutating func touch(_ window: UInt) {
        for index in processes.indices where processes[index].isAlive && processes[index].selected.contains(window) {
            processes[index].heard.insert(window)
            // Mid-look, the event is looked at after the decision (see `decide`).
            if processes[index].watching == window && processes[index].look == nil { processes[index].woken = true }
        }
    }

    mutating func mark(_ index: Int, _ mark: Ticket.PauseMark?) {
        processes[index].mark = mark
        touch(processes[index].ticket)
    }

    // MARK: A process

    mutating func beginLook(_ index: Int) throws {
        processes[index].woken = false
        if processes[index].replacedBy != nil {
            // A command reaches a process before any queue change that followed it.
            finish(index)
            return
        }
        guard processes[index].state == .waiting else { return }
        processes[index].heard = []
        processes[index].look = Look()
        // Its first request: a held mark is cleared before anything is read.
        if processes[index].mark == .held { mark(index, nil) }
    }

    /// One request of a look, then the decision once nothing more is to be asked.
    mutating func step(_ index: Int) throws {
        guard var look = processes[index].look else { return }
        if processes[index].replacedBy != nil {
            processes[index].look = nil
            finish(index)
            return
        }
        let me = processes[index].ticket
        switch look.stage {
        case .pause:
            look.pause = paused
            look.stage = .queue
        case .queue:
            look.queue = readQueue
            look.stage = .tickets
            if look.pause != nil && !look.preparedForPause {
                look.preparedForPause = true
                var again = false
                if !processes[index].through && !processes[index].listens {
                    processes[index].listens = true
                    again = true
                }
                if processes[index].through && processes[index].mark != .through {
                    mark(index, .through)
                    again = true
                }
                if again { look.stage = .pause }
            }
        case .validate:
            // A toast with a tag may have gone ahead of us since the queue was read (behind a
            // shown one with its tag that has ended since): then look again from the start.
            look.latestQueue = readQueue
            look.stage = .tickets
        case .tickets:
            guard let ahead = QueueProtocol.ahead(of: me, in: look.queue) else {
                throw failure("\(index) went missing from \(look.queue) without anyone rewriting it")
            }
            // Asked one at a time, nearest first, each after selecting its events: an entry not
            // asked yet stands for a live ticket that blocks, so the rule asks for it next.
            var unknown: UInt?
            let answer = { (entry: UInt) -> Ticket? in
                if let known = look.known[entry] { return known }
                unknown = unknown ?? entry
                return Ticket(pid: 1, tag: "\u{1}unknown")
            }
            var turn = QueueProtocol.turn(
                ahead: ahead, tag: processes[index].tag, replacing: Set(processes[index].replaces), pause: look.pause,
                through: processes[index].through, ticket: answer)
            let decided = turn
            if case .mine = turn, processes[index].checksBehind {
                let behind = QueueProtocol.behind(of: me, in: look.queue)
                if let passer = QueueProtocol.firstThrough(behind: behind, ticket: answer) {
                    turn = .waitFor(passer)
                }
            }
            if let entry = unknown {
                processes[index].selected.insert(entry)
                look.known[entry] = ticket(entry)
                // The queue is asked again with every batch of tickets, after them.
                look.stage = .validate
                processes[index].look = look
                return
            }
            if let latest = look.latestQueue,
                !QueueProtocol.stillHolds(decided, ahead: ahead, latest: QueueProtocol.ahead(of: me, in: latest))
            {
                processes[index].look = Look()
                return
            }
            processes[index].look = nil
            try decide(index, turn)
            deliverPauseEvent(index)
            return
        }
        processes[index].look = look
    }

    mutating func decide(_ index: Int, _ turn: QueueProtocol.Turn) throws {
        trace.append(
            "  \(index) decides \(turn) (tag \(String(describing: processes[index].tag)) urgent \(processes[index].urgent) ticket \(processes[index].ticket) replaces \(processes[index].replaces))"
        )
        processes[index].holding = false
        switch turn {
        case .mine:
            let retiring = Set(processes[index].replaces)
            for other in processes where other.state == .showing && !retiring.contains(other.ticket) && other.replacedBy == nil {
                throw failure("\(other.index) and \(index) show at once; queue \(readQueue)")
            }
            processes[index].state = .showing
            processes[index].shown = true
            if processes[index].tag == nil && !processes[index].urgent { showOrder.append(index) }
            for old in processes[index].replaces {
                guard let owner = owners[old], processes[owner].tag == processes[index].tag else { continue }
                processes[owner].replacedBy = processes[index].tag
            }
            processes[index].replaces = []
        case .missing:
            throw failure("\(index) missing")
        case .waitFor(let ahead):
            if processes[index].mark == .through { mark(index, nil) }
            if processes[index].watching != ahead {
                processes[index].watching = ahead
                touch(processes[index].ticket)
            }
            if processes[index].heard.contains(ahead) || owners[ahead] == nil { processes[index].woken = true }
        case .paused(let until):
            if processes[index].through { throw failure("urgent \(index) stood aside") }
            processes[index].holding = true
            processes[index].checksBehind = true
            if processes[index].mark != .held { mark(index, .held) }
            processes[index].timer = until
            if let until, until <= clock { processes[index].woken = true }
        }
    }

    /// Its windows go, then it leaves the queue (with the dead entries), then its ticket goes.
    mutating func finish(_ index: Int) {
        let me = processes[index].ticket
        let dead = Set(queue.filter { owners[$0] == nil })
        queue = TicketQueue.pruned(queue, removing: dead.union([me]), limit: TicketQueue.rewriteLimit)
        destroy(index, as: .done)
    }

    mutating func destroy(_ index: Int, as state: State) {
        let me = processes[index].ticket
        processes[index].state = state
        processes[index].look = nil
        processes[index].woken = false
        processes[index].holding = false
        owners[me] = nil
        for other in processes.indices where processes[other].isAlive && processes[other].selected.contains(me) {
            processes[other].heard.insert(me)
            processes[other].selected.remove(me)
            if processes[other].watching == me && processes[other].look == nil {
                processes[other].woken = true
                processes[other].watching = nil
            }
        }
        freed.append(me)
    }

    func checkEnd() throws {
        for p in processes {
            if p.state == .waiting || p.state == .showing || p.state == .new {
                throw failure("process \(p.index) still \(p.state) (mark \(String(describing: p.mark))): wedged; queue \(readQueue)")
            }
            if case .some(let tag) = p.replacedBy, tag != p.tag {
                throw failure("process \(p.index) (tag \(String(describing: p.tag))) told replaced by \(String(describing: tag))")
            }
            if p.state == .done && p.replacedBy == nil && !p.shown {
                throw failure("process \(p.index) ended without showing or being replaced")
            }
        }
        let survivors = showOrder.filter { processes[$0].state != .killed }
        if survivors != survivors.sorted() { throw failure("shown out of order: \(survivors)") }
    }
}
