/// `xtoast --watch`: what a status bar shows, as one JSON line at the start and one more each
/// time it changes. A value without I/O: its interpreter (`Control.watch`) hands it what it read
/// of the store of kept notifications and of the display, and the wall-clock time, and prints the
/// lines it answers; it says when it wants to be woken (a timed pause's end), never how often.
public struct Watch: Sendable {
    /// What a bar shows.
    public struct Status: Equatable, Sendable {
        /// The applications' notifications kept after their toasts.
        public var count: Int
        /// Those of them not read yet (newer than the store's read marker).
        public var unread: Int
        /// The display's pause (`xtoast --pause`); nil: not paused.
        public var pause: Pause?
        /// Who holds applications' notifications (`Inhibit`, `xtoast --inhibit`); nil: nobody.
        public var inhibited: Inhibited? = nil
        /// Toasts on screen (the queue's and stacked ones).
        public var showing: Int
        /// Toasts in the queue's lists not on screen yet: behind another, standing aside for the
        /// pause, or for a fullscreen window or a locked screen (not the scheduled ones).
        public var waiting: Int

        /// `{"count":2,"unread":1,"paused":true,"until":1767225600,"inhibited":false,"showing":1,
        /// "waiting":0}`: `until` (null: until `--resume`) only while paused, `by` (`["obs (screen
        /// sharing)"]`) only while inhibited, as `--list --json` says them.
        public var json: String {
            var object = JSONLine()
            object.add("count", count)
            object.add("unread", unread)
            object.add(pause: pause, inhibited: inhibited)
            object.add("showing", showing)
            object.add("waiting", waiting)
            return object.text
        }
    }

    /// What the store of kept notifications holds: the ids of those that read, and its marker.
    public struct Kept: Equatable, Sendable {
        public var ids: [UInt32]
        /// Every id up to this one has been read (`KeptNotifications.readMarker`); 0: none.
        public var readUpTo: UInt32

        public init(ids: [UInt32], readUpTo: UInt32) { (self.ids, self.readUpTo) = (ids, readUpTo) }
    }

    /// What the display says, as read from the root: `_XTOAST_PAUSED`'s values (nil: absent or
    /// malformed), the queue's three lists and the live tickets among their entries, and the
    /// service's `_XTOAST_INHIBITED` text (nil: none, or its window gone: see `Inhibited`).
    public struct Display: Sendable {
        public var pauseValues: [UInt]?
        public var queue: [UInt]
        public var stack: [UInt]
        public var scheduled: [UInt]
        public var tickets: [Listing.Found]
        public var inhibitedValue: [UInt8]?

        public init(
            pauseValues: [UInt]?, queue: [UInt], stack: [UInt], scheduled: [UInt], tickets: [Listing.Found], inhibitedValue: [UInt8]? = nil
        ) {
            (self.pauseValues, self.queue, self.stack, self.scheduled, self.tickets) = (pauseValues, queue, stack, scheduled, tickets)
            self.inhibitedValue = inhibitedValue
        }
    }

    public enum Event: Sendable {
        /// The store was read (at the start, and after its folder changed).
        case kept(Kept)
        /// The display was read (at the start, and after one of its lists, a ticket in them, the
        /// pause or the inhibition changed).
        case display(Display)
        /// The time asked for by `deadline` has come.
        case time
    }

    private var counts: (count: Int, unread: Int)?
    private var pauseValues: [UInt]?
    private var inhibited: Inhibited?
    private var toasts: (showing: Int, waiting: Int)?
    /// What the last line said.
    public private(set) var printed: Status?

    public init() {}

    /// Takes `event` in at `now` (wall clock, seconds since 1970): the line to print when what a
    /// bar shows has changed (the first once both the store and the display were read), else nil.
    public mutating func handle(_ event: Event, at now: Double) -> String? {
        switch event {
        case .kept(let kept):
            counts = (kept.ids.count, kept.ids.filter { $0 > kept.readUpTo }.count)
        case .display(let display):
            pauseValues = display.pauseValues
            inhibited = Inhibited.reading(display.inhibitedValue)
            let paused = Pause.reading(display.pauseValues, now: now) != nil
            let listed = Listing.toasts(
                queue: display.queue, stack: display.stack, scheduled: display.scheduled, tickets: display.tickets, paused: paused)
            let showing = listed.filter { $0.state == .showing }.count
            toasts = (showing, listed.filter { $0.state != .showing && $0.state != .scheduled }.count)
        case .time:
            break
        }
        guard let counts, let toasts else { return nil }
        let status = Status(
            count: counts.count, unread: counts.unread, pause: Pause.reading(pauseValues, now: now), inhibited: inhibited,
            showing: toasts.showing, waiting: toasts.waiting)
        guard status != printed else { return nil }
        printed = status
        return status.json
    }

    /// When to be woken with `.time` (wall clock, seconds since 1970): a timed pause's end,
    /// which nobody announces; nil while nothing is timed.
    public var deadline: Double? { printed?.pause?.end.map(Double.init) }
}
