/// Joining and leaving the root's lists (see `QueueMember`).
extension QueueMember {
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

    mutating func joinTagged(_ joining: Joining) -> Step {
        var joining = joining
        joining.stage = .reading
        conversation = .joining(joining)
        // Looking at the tickets takes round trips (long over ssh -X): done without holding
        // the server; the grab only checks that the queue is still what was read, and writes.
        // After two races with other writers, everything is decided under the grab.
        return Step(joining.underGrab ? [.grab] : [], .ask(.list(.queue, limit: TicketQueue.entryLimit)))
    }

    mutating func continueJoining(_ joining: Joining, _ answer: Answer) -> Step {
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
    func placement(in queue: [UInt], facts: [UInt: Facts], missing: inout [UInt]) -> QueueProtocol.Placement {
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
    mutating func placed(_ plan: QueueProtocol.Placement, facts: [UInt: Facts]) -> Step {
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
        if plan.checksBehind { behind = max(behind, .mayBePassed) }
        if plan.inheritsThrough {
            // Marked before the queue has us: a held toast ahead that looks behind itself later
            // sees the update that will be drawn over a toast on screen.
            if through == .no { through = .inherited }
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

    mutating func leaveLists(_ remaining: [List]) -> Step {
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
    mutating func rewrite(_ rewrite: Rewrite, then after: AfterRewrite) -> Step {
        conversation = .rewriting(rewrite, then: after)
        return Step([.grab], .ask(.list(rewrite.list, limit: TicketQueue.rewriteLimit)))
    }

    mutating func continueRewriting(_ rewrite: Rewrite, then after: AfterRewrite, _ answer: Answer) -> Step {
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

    mutating func rewritten(dead: Int, then after: AfterRewrite) -> Step {
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
}
