@testable import XToastCore

/// Seeded random schedules for `QueueWorld`: processes started, stepped, ended and killed, and
/// the facts (the pause, a film, the lock) changed, in an order the seed picks.
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
        /// Untagged toasts that are not urgent may be summarised after quiet (an `away=` name).
        var away = false
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
            let urgent = schedule.pauses && random.below(4) == 0
            let away = schedule.away && tag == nil && !urgent ? ["Signal", "Mail"][random.below(2)] : nil
            spawn(tag: tag, urgent: urgent, delays: schedule.fullscreen && tag == nil, away: away)
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
