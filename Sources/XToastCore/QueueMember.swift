/// One xtoast process's part in the queue (docs/protocol.md), as a machine without I/O: it
/// joins, looks at the turn, stands aside for a pause, leaves, and tells the toasts it replaced.
///
/// Each conversation with the server is a run of `Step`s: a step is the writes to send (nothing
/// waited for) and then, at most, one `Question`, answered by one batch of requests. The store
/// on the X side (`Coordinator`) carries the writes out and calls `answer(_:)` with what the
/// server said; a fake server in the tests does the same, one request at a time, so that other
/// clients can act between any two of them. The rules themselves are `QueueProtocol`'s.
///
/// ```
///  join ─▶ (tagged: read queue ─▶ facts ─▶ grab, read again ─▶ write or retry) ─▶ done
///  lookAtTurn ─▶ clear held ─▶ queue+pause ─┬▶ (paused: listen or mark through, read again)
///                                           ├▶ (overflow: rewrite with us, read again)
///                                           └▶ tickets ahead, in doubling batches, queue again
///                                              ─▶ still holds? ─▶ (mine after standing aside:
///                                              look behind) ─▶ turn
///  leave ─▶ tell the replaced ─▶ rewrite each list without us ─▶ destroy the ticket
/// ```
public struct QueueMember: Sendable {
    /// The root window's lists of tickets.
    public enum List: String, Sendable, Hashable, CaseIterable {
        /// `_XTOAST_QUEUE`: the toasts that take turns, oldest first.
        case queue
        /// `_XTOAST_SCHEDULED`: toasts waiting for their `--in`/`--at` time.
        case scheduled
        /// `_XTOAST_STACK`: toasts shown beside each other (`--stack`).
        case stack

        /// The property's name, for messages.
        public var propertyName: String { "_XTOAST_" + rawValue.uppercased() }
    }

    /// A request that changes the server (or what reaches us); nothing is waited for.
    public enum Write: Equatable, Sendable {
        /// Write our ticket: a PropertyNotify for whoever waits for us (a touch).
        case ticket(Ticket)
        /// Hear these tickets end or be touched.
        case listen(to: [UInt])
        case stopListening(to: UInt)
        /// Hear the root's properties change (the pause).
        case listenToPause
        /// Append our ticket to a root list in one request (atomic on the server); it fails
        /// only where garbage is written, and `answer` is not waited for.
        case append(to: List)
        /// Hold and release the server around a read-then-write of a list.
        case grab
        case ungrab
        /// Replace a root list (delete it when empty).
        case write(List, [UInt])
        /// Our `_XTOAST_REPLACES`: the tickets we took the place of, for whoever replaces us.
        case replaces([UInt])
        case send(Command, to: UInt)
        /// Our `_XTOAST_SHOWN`.
        case shown(Shown)
        /// Destroy our ticket, and wait until the server has done so: the process exits next.
        case destroy
    }

    /// What the machine needs to know next; each is answered by one batch of requests.
    public enum Question: Equatable, Sendable {
        /// The queue (its first `TicketQueue.entryLimit` entries) and `_XTOAST_PAUSED`'s values.
        case queueAndPause
        /// A root list, its first `limit` entries.
        case list(List, limit: Int)
        /// What each window says as a ticket, and with `thenQueue`, the queue read after them.
        case tickets([UInt], thenQueue: Bool)
        /// What each window says as a ticket, its `_XTOAST_SHOWN` and its `_XTOAST_REPLACES`.
        case facts([UInt])
        /// Append our ticket to a list and say whether that failed (garbage there).
        case appendChecked(List)
        /// Whether a list holds something that is not a list of windows.
        case isMalformed(List)
    }

    public enum Answer: Equatable, Sendable {
        /// The queue, pruned; the pause as read (nil: absent or of another type).
        case queueAndPause(queue: [UInt], pause: [UInt]?)
        case list([UInt])
        case tickets([Ticket?], queue: [UInt]?)
        case facts([Facts])
        case appended(failed: Bool)
        case malformed(Bool)
    }

    /// What the server says of one window, for a tagged toast's placement.
    public struct Facts: Equatable, Sendable {
        public var ticket: Ticket?
        public var shown: Shown?
        public var replaces: [UInt]

        public init(ticket: Ticket?, shown: Shown?, replaces: [UInt]) {
            self.ticket = ticket
            self.shown = shown
            self.replaces = replaces
        }
    }

    /// Writes to carry out, then what comes next.
    public struct Step: Equatable, Sendable {
        public var writes: [Write]
        public var next: Next
        /// One line to say (a repair of something another client wrote).
        public var warning: String?

        public init(_ writes: [Write], _ next: Next, warning: String? = nil) {
            self.writes = writes
            self.next = next
            self.warning = warning
        }
    }

    public enum Next: Equatable, Sendable {
        /// Answer this, then call `answer(_:)`.
        case ask(Question)
        /// The look is over: this is the turn.
        case turn(QueueProtocol.Turn)
        /// The conversation is over.
        case done
    }

    /// Our ticket window.
    public let me: UInt
    /// What our ticket says (its pause mark changes).
    public private(set) var ticket: Ticket
    /// Tickets with our tag we took the place of, to tell once our toast is drawn.
    public private(set) var replaces: [UInt] = []
    /// Where the shown toast we replace is, and its bar, for the transition.
    public private(set) var replacedShown: Shown?
    /// The ticket ahead that we wait for.
    public private(set) var watched: UInt?
    /// The lists that have us.
    public private(set) var lists: Set<List> = []
    /// Our ticket is gone: nothing more is said.
    public private(set) var hasLeft = false
    /// Whether the toast goes through a pause (`--urgent`), or took over from one that did.
    private let urgent: Bool
    private var inheritedThrough = false
    /// A toast behind may have passed ours during a pause: ours stood aside (or took the place
    /// of a waiting one), so it looks behind before it shows.
    private var checksBehind = false
    /// The root's property changes reach us (to hear the pause change).
    private var listensToPause = false
    private var conversation = Conversation.none

    private var through: Bool { urgent || inheritedThrough }

    public init(me: UInt, ticket: Ticket, urgent: Bool = false) {
        self.me = me
        self.ticket = ticket
        self.urgent = urgent
    }

    /// How many times a look starts again after the queue changed under it, at most: each new
    /// look needs another client to have changed the queue meanwhile.
    public static let lookAttempts = 8
    /// How many placements a tagged toast tries without holding the server before it decides
    /// under the grab.
    public static let placementsWithoutGrab = 2

    // MARK: Conversations

    private enum Conversation: Sendable {
        case none
        case joining(Joining)
        case appending(List)
        case looking(Look)
        case rewriting(Rewrite, then: AfterRewrite)
        case telling([UInt], then: AfterTelling)
        case rejoining
        /// The ticket just watched asked about again.
        case checkingWatch(now: Double)
    }

    private enum AfterRewrite: Sendable {
        case done
        case touch
        /// The queue was past the part anyone reads: look on with it rewritten.
        case look(Look)
        /// Leaving: the lists still to rewrite.
        case leaving([List])
    }

    private enum AfterTelling: Sendable {
        case done
        case leaving
    }

    /// A tagged toast finding its place.
    private struct Joining: Sendable {
        var attempt = 0
        var stage = Stage.reading
        enum Stage: Sendable {
            /// The queue asked for, without holding the server (or under it, late attempts).
            case reading
            /// The facts of the windows `asking` asked for, besides those known.
            case learning(queue: [UInt], facts: [UInt: Facts], asking: [UInt])
            /// Under the grab, the queue and the tickets to tell asked again, to check they are
            /// what the plan was made on.
            case checking(queue: [UInt], plan: QueueProtocol.Placement, facts: [UInt: Facts])
        }
        var underGrab: Bool { attempt >= QueueMember.placementsWithoutGrab }
    }

    /// A look at the turn in progress.
    private struct Look: Sendable {
        var attempt = 0
        var now: Double
        var stage = Stage.reading(again: false)
        var queue: [UInt] = []
        var pause: Pause?
        var known: [UInt: Ticket?] = [:]
        var asked = 0
        var batch = 1
        /// The queue read again with the last batch of tickets.
        var latest: [UInt]?
        enum Stage: Sendable {
            /// Queue and pause asked for (`again`: after preparing for the pause).
            case reading(again: Bool)
            /// The queue read again after an overflow rewrite.
            case rereading
            /// A batch of tickets ahead asked for.
            case askingAhead([UInt])
            /// The tickets behind asked for (after standing aside).
            case askingBehind([UInt], decided: QueueProtocol.Turn)
        }
    }

    /// A root list rewritten under the grab: read, its entries asked about, written.
    private struct Rewrite: Sendable {
        var list: List
        var appendingMe: Bool
        var entries: [UInt]? = nil
    }

    // MARK: Joining

    /// Joins the queue: at the end in one request, or, with a tag, in the place of a live toast
    /// with it (see `QueueProtocol.placement`).
    public mutating func join() -> Step {
        lists.insert(.queue)
        guard ticket.tag != nil else {
            // Not waited for: should someone have written garbage over the list, the append
            // fails, the look finds us missing, and `rejoin` repairs the list.
            return Step([.append(to: .queue)], .done)
        }
        return joinTagged(Joining())
    }

    private mutating func joinTagged(_ joining: Joining) -> Step {
        var joining = joining
        joining.stage = .reading
        conversation = .joining(joining)
        // Looking at the tickets takes round trips (long over ssh -X): done without holding
        // the server; the grab only checks that the queue is still what was read, and writes.
        // After two races with other writers, everything is decided under the grab.
        return Step(joining.underGrab ? [.grab] : [], .ask(.list(.queue, limit: TicketQueue.entryLimit)))
    }

    private mutating func continueJoining(_ joining: Joining, _ answer: Answer) -> Step {
        var joining = joining
        switch (joining.stage, answer) {
        case (.reading, .list(let queue)):
            let asking = TicketQueue.pruned(queue, removing: [me])
            joining.stage = .learning(queue: queue, facts: [:], asking: asking)
            conversation = .joining(joining)
            return Step([], .ask(.facts(asking)))
        case (.learning(let queue, var facts, let asking), .facts(let found)):
            for (index, id) in asking.enumerated() {
                facts[id] = index < found.count ? found[index] : Facts(ticket: nil, shown: nil, replaces: [])
            }
            var missing: [UInt] = []
            let plan = placement(in: queue, facts: facts, missing: &missing)
            guard missing.isEmpty else {
                // The tickets a replaced one was still to tell: asked once more.
                joining.stage = .learning(queue: queue, facts: facts, asking: missing)
                conversation = .joining(joining)
                return Step([], .ask(.facts(missing)))
            }
            if joining.underGrab { return placed(plan, facts: facts) }
            joining.stage = .checking(queue: queue, plan: plan, facts: facts)
            conversation = .joining(joining)
            // Under the grab, the queue again and the tickets we are to tell, in one round trip:
            // one of them may have ended since and its id gone to an unrelated toast.
            return Step([.grab], .ask(.tickets(plan.replaces, thenQueue: true)))
        case (.checking(let queue, let plan, let facts), .tickets(let found, let now)):
            let stillTheirs = found.allSatisfy { $0?.tag == ticket.tag }
            if now == queue && stillTheirs { return placed(plan, facts: facts) }
            joining.attempt += 1
            var step = joinTagged(joining)
            step.writes.insert(.ungrab, at: 0)
            return step
        default: break
        }
        return unexpected(answer)
    }

    /// The placement, from the facts known; the ids whose facts are needed and not known go to
    /// `missing`.
    private func placement(in queue: [UInt], facts: [UInt: Facts], missing: inout [UInt]) -> QueueProtocol.Placement {
        var unknown: [UInt] = []
        func fact(_ id: UInt) -> Facts? {
            guard let fact = facts[id] else {
                if !unknown.contains(id) { unknown.append(id) }
                return nil
            }
            return fact
        }
        let plan = QueueProtocol.placement(
            of: me, tag: ticket.tag, in: queue, ticket: { fact($0)?.ticket },
            isShown: { fact($0)?.shown != nil }, inherited: { fact($0)?.replaces ?? [] })
        // Those we replace that are on screen: their facts are needed too.
        for old in plan.replaces { _ = fact(old) }
        missing = unknown
        return plan
    }

    /// Under the grab, with the queue as the plan was made on: tell, mark, write, release.
    private mutating func placed(_ plan: QueueProtocol.Placement, facts: [UInt: Facts]) -> Step {
        conversation = .none
        replaces = plan.replaces
        let onScreen = plan.replaces.filter { facts[$0]?.shown != nil }
        replacedShown = onScreen.first.flatMap { facts[$0]?.shown }
        var writes: [Write] = []
        if !replaces.isEmpty { writes.append(.replaces(replaces)) }
        // One not yet on screen can go now; one on screen goes when ours is drawn. Told before
        // the queue changes, so that it reads its command before it finds itself missing from
        // the queue (and does not join again).
        for old in replaces where !onScreen.contains(old) { writes.append(.send(.replaced, to: old)) }
        checksBehind = checksBehind || plan.checksBehind
        if plan.inheritsThrough {
            // Marked before the queue has us: a held toast ahead that looks behind itself later
            // sees the update that will be drawn over a toast on screen.
            inheritedThrough = true
            ticket.pause = .through
            writes.append(.ticket(ticket))
        }
        writes += [.write(.queue, plan.queue), .ungrab]
        return Step(writes, .done)
    }

    /// Joins `_XTOAST_SCHEDULED` or `_XTOAST_STACK`: at the end, repaired if garbage is there.
    public mutating func join(_ list: List) -> Step {
        lists.insert(list)
        conversation = .appending(list)
        return Step([], .ask(.appendChecked(list)))
    }

    /// Joins the queue again after a look found us missing: someone wrote garbage over it (our
    /// append failed) or rewrote it without us (a real replacement sends a command first).
    public mutating func rejoin() -> Step {
        lists.insert(.queue)
        conversation = .rejoining
        return Step([], .ask(.isMalformed(.queue)))
    }

    // MARK: Leaving

    /// Leaves the queue for a while (delayed by a fullscreen window), and touches the ticket so
    /// that whoever waits for us looks again and goes ahead; `join` joins again at the end.
    public mutating func leaveQueue() -> Step {
        guard lists.remove(.queue) != nil else { return Step([], .done) }
        return rewrite(Rewrite(list: .queue, appendingMe: false), then: .touch)
    }

    /// Leaves one list (the schedule once due).
    public mutating func leave(_ list: List) -> Step {
        guard lists.remove(list) != nil else { return Step([], .done) }
        return rewrite(Rewrite(list: list, appendingMe: false), then: .done)
    }

    /// Leaves everything and destroys the ticket, so that the next toast can show. Those we
    /// took the place of but never told (we end before our toast was drawn) are told first:
    /// they must not stay on screen where nothing can reach them.
    public mutating func leave() -> Step {
        guard !hasLeft else { return Step([], .done) }
        hasLeft = true
        return tellReplaced(then: .leaving)
    }

    private mutating func leaveLists(_ remaining: [List]) -> Step {
        var remaining = remaining
        guard let list = remaining.first else {
            conversation = .none
            return Step([.destroy], .done)
        }
        remaining.removeFirst()
        lists.remove(list)
        return rewrite(Rewrite(list: list, appendingMe: false), then: .leaving(remaining))
    }

    // MARK: Rewriting a list

    /// Rewrites a root list under the grab: without our ticket, without dead entries (all asked
    /// about in one batch), with ours at the end when `appendingMe`. Dead ids go, so that they
    /// (which the server gives to new clients) do not linger.
    private mutating func rewrite(_ rewrite: Rewrite, then after: AfterRewrite) -> Step {
        conversation = .rewriting(rewrite, then: after)
        return Step([.grab], .ask(.list(rewrite.list, limit: TicketQueue.rewriteLimit)))
    }

    private mutating func continueRewriting(_ rewrite: Rewrite, then after: AfterRewrite, _ answer: Answer) -> Step {
        var rewrite = rewrite
        switch (rewrite.entries, answer) {
        case (nil, .list(let read)):
            let entries = TicketQueue.pruned(read, removing: [me], limit: TicketQueue.rewriteLimit)
            rewrite.entries = entries
            conversation = .rewriting(rewrite, then: after)
            return Step([], .ask(.tickets(entries, thenQueue: false)))
        case (let entries?, .tickets(let found, _)):
            let live = zip(entries, found).compactMap { $1 == nil ? nil : $0 }
            let dead = entries.count - live.count
            let writes: [Write] = [.write(rewrite.list, live + (rewrite.appendingMe ? [me] : [])), .ungrab]
            return rewritten(dead: dead, then: after).after(writes)
        default: return unexpected(answer)
        }
    }

    private mutating func rewritten(dead: Int, then after: AfterRewrite) -> Step {
        conversation = .none
        switch after {
        case .done: return Step([], .done)
        case .touch: return Step([.ticket(ticket)], .done)
        case .leaving(let remaining): return leaveLists(remaining)
        case .look(var look):
            // We are in now, past the dead entries; if every entry was alive, we wait for the
            // first to end.
            guard dead > 0 else { return waitForFirst(in: look.queue) }
            look.stage = .rereading
            conversation = .looking(look)
            return Step([.ticket(ticket)], .ask(.list(.queue, limit: TicketQueue.entryLimit)))
        }
    }

    // MARK: Whose turn it is

    /// Looks at the queue (wall clock `now`, for the pause): whose turn it is, and whom to wait
    /// for. Ends with `.turn`.
    public mutating func lookAtTurn(now: Double) -> Step {
        var writes: [Write] = []
        // A held ticket is cleared before we look: a toast behind that reads it after this no
        // longer passes us, and one that read it before marked itself `through` first, which
        // the look behind finds.
        if ticket.pause == .held { writes += mark(nil) }
        conversation = .looking(Look(now: now))
        return Step(writes, .ask(.queueAndPause))
    }

    private mutating func continueLooking(_ look: Look, _ answer: Answer) -> Step {
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
        case (.askingBehind(let behind, let decided), .tickets(let found, _)):
            let known = Dictionary(zip(behind, found), uniquingKeysWith: { $1 })
            guard let passer = QueueProtocol.firstThrough(behind: behind, ticket: { known[$0] ?? nil }) else {
                return decide(decided, look)
            }
            // It passed us during the pause: it shows (or may) first.
            conversation = .none
            return Step([], .turn(.waitFor(passer)))
        default: break
        }
        return unexpected(answer)
    }

    /// Decides with the tickets known, or asks for the next batch ahead: the nearest is usually
    /// alive, dead entries take a few batches that double. Each batch is asked after selecting
    /// its events, so that one that dies after the check still says so, and the queue is asked
    /// again with it, in the same round trip.
    private mutating func askAhead(_ look: Look) -> Step {
        var look = look
        let ahead = QueueProtocol.ahead(of: me, in: look.queue)
        var needed = false
        let turn = QueueProtocol.turn(
            ahead: ahead, tag: ticket.tag, replacing: Set(replaces), pause: look.pause, through: through
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
        if case .mine = turn, checksBehind {
            let behind = QueueProtocol.behind(of: me, in: look.queue)
            if !behind.isEmpty {
                // Only a toast that stood aside asks: the normal path pays nothing.
                look.stage = .askingBehind(behind, decided: turn)
                conversation = .looking(look)
                let listen = behind.filter { $0 != watched }
                return Step(listen.isEmpty ? [] : [.listen(to: listen)], .ask(.tickets(behind, thenQueue: false)))
            }
        }
        return decide(turn, look)
    }

    /// All of the queue that anyone reads is alive, and we are past it: wait for its first.
    private mutating func waitForFirst(in queue: [UInt]) -> Step {
        conversation = .none
        return Step([], .turn(queue.first.map { .waitFor($0) } ?? .missing))
    }

    private mutating func decide(_ turn: QueueProtocol.Turn, _ look: Look) -> Step {
        conversation = .none
        var writes: [Write] = []
        // Not about to show: a held toast that looks behind need not wait for us.
        if case .waitFor = turn, ticket.pause == .through { writes += mark(nil) }
        return Step(writes, .turn(turn))
    }

    // MARK: Pauses

    /// Before a look during a pause: listen for the pause to change (before it is read again,
    /// so that no change is missed) or, going through it, say so before looking.
    private mutating func prepareForPause() -> [Write] {
        var writes: [Write] = []
        if !through && !listensToPause {
            listensToPause = true
            writes.append(.listenToPause)
        }
        if through && ticket.pause != .through { writes += mark(.through) }
        return writes
    }

    /// Stands aside for a pause: the ticket is marked held, so that toasts behind may pass it
    /// while the pause lasts; before it shows, it looks behind itself.
    public mutating func standAside() -> [Write] {
        checksBehind = true
        return ticket.pause == .held ? [] : mark(.held)
    }

    private mutating func mark(_ mark: Ticket.PauseMark?) -> [Write] {
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
    private mutating func tellReplaced(then after: AfterTelling) -> Step {
        let told = replaces
        replaces = []
        guard !told.isEmpty else { return toldReplaced(then: after) }
        conversation = .telling(told, then: after)
        return Step([.grab], .ask(.tickets(told, thenQueue: false)))
    }

    private mutating func toldReplaced(then after: AfterTelling) -> Step {
        conversation = .none
        switch after {
        case .done: return Step([], .done)
        case .leaving: return leaveLists(List.allCases.filter(lists.contains))
        }
    }

    // MARK: Answers

    /// The server's answer to the last question.
    public mutating func answer(_ answer: Answer) -> Step {
        switch conversation {
        case .none: return unexpected(answer)
        case .joining(let joining): return continueJoining(joining, answer)
        case .looking(let look): return continueLooking(look, answer)
        case .rewriting(let rewrite, let after): return continueRewriting(rewrite, then: after, answer)
        case .telling(let told, let after):
            guard case .tickets(let found, _) = answer else { return unexpected(answer) }
            let sends = zip(told, found).compactMap { old, found in found?.tag == ticket.tag ? Write.send(.replaced, to: old) : nil }
            return toldReplaced(then: after).after(sends + [.ungrab])
        case .appending(let list):
            guard case .appended(let failed) = answer else { return unexpected(answer) }
            conversation = .none
            guard failed else { return Step([], .done) }
            var step = rewrite(Rewrite(list: list, appendingMe: true), then: .done)
            step.warning = "ignored a malformed \(list.propertyName) on the root window"
            return step
        case .checkingWatch(let now):
            guard case .tickets(let found, _) = answer else { return unexpected(answer) }
            conversation = .none
            if found.first ?? nil != nil { return Step([], .done) }
            watched = nil
            return lookAtTurn(now: now)
        case .rejoining:
            guard case .malformed(let malformed) = answer else { return unexpected(answer) }
            var step = rewrite(Rewrite(list: .queue, appendingMe: true), then: .touch)
            step.warning =
                malformed
                ? "ignored a malformed _XTOAST_QUEUE on the root window" : "this toast was missing from _XTOAST_QUEUE; queued again"
            return step
        }
    }

    /// An answer to a question not asked: a bug in the driver. The conversation ends; nothing
    /// is decided on it.
    private mutating func unexpected(_ answer: Answer) -> Step {
        conversation = .none
        return Step([], .done)
    }
}

extension QueueMember.Step {
    /// This step with `writes` carried out first.
    func after(_ writes: [QueueMember.Write]) -> QueueMember.Step {
        QueueMember.Step(writes + self.writes, next, warning: warning)
    }
}

extension QueueMember {
    /// What a ticket publishes once its toast is drawn (`_XTOAST_SHOWN`, five CARDINALs): its
    /// box, and its progress value in hundredths of a percent plus one (0: no bar).
    public struct Shown: Equatable, Sendable {
        public var box: Rect
        public var progress: Double?

        public init(box: Rect, progress: Double?) {
            self.box = box
            self.progress = progress
        }

        /// The property's value.
        public var encoded: [UInt] {
            let code = progress.map { UInt(($0 * 100).rounded()) + 1 } ?? 0
            return [UInt(bitPattern: box.x), UInt(bitPattern: box.y), UInt(box.width), UInt(box.height), code]
        }

        /// Reads the property (nil: absent or malformed: any client can write it).
        public init?(values: [UInt]?) {
            guard let v = values, v.count >= 4, v.count <= 5, v[2] > 0, v[2] < 1 << 15, v[3] > 0, v[3] < 1 << 15 else { return nil }
            box = Rect(
                x: Int(Int32(truncatingIfNeeded: v[0])), y: Int(Int32(truncatingIfNeeded: v[1])), width: Int(v[2]), height: Int(v[3]))
            let code = v.count == 5 ? v[4] : 0
            progress = code > 0 && code <= UInt(Progress.maximum * 100) + 1 ? Double(code - 1) / 100 : nil
        }
    }
}
