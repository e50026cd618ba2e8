import Testing

@testable import XToastCore

/// Many xtoast processes on a fake X server, each following `QueueProtocol` as the X side does
/// (README "Protocol"), under seeded random interleavings with kills, ids reused by new clients
/// and dead ids written into the queue by another client. The rules are checked as invariants.
@Suite("Queue protocol, simulated")
struct QueueSimulationTests {
    @Test("Thousands of random schedules keep every rule", arguments: 0..<40)
    func randomSchedules(seed: UInt64) throws {
        for round in 0..<50 {
            var simulation = Simulation(seed: seed * 1000 + UInt64(round), processes: 12)
            try simulation.run()
        }
    }

    @Test("The work of waiting does not grow with the queue")
    func boundedWork() throws {
        func looksPerToast(_ count: Int) throws -> Double {
            var simulation = Simulation(seed: 7, processes: count, faults: false)
            try simulation.run()
            return Double(simulation.looks) / Double(count)
        }
        let small = try looksPerToast(20)
        let large = try looksPerToast(400)
        #expect(large <= 1.5 * small, "\(small) looks a toast with 20 waiting, \(large) with 400")
    }
}

struct SimulationFailure: Error, CustomStringConvertible {
    var description: String
}

extension Simulation {
    func failure(_ what: String) -> SimulationFailure {
        SimulationFailure(description: what + "\n" + trace.joined(separator: "\n"))
    }
}

struct Simulation {
    enum State: Equatable {
        case new, waiting, showing, done, killed
    }

    struct Process {
        let index: Int
        let tag: String?
        var ticket: UInt = 0
        var state = State.new
        /// An event arrived (its ticket ahead ended or was touched): look at the queue again.
        var woken = false
        /// `replaced` was sent to it.
        var replacedBy: String??
        var watching: UInt?
        /// Tickets it took the place of, to tell once it shows.
        var replaces: [UInt] = []
        var shown = false

        var isAlive: Bool { state == .waiting || state == .showing }
    }

    var random: SplitMix64
    let total: Int
    let faults: Bool
    var processes: [Process] = []
    /// The root's `_XTOAST_QUEUE` as written, dead entries and all.
    var queue: [UInt] = []
    /// The live ticket windows and their owners.
    var owners: [UInt: Int] = [:]
    var watchers: [UInt: Set<Int>] = [:]
    /// Ids the server has taken back, given again to new clients.
    var freed: [UInt] = []
    var nextID: UInt = 0x20_0000
    /// The order in which untagged toasts that nobody killed began to show.
    var showOrder: [Int] = []
    var looks = 0
    /// The last steps, for the message of a failure.
    var trace: [String] = []

    init(seed: UInt64, processes: Int, faults: Bool = true) {
        random = SplitMix64(state: seed)
        total = processes
        self.faults = faults
        let tags: [String?] = faults ? [nil, nil, "vol", "vol", "other"] : [nil]
        for index in 0..<processes {
            self.processes.append(Process(index: index, tag: random.pick(tags)))
        }
    }

    func ticket(_ id: UInt) -> Ticket? {
        owners[id].map { Ticket(pid: $0, tag: processes[$0].tag) }
    }

    /// What a process reads: the list as `readList` gives it.
    var readQueue: [UInt] { TicketQueue.pruned(queue, removing: []) }

    enum Action {
        case start(Int), look(Int), finish(Int), kill(Int), garbage
    }

    mutating func run() throws {
        var started = 0
        var steps = 0
        while true {
            steps += 1
            guard steps < 200_000 else { throw failure("no end after \(steps) steps") }
            var actions: [Action] = []
            if started < total { actions.append(.start(started)) }
            // Without faults, everyone joins first: then a long queue drains.
            if faults || started == total {
                actions += processes.filter { $0.isAlive && ($0.woken || $0.replacedBy != nil) }.map { .look($0.index) }
                actions += processes.filter { $0.state == .showing }.map { .finish($0.index) }
            }
            if faults {
                for p in processes where (p.state == .waiting || p.state == .showing) && random.next() % 40 == 0 {
                    actions.append(.kill(p.index))
                }
                if random.next() % 30 == 0 { actions.append(.garbage) }
            }
            guard !actions.isEmpty else { break }
            let action = random.pick(actions)
            trace.append("\(action) queue \(queue.map { owners[$0].map(String.init) ?? "x" })")
            if trace.count > 40 { trace.removeFirst() }
            switch action {
            case .start(let index):
                started += 1
                start(index)
            case .look(let index): try look(index)
            case .finish(let index): leave(index, outcome: .done)
            case .kill(let index): kill(index)
            case .garbage:
                // Another client appends ids that name nothing.
                queue += (0..<Int(random.next() % 4)).map { _ in UInt(0x7f00_0000 + random.next() % 100) }
            }
        }
        try checkEnd()
    }

    /// Spawns a process: its ticket, possibly on an id a dead client had, joins the queue.
    mutating func start(_ index: Int) {
        let id: UInt
        if !freed.isEmpty && random.next() % 2 == 0 {
            id = freed.removeLast()
        } else {
            id = nextID
            nextID += 0x20_0000
        }
        processes[index].ticket = id
        owners[id] = index
        processes[index].state = .waiting
        if processes[index].tag == nil {
            queue.append(id)  // PropModeAppend
        } else {
            // Under the server grab: read, place, tell the ones not on screen, write.
            let plan = QueueProtocol.placement(
                of: id, tag: processes[index].tag, in: readQueue, ticket: ticket,
                isShown: { self.owners[$0].map { self.processes[$0].state == .showing } ?? false },
                inherited: { old in
                    self.owners[old].map { self.processes[$0].replaces } ?? []
                })
            processes[index].replaces = plan.replaces
            for old in plan.replaces {
                guard let owner = owners[old] else { continue }
                if processes[owner].state != .showing { processes[owner].replacedBy = processes[index].tag }
            }
            queue = plan.queue
        }
        processes[index].woken = true
    }

    mutating func look(_ index: Int) throws {
        processes[index].woken = false
        if processes[index].replacedBy != nil {
            // A command reaches a process before any queue change that followed it.
            leave(index, outcome: .done)
            return
        }
        guard processes[index].state == .waiting else { return }
        looks += 1
        let me = processes[index].ticket
        let replacing = Set(processes[index].replaces)
        let turn = QueueProtocol.turn(
            ahead: QueueProtocol.ahead(of: me, in: readQueue), tag: processes[index].tag, replacing: replacing, ticket: ticket)
        switch turn {
        case .mine:
            // One we replace may still be on screen, and so may one that was told to go.
            let retiring = Set(processes[index].replaces)
            for other in processes where other.state == .showing && !retiring.contains(other.ticket) && other.replacedBy == nil {
                throw failure("\(other.index) and \(index) show at once; queue \(readQueue)")
            }
            processes[index].state = .showing
            processes[index].shown = true
            if processes[index].tag == nil { showOrder.append(index) }
            for old in processes[index].replaces {
                guard let owner = owners[old], processes[owner].tag == processes[index].tag else { continue }
                processes[owner].replacedBy = processes[index].tag
            }
            processes[index].replaces = []
        case .missing:
            throw failure("\(index) went missing from \(readQueue) without anyone rewriting it")
        case .paused:
            throw failure("\(index) stood aside without a pause")
        case .waitFor(let ahead):
            if processes[index].watching != ahead {
                if let old = processes[index].watching { watchers[old]?.remove(index) }
                watchers[ahead, default: []].insert(index)
                processes[index].watching = ahead
                wake(watchersOf: me)  // the touch
            }
        }
    }

    /// Removes its ticket from the queue (with the dead entries), then destroys it.
    mutating func leave(_ index: Int, outcome: State) {
        let me = processes[index].ticket
        let dead = Set(queue.filter { owners[$0] == nil })
        queue = TicketQueue.pruned(queue, removing: dead.union([me]), limit: TicketQueue.rewriteLimit)
        destroy(index, as: outcome)
    }

    mutating func kill(_ index: Int) { destroy(index, as: .killed) }

    mutating func destroy(_ index: Int, as state: State) {
        let me = processes[index].ticket
        processes[index].state = state
        processes[index].woken = false
        owners[me] = nil
        if let old = processes[index].watching { watchers[old]?.remove(index) }
        wake(watchersOf: me)  // DestroyNotify
        // Their selection went with the window: a new client may get its id.
        for index in watchers[me] ?? [] where processes[index].watching == me { processes[index].watching = nil }
        watchers[me] = nil
        freed.append(me)
    }

    mutating func wake(watchersOf window: UInt) {
        for index in watchers[window] ?? [] where owners[processes[index].ticket] != nil { processes[index].woken = true }
    }

    func checkEnd() throws {
        for p in processes {
            if p.state == .waiting || p.state == .showing || p.state == .new {
                throw failure("process \(p.index) still \(p.state): wedged; queue \(readQueue)")
            }
            if case .some(let tag) = p.replacedBy, tag != p.tag {
                throw SimulationFailure(
                    description: "process \(p.index) (tag \(String(describing: p.tag))) told replaced by \(String(describing: tag))")
            }
            if p.state == .done && p.replacedBy == nil && !p.shown {
                throw failure("process \(p.index) ended without showing or being replaced")
            }
        }
        // Untagged toasts nobody killed show in the order they started.
        let survivors = showOrder.filter { processes[$0].state != .killed }
        if survivors != survivors.sorted() { throw failure("shown out of order: \(survivors)") }
    }
}
