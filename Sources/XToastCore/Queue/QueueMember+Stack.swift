/// A stacked toast taking its place (see `Stack.place` and docs/protocol.md).
extension QueueMember {
    /// What a placement needs: the toast's spot on each of its monitors, the gap between stacked
    /// toasts, and its progress value (published with its box).
    public struct Placing: Equatable, Sendable {
        public var spots: [Stack.Spot]
        public var gap: Int
        public var progress: Double?
        /// The stack's entries but ours, once read.
        var others: [UInt]? = nil

        public init(spots: [Stack.Spot], gap: Int, progress: Double?) {
            self.spots = spots
            self.gap = gap
            self.progress = progress
        }
    }

    /// Takes our place in the stack, under the grab: reads the stack and what its tickets
    /// published, and places the toast past the boxes of those at our position (`Stack.place`).
    /// If it fits, publishes its box and moves our ticket to the stack's end before the grab
    /// ends, so that whoever is placed next goes past ours and nobody placed before moves for
    /// it. Either way it watches those boxes, from before the grab ends: one leaving makes room.
    /// Ends with `.placed` (nil: no room).
    public mutating func placeInStack(_ placing: Placing) -> Step {
        conversation = .placing(placing)
        return Step([.grab], .ask(.list(.stack, limit: TicketQueue.rewriteLimit)))
    }

    mutating func continuePlacing(_ placing: Placing, _ answer: Answer) -> Step {
        var placing = placing
        switch (placing.others, answer) {
        case (nil, .list(let read)):
            let others = TicketQueue.pruned(read, removing: [me], limit: TicketQueue.rewriteLimit)
            placing.others = others
            conversation = .placing(placing)
            return Step([], .ask(.facts(others)))
        case (let others?, .facts(let found)):
            conversation = .none
            let facts = zip(others, found)
            let live = facts.compactMap { $1.ticket == nil ? nil : $0 }
            let placed = facts.compactMap { entry, facts -> (UInt, Rect)? in
                guard let other = facts.ticket, other.stack == ticket.stack, let shown = facts.shown else { return nil }
                return (entry, shown.box)
            }
            let shifts = Stack.place(placing.spots, past: placed.map(\.1), gap: placing.gap)
            var writes: [Write] = [.watchStack(placed.map(\.0))]
            if let shifts, let spot = placing.spots.first {
                writes += [.write(.stack, live + [me]), .shown(Shown(box: spot.box(shift: shifts[0]), progress: placing.progress))]
            }
            return Step(writes + [.ungrab], .placed(shifts))
        default:
            return unexpected(answer)
        }
    }
}
