/// The queue protocol's decisions (README "Protocol"), as functions of what a process has read
/// from the server: whose turn it is and whom to wait for, where a tagged toast goes and whom it
/// replaces. The X side asks the questions and carries the answers out; the rules live here,
/// where a fake server can run many processes against them (`QueueSimulationTests`).
public enum QueueProtocol {
    /// What a queued process does next.
    public enum Turn: Equatable, Sendable {
        /// No live ticket is ahead: show.
        case mine
        /// Wait until this ticket ends or is touched: the nearest live one ahead.
        case waitFor(UInt)
        /// Our ticket is not in the queue (some client rewrote it): join again.
        case missing
    }

    /// The entries ahead of `me` in `queue`, nearest first, in the order their liveness is to be
    /// asked; nil when `me` is not in the queue. The nearest live one is the one to wait for:
    /// when the toast on screen ends, only the process right behind it wakes.
    public static func ahead(of me: UInt, in queue: [UInt]) -> [UInt]? {
        guard let position = queue.firstIndex(of: me) else { return nil }
        return queue[..<position].reversed()
    }

    /// The turn of a toast with `tag`, given the entries ahead (`ahead(of:in:)`, nil when
    /// missing), what each is (`ticket`, nil: not a live ticket, asked nearest first and no
    /// further than needed), and the tickets this one replaces: shown toasts it is to be drawn
    /// over do not hold it back, as long as they still have its tag (their ids may have gone to
    /// new clients since).
    public static func turn(ahead: [UInt]?, tag: String? = nil, replacing: Set<UInt> = [], ticket: (UInt) -> Ticket?) -> Turn {
        guard let ahead else { return .missing }
        let blocking = ahead.first { entry in
            guard let info = ticket(entry) else { return false }
            return !(replacing.contains(entry) && info.tag == tag)
        }
        return blocking.map(Turn.waitFor) ?? .mine
    }

    /// Where a tagged toast goes and whom it replaces.
    public struct Placement: Equatable, Sendable {
        /// The queue to write.
        public var queue: [UInt]
        /// The tickets this one takes the place of, to be told `replaced`: the live tickets with
        /// the tag, and whoever those were themselves still to tell. Its turn does not wait for
        /// them.
        public var replaces: [UInt]
    }

    /// A toast with `tag` joining `queue`. Waiting tickets with the tag give it their place
    /// (the first one's) and are told at once. A shown one keeps its place until the new toast
    /// is drawn over it, and the new one goes right behind it: should the new process die
    /// first, the old toast still holds the screen, and nobody shows over it. The tickets those
    /// were still to replace are taken over, so that a chain of quick replacements never leaves
    /// an old toast on screen. Only tickets that have the tag are replaced: the server gives a
    /// new client the ids of one that left, so an inherited id may name an unrelated toast by
    /// now. `ticket` says what a window is (nil: not a live ticket), `isShown` whether its toast
    /// is on screen, `inherited` what a ticket still had to replace.
    public static func placement(
        of me: UInt, tag: String?, in queue: [UInt], ticket: (UInt) -> Ticket?, isShown: (UInt) -> Bool,
        inherited: (UInt) -> [UInt]
    ) -> Placement {
        let queue = TicketQueue.pruned(queue, removing: [me])
        let withTag = tag == nil ? [] : queue.filter { ticket($0)?.tag == tag }
        guard let first = withTag.first, let firstIndex = queue.firstIndex(of: first) else {
            return Placement(queue: queue + [me], replaces: [])
        }
        var replaces = withTag
        for old in withTag.flatMap(inherited) where old != me && !replaces.contains(old) && ticket(old)?.tag == tag {
            replaces.append(old)
        }
        let shown = Set(withTag.filter(isShown))
        let gone = Set(withTag).subtracting(shown)
        var result = queue.filter { !gone.contains($0) }
        // Behind the last shown one with the tag, else where the first one was.
        let place = result.lastIndex(where: shown.contains).map { $0 + 1 } ?? queue[..<firstIndex].filter { !gone.contains($0) }.count
        result.insert(me, at: place)
        return Placement(queue: result, replaces: replaces)
    }
}
