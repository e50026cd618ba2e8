/// The queue protocol's decisions (docs/protocol.md), as functions of what a process has read
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
        /// Nothing is ahead, but the toasts are paused (`xtoast --pause`): stand aside until the
        /// pause changes or ends, at `until` (a wall-clock second; nil: until `--resume`).
        case paused(until: Int?)
        /// Nothing is ahead, but this ticket behind says it went past us (`through`) and is not
        /// on screen yet: wait until it is touched (drawn, or no longer going through) or ends,
        /// and look again at `until` (a wall-clock second) in any case. A passer is drawn well
        /// before then; one that is not by then is no toast (any client can write a ticket) and
        /// holds nobody.
        case waitForPasser(UInt, until: Int)
        /// No live ticket is ahead, and this toast is back from standing aside (a pause, a lock,
        /// a film) with an `away=` name, as are these behind it: itself first, then the others
        /// that came back (or still stand aside), in queue order. It may show one summary for
        /// them all and tell the others (`summarised`) instead of a replay (`AwaySummary`).
        case mineBack(with: [Returner])
    }

    /// A toast that waited out quiet, as its ticket says: its window and its `away=` name.
    public struct Returner: Equatable, Sendable {
        public var ticket: UInt
        public var away: Ticket.Away

        public init(ticket: UInt, away: Ticket.Away) {
            self.ticket = ticket
            self.away = away
        }
    }

    /// The toasts behind a returning one that came back with it (`mineBack`): marked back, or
    /// still standing aside (it came back first), with an `away=` name; one `ticket` says
    /// nothing of (it ended) is nobody.
    public static func returners(behind: [UInt], ticket: (UInt) -> Ticket?) -> [Returner] {
        behind.compactMap { entry in
            guard let found = ticket(entry), found.mayBeSummarised, let away = found.away else { return nil }
            return Returner(ticket: entry, away: away)
        }
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
    ///
    /// While `pause` lasts (as this process read it), a ticket marked `held` ahead holds nobody
    /// back: an urgent toast (`through`) passes it and shows, any other stands aside as well
    /// (`.paused`). A held mark read after the pause ended blocks as any live ticket does, so
    /// that when it ends the held toasts go in their order. A held toast clears its mark before
    /// it looks again, and checks behind itself before it shows (`firstThrough`): a toast that
    /// passed it marked itself `through` before it looked.
    ///
    /// A ticket marked `aside` (delayed by a fullscreen window) holds nobody back, paused or
    /// not, unless this toast stood aside itself (`passesAside` false): the toasts that come back
    /// when a film ends then go in their order, each behind those before it.
    public static func turn(
        ahead: [UInt]?, tag: String? = nil, replacing: Set<UInt> = [], pause: Pause? = nil, through: Bool = false,
        passesAside: Bool = true, ticket: (UInt) -> Ticket?
    ) -> Turn {
        guard let ahead else { return .missing }
        let blocking = ahead.first { entry in
            guard let info = ticket(entry) else { return false }
            if pause != nil && info.pause == .held { return false }
            if passesAside && info.pause == .aside { return false }
            return !(replacing.contains(entry) && info.tag == tag)
        }
        if let blocking { return .waitFor(blocking) }
        if let pause, !through { return .paused(until: pause.end) }
        return .mine
    }

    /// Whether a turn decided on the entries `ahead` (as the queue was read before their tickets)
    /// still holds for the queue read again after them (`latest`, the entries ahead then). The
    /// queue may have changed meanwhile: a toast with a tag may have gone ahead of us (behind a
    /// shown one with its tag that has ended since), or the ticket we would wait for may be a
    /// new client's by now, on an id the server gave again, behind us (waiting for it would wait
    /// in a circle). Then the look is done again; nothing else happened if it holds.
    public static func stillHolds(_ turn: Turn, ahead: [UInt], latest: [UInt]?) -> Bool {
        guard let latest else { return false }
        switch turn {
        case .mine, .paused, .mineBack:
            let known = Set(ahead)
            return latest.allSatisfy(known.contains)
        case .waitFor(let entry): return latest.contains(entry)
        case .missing, .waitForPasser: return true
        }
    }

    /// The entries behind `me` in `queue`, nearest first (empty when `me` is not there).
    public static func behind(of me: UInt, in queue: [UInt]) -> [UInt] {
        guard let position = queue.firstIndex(of: me) else { return [] }
        return Array(queue[(position + 1)...])
    }

    /// Before a toast that stood aside for a pause (or took the place of one) shows: the first
    /// live ticket among `behind` marked `through`, which is on screen or may be, to wait for
    /// first; nil when there is none. Toasts behind never pass a ticket that is not held, so
    /// only one that held (or stands where one held) needs to look.
    public static func firstThrough(behind: [UInt], ticket: (UInt) -> Ticket?) -> UInt? {
        behind.first { ticket($0)?.pause == .through }
    }

    /// How long a ticket marked `through` behind a toast that stood aside is waited for while it
    /// says nothing of being on screen (seconds): a real one is drawn within a frame or two of
    /// its turn, and says so; one that has not by then holds nobody.
    public static let passerGrace = 5.0

    /// Where a tagged toast goes and whom it replaces.
    public struct Placement: Equatable, Sendable {
        /// The queue to write.
        public var queue: [UInt]
        /// The tickets this one takes the place of, to be told `replaced`: the live tickets with
        /// the tag, and whoever those were themselves still to tell. Its turn does not wait for
        /// them.
        public var replaces: [UInt]
        /// Whether it went ahead of other tickets (in the place of a waiting one): one behind
        /// may have passed that one during a pause, so it checks behind before it shows
        /// (`firstThrough`).
        public var checksBehind: Bool
        /// Whether one it replaces went through a pause (`through`): its update goes through as
        /// well, and is marked so at once.
        public var inheritsThrough: Bool
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
            return Placement(queue: queue + [me], replaces: [], checksBehind: false, inheritsThrough: false)
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
        let inheritsThrough = replaces.contains { ticket($0)?.pause == .through }
        return Placement(queue: result, replaces: replaces, checksBehind: place < result.count - 1, inheritsThrough: inheritsThrough)
    }
}
