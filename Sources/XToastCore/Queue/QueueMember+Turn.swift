/// Looking at the turn, standing aside, waiting, and telling the replaced (see `QueueMember`).
extension QueueMember {
    // MARK: Whose turn it is

    /// Looks at the queue (wall clock `now`, for the pause): whose turn it is, and whom to wait
    /// for. Ends with `.turn`.
    public mutating func lookAtTurn(now: Double) -> Step {
        var writes: [Write] = []
        // A held ticket is cleared before we look: a toast behind that reads it after this no
        // longer passes us, and one that read it before marked itself `through` first, which
        // the look behind finds. One that may be summarised says it is back.
        if ticket.pause == .held || ticket.pause == .aside { writes += mark(ticket.away == nil ? nil : .back) }
        if lists.contains(.stack) {
            // A stacked toast takes no turn: only a pause holds it.
            conversation = .readingPause(now: now, again: false)
            return Step(writes, .ask(.queueAndPause))
        }
        conversation = .looking(Look(now: now))
        return Step(writes, .ask(.queueAndPause))
    }

    /// A stacked toast's turn: at once, unless the toasts are paused and it does not go through.
    /// During a pause it listens for the pause to change before it reads it again, so that no
    /// change is missed; without one it listens to nothing (the root changes often).
    mutating func stackTurn(pause: Pause?, now: Double, again: Bool) -> Step {
        guard let pause, !goesThrough else {
            conversation = .none
            return Step([], .turn(.mine))
        }
        guard again || root == .hearsPause else {
            root = .hearsPause
            conversation = .readingPause(now: now, again: true)
            return Step([.listenToPause], .ask(.queueAndPause))
        }
        conversation = .none
        return Step([], .turn(.paused(until: pause.end)))
    }

    mutating func continueLooking(_ look: Look, _ answer: Answer) -> Step {
        var look = look
        switch (look.stage, answer) {
        case (.reading(let again), .queueAndPause(let queue, let values)):
            look.queue = queue
            look.pause = Pause.reading(values, now: look.now)
            if look.pause != nil && !again {
                let writes = prepareForPause()
                if !writes.isEmpty {
                    look.stage = .reading(again: true)
                    conversation = .looking(look)
                    return Step(writes, .ask(.queueAndPause))
                }
            }
            if !queue.contains(me) && queue.count >= TicketQueue.entryLimit {
                // We are past the part of the list anyone reads: dead entries go (garbage
                // written there by some client).
                return rewrite(Rewrite(list: .queue, appendingMe: true), then: .look(look))
            }
            return askAhead(look)
        case (.rereading, .list(let queue)):
            look.queue = queue
            guard queue.contains(me) else { return waitForFirst(in: queue) }
            return askAhead(look)
        case (.askingAhead(let chunk), .tickets(let found, let latest)):
            for (entry, ticket) in zip(chunk, found) { look.known[entry] = ticket }
            look.latest = latest
            look.asked += chunk.count
            look.batch *= 2
            return askAhead(look)
        case (.askingBehind(let behind, let decided), .facts(let found)):
            let known = Dictionary(zip(behind, found), uniquingKeysWith: { $1 })
            return passed(behind: behind, known: known, decided: decided, look)
        default: break
        }
        return unexpected(answer)
    }

    /// Decides with the tickets known, or asks for the next batch ahead: the nearest is usually
    /// alive, dead entries take a few batches that double. Each batch is asked after selecting
    /// its events, so that one that dies after the check still says so, and the queue is asked
    /// again with it, in the same round trip.
    mutating func askAhead(_ look: Look) -> Step {
        var look = look
        let ahead = QueueProtocol.ahead(of: me, in: look.queue)
        var needed = false
        let turn = QueueProtocol.turn(
            ahead: ahead, tag: ticket.tag, replacing: Set(replaces), pause: look.pause, through: goesThrough,
            passesAside: behind != .stoodAsideInPlace
        ) { entry in
            guard let known = look.known[entry] else {
                needed = true
                // Unknown stands for live and blocking: the rule asks no further.
                return Ticket(pid: 1, tag: nil)
            }
            return known
        }
        if needed, let ahead {
            let chunk = Array(ahead[look.asked..<min(look.asked + look.batch, ahead.count)])
            look.stage = .askingAhead(chunk)
            conversation = .looking(look)
            let listen = chunk.filter { $0 != watched }
            return Step(listen.isEmpty ? [] : [.listen(to: listen)], .ask(.tickets(chunk, thenQueue: true)))
        }
        // Bounded: each new look needs another client to have changed the queue meanwhile.
        if let latest = look.latest, look.attempt < Self.lookAttempts,
            !QueueProtocol.stillHolds(turn, ahead: ahead ?? [], latest: QueueProtocol.ahead(of: me, in: latest))
        {
            var again = Look(now: look.now)
            again.attempt = look.attempt + 1
            conversation = .looking(again)
            return Step([], .ask(.queueAndPause))
        }
        if case .mine = turn, ticket.pause != .through, (ahead ?? []).contains(where: { look.known[$0]??.pause == .aside }) {
            // Passing a toast that stands aside: marked before a second look, so that it finds
            // us when it comes back and looks behind itself (as a held toast does).
            var again = Look(now: look.now)
            again.attempt = look.attempt
            conversation = .looking(again)
            return Step(mark(.through), .ask(.queueAndPause))
        }
        if case .mine = turn, look.attempt < Self.lookAttempts, (ahead ?? []).contains(where: { look.known[$0] == .some(nil) }) {
            return clearAhead(look)
        }
        if case .mine = turn, checksBehind {
            let behind = QueueProtocol.behind(of: me, in: look.queue)
            if !behind.isEmpty {
                // Only a toast that stood aside asks: the normal path pays nothing.
                look.stage = .askingBehind(behind, decided: turn)
                conversation = .looking(look)
                let listen = behind.filter { $0 != watched }
                return Step(listen.isEmpty ? [] : [.listen(to: listen)], .ask(.facts(behind)))
            }
        }
        return decide(turn, look)
    }

    /// Our turn came with dead entries ahead (tickets of processes killed before they left the
    /// queue): they go before we show, under the grab, and we look again. Left there, one's id
    /// could go to a new client's ticket, ahead of ours on screen: a toast with that ticket's
    /// tag would take its place, ahead of ours, and show over it. Under the grab an entry read
    /// live stays: a new ticket that has its id already is ahead of us, and we wait for it.
    mutating func clearAhead(_ look: Look) -> Step {
        conversation = .clearingAhead(look, queue: nil)
        return Step([.grab], .ask(.list(.queue, limit: TicketQueue.rewriteLimit)))
    }

    mutating func continueClearingAhead(_ look: Look, queue: [UInt]?, _ answer: Answer) -> Step {
        switch (queue, answer) {
        case (nil, .list(let read)):
            let queue = TicketQueue.pruned(read, removing: [], limit: TicketQueue.rewriteLimit)
            let ahead = queue.firstIndex(of: me).map { Array(queue[..<$0]) } ?? []
            guard !ahead.isEmpty else { return lookAgain(after: look, [.ungrab]) }
            conversation = .clearingAhead(look, queue: queue)
            return Step([], .ask(.tickets(ahead, thenQueue: false)))
        case (let queue?, .tickets(let found, _)):
            let dead = Set(zip(queue, found).compactMap { $1 == nil ? $0 : nil })
            return lookAgain(after: look, [.write(.queue, queue.filter { !dead.contains($0) }), .ungrab])
        default: return unexpected(answer)
        }
    }

    /// A new look (one more attempt) after `writes`.
    mutating func lookAgain(after look: Look, _ writes: [Write]) -> Step {
        var again = Look(now: look.now)
        again.attempt = look.attempt + 1
        conversation = .looking(again)
        return Step(writes, .ask(.queueAndPause))
    }

    /// Before showing after standing aside: the first ticket behind that passed us (marked
    /// `through`) shows first. One on screen is waited for until it ends; one that is not yet is
    /// waited for until it is drawn, at most `passerGrace` from when we first found it so: a
    /// ticket that says it goes through and never shows (another client's forgery) holds nobody.
    mutating func passed(behind: [UInt], known: [UInt: Facts], decided: QueueProtocol.Turn, _ look: Look) -> Step {
        conversation = .none
        for entry in behind where known[entry]?.ticket?.pause == .through {
            if known[entry]?.shown != nil { return Step([], .turn(.waitFor(entry))) }
            let seen = passersSeen[entry] ?? look.now
            passersSeen[entry] = seen
            let end = seen + QueueProtocol.passerGrace
            if look.now < end { return Step([], .turn(.waitForPasser(entry, until: Int(end.rounded(.up))))) }
        }
        if case .mine = decided, ticket.pause == .back, let away = ticket.away {
            let others = QueueProtocol.returners(behind: behind) { known[$0]?.ticket }
            if !others.isEmpty { return decide(.mineBack(with: [QueueProtocol.Returner(ticket: me, away: away)] + others), look) }
        }
        return decide(decided, look)
    }

    /// All of the queue that anyone reads is alive, and we are past it: wait for its first.
    mutating func waitForFirst(in queue: [UInt]) -> Step {
        conversation = .none
        return Step([], .turn(queue.first.map { .waitFor($0) } ?? .missing))
    }

    mutating func decide(_ turn: QueueProtocol.Turn, _ look: Look) -> Step {
        conversation = .none
        var writes: [Write] = []
        // Not about to show: a held toast that looks behind need not wait for us.
        if case .waitFor = turn, ticket.pause == .through { writes += mark(nil) }
        return Step(writes, .turn(turn))
    }

    // MARK: Pauses

    /// Before a look during a pause: listen for the pause to change (before it is read again,
    /// so that no change is missed) or, going through it, say so before looking.
    mutating func prepareForPause() -> [Write] {
        var writes: [Write] = []
        if !goesThrough && root == .deaf {
            root = .hearsPause
            writes.append(.listenToPause)
        }
        if goesThrough && ticket.pause != .through { writes += mark(.through) }
        return writes
    }

    /// Stands aside for a pause: the ticket is marked held, so that toasts behind may pass it
    /// while the pause lasts; before it shows, it looks behind itself.
    public mutating func standAside() -> [Write] {
        behind = max(behind, .mayBePassed)
        return ticket.pause == .held ? [] : mark(.held)
    }

    /// Stands aside in its place, for a fullscreen window (`--fullscreen delay`) or a locked
    /// screen: the ticket is marked `aside` (a touch: whoever waits for us looks again and passes
    /// us); `lookAtTurn` clears the mark once the window has gone, and the toast looks behind itself before it
    /// shows, as one that held for a pause does.
    public mutating func standAsideInPlace() -> [Write] {
        behind = .stoodAsideInPlace
        return ticket.pause == .aside ? [] : mark(.aside)
    }

    mutating func mark(_ mark: Ticket.PauseMark?) -> [Write] {
        ticket.pause = mark
        return [.ticket(ticket)]
    }

    // MARK: Waiting

    /// Waits for `entry` to go (its end, even by SIGKILL, comes as a DestroyNotify). A new
    /// choice is announced by touching our ticket: whoever waits for us looks again, so that
    /// waits never go round in a circle after some client reordered the queue.
    ///
    /// The ticket is asked about again once its events are ours: the look selected them before
    /// reading it, but a selection on a window that had ended is lost, and the server may have
    /// given its id to a new client's ticket by the time it was read. Ends with `.done`, or,
    /// when it is gone, with a new look's `.turn` (wall clock `now`).
    public mutating func watch(_ entry: UInt, now: Double) -> Step {
        guard entry != watched else { return Step([], .done) }
        var writes: [Write] = watched.map { [.stopListening(to: $0)] } ?? []
        writes += [.listen(to: [entry]), .ticket(ticket)]
        watched = entry
        conversation = .checkingWatch(now: now)
        return Step(writes, .ask(.tickets([entry], thenQueue: false)))
    }

    /// The ticket we waited for ended: our selection went with it, and the server may give its
    /// id to a new client's ticket, so the next look selects afresh, even on the same id.
    public mutating func watchedEnded() { watched = nil }

    // MARK: Shown

    /// Publishes where our toast is, and its bar, once it is drawn, and tells the ones we
    /// replaced to go.
    public mutating func announceShown(_ shown: Shown) -> Step {
        var step = tellReplaced(then: .done)
        step.writes.insert(.shown(shown), at: 0)
        return step
    }

    /// Sends `replaced` to the tickets we took the place of that are still theirs: a dead
    /// ticket's id may have gone to a new, unrelated ticket, so the tag must match.
    /// Read and sent under the grab: no new client can take a dead one's id in between.
    mutating func tellReplaced(then after: AfterTelling) -> Step {
        let told = replaces
        replaces = []
        guard !told.isEmpty else { return toldReplaced(then: after) }
        conversation = .telling(told, .replaced, then: after)
        return Step([.grab], .ask(.tickets(told, thenQueue: false)))
    }

    /// Tells the toasts that came back with ours (`QueueProtocol.Turn.mineBack`) that ours
    /// shows their summary: each ends `summarised`. Checked under the grab as `replaced` is: only
    /// a ticket that still says it came back (or still stands aside) with an `away=` name.
    public mutating func summarise(_ others: [UInt]) -> Step {
        guard !others.isEmpty else { return Step([], .done) }
        conversation = .telling(others, .summarised, then: .done)
        return Step([.grab], .ask(.tickets(others, thenQueue: false)))
    }

    /// Whether `found`, a ticket to be told `command`, is still the one meant.
    func isStillMeant(_ found: Ticket?, by command: RemoteCommand) -> Bool {
        guard let found else { return false }
        switch command {
        case .summarised: return found.mayBeSummarised
        default: return found.tag == ticket.tag
        }
    }

    mutating func toldReplaced(then after: AfterTelling) -> Step {
        conversation = .none
        switch after {
        case .done: return Step([], .done)
        case .leaving: return leaveLists(List.allCases.filter(lists.contains))
        }
    }
}
