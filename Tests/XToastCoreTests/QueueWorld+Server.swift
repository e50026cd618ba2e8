@testable import XToastCore

/// The fake server's side of `QueueWorld`: requests carried out, questions answered, events
/// sent to whoever selected them; and the checks.
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

    /// A toast that ended as a line of a summary after quiet: it had a name for one, and either
    /// showed the summary itself or was told by one that did, which counted it.
    func checkSummarised(_ p: Process) throws {
        guard p.member.ticket.away != nil else { throw failure("process \(p.index) summarised without an away name") }
        if p.session.summary != nil {
            guard p.shown || p.state == .killed || p.state == .done else { throw failure("summary \(p.index) never shown") }
            return
        }
        let teller = processes.first { $0.summarised.contains(p.ticket) && $0.session.summary != nil }
        guard let teller else { throw failure("process \(p.index) summarised, told by no summary") }
        if teller.session.summary!.count < teller.summarised.count + 1 {
            throw failure("summary \(teller.index) counts \(teller.session.summary!.count) for \(teller.summarised.count + 1)")
        }
        if p.shown { throw failure("process \(p.index) summarised after it showed") }
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
            if case .summarised = p.session.outcome {
                try checkSummarised(p)
            } else if p.state == .done && p.replacedBy == nil && !p.shown {
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
