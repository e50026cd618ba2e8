/// One xtoast process's part in the queue (docs/protocol.md), as a machine without I/O: it
/// joins, looks at the turn, stands aside for a pause, leaves, and tells the toasts it replaced.
///
/// Each conversation with the server is a run of `Step`s: a step is the writes to send (nothing
/// waited for) and then, at most, one `Question`, answered by one batch of requests. The store
/// on the X side (`QueueStore`) carries the writes out and calls `answer(_:)` with what the
/// server said; a fake server in the tests does the same, one request at a time, so that other
/// clients can act between any two of them. The rules themselves are `QueueProtocol`'s.
///
/// ```
///  join ─▶ (tagged: read queue ─▶ facts ─▶ grab, read again ─▶ write or retry) ─▶ done
///  lookAtTurn ─▶ clear held ─▶ queue+pause ─┬▶ (paused: listen or mark through, read again)
///                                           ├▶ (passing one aside: mark through, read again)
///                                           ├▶ (overflow: rewrite with us, read again)
///                                           └▶ tickets ahead, in doubling batches, queue again
///                                              ─▶ still holds? ─▶ (mine after standing aside:
///                                              look behind) ─▶ turn
///  placeInStack ─▶ grab, stack ─▶ facts ─▶ (fits: stack with us last, our box) ─▶ placed
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
        case send(RemoteCommand, to: UInt)
        /// Hear these stacked tickets end or publish another box (`_XTOAST_SHOWN`).
        case watchStack([UInt])
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
        /// A stacked toast's place: its shift on each of its monitors (nil: no room).
        case placed([Int]?)
        /// The conversation is over.
        case done
    }

    /// Our ticket window.
    public let me: UInt
    /// What our ticket says (its pause mark changes).
    public internal(set) var ticket: Ticket
    /// Tickets with our tag we took the place of, to tell once our toast is drawn.
    public internal(set) var replaces: [UInt] = []
    /// Where the shown toast we replace is, and its bar, for the transition.
    public internal(set) var replacedShown: Shown?
    /// The ticket ahead that we wait for.
    public internal(set) var watched: UInt?
    /// The lists that have us.
    public internal(set) var lists: Set<List> = []
    /// Our ticket is gone: nothing more is said.
    public internal(set) var hasLeft = false
    /// Whether the toast goes through a pause.
    var through: Through
    /// What ours must do about the toasts behind it before it shows.
    var behind = Behind.inOrder
    /// What of the root reaches us: nothing, until a pause first matters; then its property
    /// changes, to hear the pause change (asked once, before the pause is read again).
    var root = RootListening.deaf

    enum RootListening { case deaf, hearsPause }
    /// Tickets behind marked `through` and not on screen, by the wall-clock time we first found
    /// them so: each is waited for at most `QueueProtocol.passerGrace`.
    var passersSeen: [UInt: Double] = [:]
    var conversation = Conversation.none

    /// Whether a toast goes through a pause.
    enum Through: Equatable, Sendable {
        /// It waits for the pause's end, as toasts do.
        case no
        /// It is urgent (`--urgent`, a critical notification).
        case urgent
        /// It took over from a toast that went through (an update of one on screen).
        case inherited
    }

    /// What ours must do about the toasts behind it before it shows, from what it did meanwhile.
    enum Behind: Int, Comparable, Sendable {
        /// It never stood aside: nobody behind passed it.
        case inOrder
        /// It stood aside for a pause, or took the place of a waiting toast: one behind may have
        /// passed it, so it looks behind before it shows.
        case mayBePassed
        /// It stood aside in its place (a fullscreen window, a locked screen): it looks behind,
        /// and coming back it passes no toast that stands aside ahead of it (they come back too,
        /// in their order).
        case stoodAsideInPlace

        static func < (a: Behind, b: Behind) -> Bool { a.rawValue < b.rawValue }
    }

    var goesThrough: Bool { through != .no }
    var checksBehind: Bool { behind != .inOrder }

    public init(me: UInt, ticket: Ticket, urgent: Bool = false) {
        self.me = me
        through = urgent ? .urgent : .no
        self.ticket = ticket
    }

    /// How many times a look starts again after the queue changed under it, at most: each new
    /// look needs another client to have changed the queue meanwhile.
    public static let lookAttempts = 8
    /// How many placements a tagged toast tries without holding the server before it decides
    /// under the grab.
    public static let placementsWithoutGrab = 2

    // MARK: Conversations

    enum Conversation: Sendable {
        case none
        case joining(Joining)
        case appending(List)
        case looking(Look)
        case rewriting(Rewrite, then: AfterRewrite)
        /// Tickets asked about under the grab, to be told `command` if they still are who was meant.
        case telling([UInt], RemoteCommand, then: AfterTelling)
        case rejoining
        /// A stacked toast reading the pause (`again`: after listening for its changes).
        case readingPause(now: Double, again: Bool)
        /// The ticket just watched asked about again.
        case checkingWatch(now: Double)
        /// A stacked toast taking its place, under the grab.
        case placing(Placing)
        /// Our turn came with dead entries ahead: the queue read under the grab (nil: asked
        /// for), then the tickets ahead of ours asked about (`clearAhead`).
        case clearingAhead(Look, queue: [UInt]?)
    }

    enum AfterRewrite: Sendable {
        case done
        case touch
        /// The queue was past the part anyone reads: look on with it rewritten.
        case look(Look)
        /// Leaving: the lists still to rewrite.
        case leaving([List])
    }

    enum AfterTelling: Sendable {
        case done
        case leaving
    }

    /// A tagged toast finding its place.
    struct Joining: Sendable {
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
    struct Look: Sendable {
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
    struct Rewrite: Sendable {
        var list: List
        var appendingMe: Bool
        var entries: [UInt]? = nil
    }

    // MARK: Answers

    /// The server's answer to the last question.
    public mutating func answer(_ answer: Answer) -> Step {
        switch conversation {
        case .none: return unexpected(answer)
        case .joining(let joining): return continueJoining(joining, answer)
        case .looking(let look): return continueLooking(look, answer)
        case .rewriting(let rewrite, let after): return continueRewriting(rewrite, then: after, answer)
        case .telling(let told, let command, let after):
            guard case .tickets(let found, _) = answer else { return unexpected(answer) }
            let sends = zip(told, found).compactMap { old, found in isStillMeant(found, by: command) ? Write.send(command, to: old) : nil }
            return toldReplaced(then: after).after(sends + [.ungrab])
        case .appending(let list):
            guard case .appended(let failed) = answer else { return unexpected(answer) }
            conversation = .none
            guard failed else { return Step([], .done) }
            var step = rewrite(Rewrite(list: list, appendingMe: true), then: .done)
            step.warning = "ignored a malformed \(list.propertyName) on the root window"
            return step
        case .readingPause(let now, let again):
            guard case .queueAndPause(_, let values) = answer else { return unexpected(answer) }
            return stackTurn(pause: Pause.reading(values, now: now), now: now, again: again)
        case .placing(let placing): return continuePlacing(placing, answer)
        case .clearingAhead(let look, let queue): return continueClearingAhead(look, queue: queue, answer)
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
    mutating func unexpected(_ answer: Answer) -> Step {
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
