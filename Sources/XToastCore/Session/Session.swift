/// One toast's life as a state machine: from the start of the process to its outcome.
///
/// Everything the toast decides lives here, as a pure function of what happened and when:
/// `handle(_:at:)` takes an event and the monotonic time, changes the state and returns the
/// effects to carry out, in order. `deadline` says when the machine next wants a `.tick`: the
/// only timer the X side arms, so every wake-up it plans (a frame, a slide, a look at the
/// pointer or at the idle time) is one the virtual clock sees. The X side (`ToastSession`) only
/// turns X events, signals and fds into events, and effects into requests; the unit tests drive
/// the same machine on a virtual clock.
///
/// ```
///  start ─┬─ --run ──▶ grace ──(over, or failed at once)──┐
///         ├─ --in/--at ──▶ scheduled ──(due)──────────────┤
///         └───────────────────────────────────────────────┴─▶ waiting ──(turn)──▶ showing ──▶ finished
///                                       (--stack shows at once, without waiting) ─────┘
///  with --run, a toast closed before its command ended ──▶ closedEarly ──(command ends)──▶ finished
///
///  waiting(Waiting):
///    forTurn ──(.paused)──▶ standingAside(until:) ──(pause changed)──▶ forTurn
///       │ (mine, or stacked)
///    behindLock ──(locked)──▶ locked ──(unlocked)──▶ forTurn
///       │  └─(undecided)──▶ lockUndecided ──(looked again: locked, clear; or looked enough)──┘
///       │ (not locked)
///       ├──▶ behindFullscreen ──(covered, --fullscreen delay)──▶ asideForFullscreen ──(gone)──▶ forTurn
///       │        │ (not covered)
///       └────────┴──▶ forScreen ──(.screen: the timeline is picked)──▶ showing
///
///  showing(Showing): the windows on their way, then a presentation (clock, start, next frame,
///    first frame out); beside it what freezes the clock (the pointer over it, the user away,
///    with the idle look's deadline, a locker, an open reply entry with its idle limit),
///    whether it is blended, the stack's slide and the pointer's next look: each with its
///    deadline in `deadline`.
/// ```
public struct Session: Sendable {
    /// Where the toast is in its life; the one source of truth for every sub-state.
    public enum Phase: Equatable, Sendable {
        /// Not started.
        case starting
        /// `--run`: the command has until then to end before a toast shows.
        case grace(until: Double)
        /// `--in`/`--at`: waiting to be due.
        case scheduled
        /// Joined, not shown yet.
        case waiting(Waiting)
        /// On screen (from the moment the screen is looked at for it).
        case showing(Showing)
        /// `--run`: the toast was closed before its command ended; nothing shows, the command's
        /// end ends the process.
        case closedEarly(Outcome)
        case finished(Outcome)
    }

    /// What a toast that has joined waits for.
    public enum Waiting: Equatable, Sendable {
        /// Its turn in the queue: looking at it, or watching the ticket ahead.
        case forTurn
        /// The queue is paused: standing aside until the pause changes or ends (`until`, a
        /// wall-clock second; nil: until `--resume`).
        case standingAside(until: Int?)
        /// Its turn came after standing aside, but a ticket behind went past it and is not on
        /// screen yet: waiting for it to be drawn or to end, until `until` (a wall-clock second)
        /// at most (`QueueProtocol.Turn.waitForPasser`).
        case forPasser(until: Int)
        /// Its turn came (or, stacked, it needs none), but `--fullscreen` is not `show`: asking
        /// whether a fullscreen window covers its monitors, or waiting in its place for it to go.
        case behindFullscreen
        /// Delayed by a fullscreen window (`--fullscreen delay`): in its place in the queue,
        /// marked so that the toasts behind it pass it, until the window goes.
        case asideForFullscreen
        /// Ready to show: asking what the screen is like, to pick its timeline.
        case forScreen
        /// Its turn came (or, stacked, it needs none): asking whether the screen is locked or
        /// blanked (issue #22); asked before anything else, whatever the toast is.
        case behindLock
        /// The screen is locked or blanked: aside in its place until it is not, then at its turn.
        /// Nothing of it shows, urgent or not.
        case locked
        /// A window that may be a locker's is up, but nobody holds the input yet: looking again
        /// before anything shows (`LockState.undecided`).
        case lockUndecided(LockRecheck)
        /// Stacked, with no room left on its monitor: waiting for a toast before it to go (a
        /// full stack waits, as the queue does; nothing is placed off its monitor).
        case forRoom
    }

    public let plan: Plan
    public internal(set) var phase: Phase = .starting
    /// What shows, or will: stdin lines and a `--run` result change it.
    public internal(set) var content: ToastContent
    public internal(set) var duration: DisplayDuration
    /// How the `--run` command ended, once it has.
    public internal(set) var commandStatus: Int32?
    /// The terminating signal that reached the `--run` command: when it ends, we end with it
    /// instead of showing its result (nobody wants to read "failed" after Ctrl-C).
    public internal(set) var interruption: Int32?
    /// Seconds between frames on the toast's monitor (given, then as the X side learns it).
    public internal(set) var frameInterval: Double
    /// What it shows instead of its own content, having come back from quiet first with others
    /// behind it (`comeBack(with:)`): their summary and its own; it ends `summarised` then.
    public internal(set) var summary: AwaySummary?

    /// `frameInterval`: seconds between frames until the monitor's rate is known.
    public init(_ plan: Plan, frameInterval: Double) {
        self.plan = plan
        content = plan.content
        duration = plan.duration
        self.frameInterval = frameInterval
    }

    /// The outcome, once finished.
    public var outcome: Outcome? {
        if case .finished(let outcome) = phase { return outcome }
        return nil
    }

    /// The sub-state of the showing phase, nil in any other.
    public var showing: Showing? {
        if case .showing(let showing) = phase { return showing }
        return nil
    }

    /// The sub-state of the waiting phase, nil in any other.
    public var waiting: Waiting? {
        if case .waiting(let waiting) = phase { return waiting }
        return nil
    }

    var commandRunning: Bool { plan.command != nil && commandStatus == nil }

    /// When the machine next wants a `.tick` (monotonic seconds); nil: not until an event. The
    /// earliest of everything it waits for: the grace's end, the next frame, the next step of a
    /// slide, the next look at the pointer or at the idle time.
    public var deadline: Double? {
        switch phase {
        case .grace(let until): return until
        case .waiting(.lockUndecided(let recheck)): return recheck.next
        case .showing(let showing): return showing.deadline
        default: return nil
        }
    }

    /// The toast's state at `now` (for tests and a repaint): nil when nothing is on screen.
    public func appearance(at now: Double) -> Appearance? {
        showing?.presentation.map { $0.clock.appearance(at: now - $0.start) }
    }

    /// Whether the first frame of what shows now is out (its box is published): moves are
    /// published from then on.
    public var isAnnounced: Bool { showing?.presentation?.announced ?? false }

    /// The timeline a toast gets on `screen`: a toast taking over from one with its tag moves
    /// from its box instead of coming in; without a compositor nothing can fade, and with
    /// "reduce motion" nothing should move: it simply appears and disappears, and stays as long
    /// as it would have.
    public func timeline(on screen: Screen) -> Timeline {
        let timeline = Timeline(
            motion: screen.replacing ? plan.replacement : plan.motion, hold: duration.hold(for: content.message))
        return screen.composited && !screen.reducesMotion ? timeline : timeline.withoutMotion
    }
}

extension Session {
    /// What the screen is like as a toast is about to show: what picks its timeline.
    public struct Screen: Equatable, Sendable {
        /// A compositor runs: windows can be blended.
        public var composited: Bool
        /// The desktop asks for less motion (XSETTINGS `Net/EnableAnimations`, when followed).
        public var reducesMotion: Bool
        /// It takes over from a toast with its tag (or from its own, for an update).
        public var replacing: Bool

        public init(composited: Bool = true, reducesMotion: Bool = false, replacing: Bool = false) {
            self.composited = composited
            self.reducesMotion = reducesMotion
            self.replacing = replacing
        }
    }

    /// The showing phase's state.
    public struct Showing: Equatable, Sendable {
        /// The toast on screen and where it is in its timeline; nil until its first windows are up.
        public internal(set) var presentation: Presentation?
        /// How the screen was when it showed: an update shows the same way (and is blended or
        /// not as `compositorChanged` says since).
        public internal(set) var screen: Screen
        /// The timeline of the newest content asked for: `.shown` starts a presentation on it.
        public internal(set) var timeline: Timeline
        /// The pointer is over the toast: its time stands still.
        public internal(set) var pointerOver = false
        /// The user is away: its time stands still until they are back.
        public internal(set) var away: Away?
        /// Whether a locker or the blank screen is over it (issues #22, #28).
        public internal(set) var lock: Lock = .clear
        /// Whether the first frame of the toast is out: the screen reader was told, the idle time
        /// asked. Once per toast, not again for an update.
        public internal(set) var greeted = false
        /// Click-through, while the pointer moves: when to look where it is next.
        public internal(set) var nextPointerLook: Double?
        /// Stacked: the windows slide towards a new place.
        public internal(set) var slide: Sliding?
        /// When a click last opened a link (monotonic seconds).
        public internal(set) var linkOpened: Double?
        /// The inline reply's entry, while it is open (`Reply.swift`): it holds the keyboard.
        public internal(set) var reply: ReplyDraft?

        public init(screen: Screen = Screen(), timeline: Timeline = Timeline(motion: .none, hold: nil)) {
            self.screen = screen
            self.timeline = timeline
        }

        /// Whether a locker or the blank screen is over it.
        public var underLock: Bool {
            if case .locked = lock { return true }
            return false
        }

        /// Whether anything stops the toast's time.
        public var isFrozen: Bool { pointerOver || away != nil || underLock || reply != nil }

        /// The earliest of the frame, the slide's step and the looks.
        var deadline: Double? {
            let frame = presentation.flatMap { presentation in presentation.nextFrame.map { presentation.start + $0 } }
            var lockLook: Double?
            if case .undecided(let recheck) = lock { lockLook = recheck.next }
            let replyEnd = reply.map { $0.lastKey + ReplyDraft.idleLimit }
            return [frame, slide?.next, nextPointerLook, away?.nextLook, lockLook, replyEnd].compactMap { $0 }.min()
        }
    }

    /// The toast on screen: its timeline (frozen or not) and where it is in it.
    public struct Presentation: Equatable, Sendable {
        public internal(set) var clock: FreezableTimeline
        /// When elapsed time 0 was, in monotonic seconds.
        public internal(set) var start: Double
        /// When the next frame is due (elapsed seconds); nil: none until something happens.
        public internal(set) var nextFrame: Double? = 0
        /// Whether its first frame is out and its box published.
        public internal(set) var announced = false
    }

    /// The windows of a stacked toast sliding towards their new place (`Slide`, on the X side).
    public struct Sliding: Equatable, Sendable {
        /// When to move them a step further (monotonic seconds): every frame until the end.
        public internal(set) var next: Double
        /// When the last slide ends.
        public internal(set) var end: Double
    }

    /// A locker or the blank screen over a toast on screen (issues #22, #28).
    public enum Lock: Equatable, Sendable {
        /// Nothing hides the screen.
        case clear
        /// A window that may be a locker's came, but nobody holds the input yet: looked at again.
        case undecided(LockRecheck)
        /// The screen is locked or blank: the toast's windows are withdrawn, so that nothing of
        /// it can be over the locker whatever the stacking order, and its time stands still.
        /// `heldUpdate`: new content came meanwhile (a line read, a command's result); it shows
        /// after the unlock, never before.
        case locked(heldUpdate: Bool)
    }

    /// Looking at the lock again while it is undecided: when next (nil: a look is on its way) and
    /// how many looks were made.
    public struct LockRecheck: Equatable, Sendable {
        public internal(set) var next: Double?
        public internal(set) var looks: Int
    }

    /// Seconds from one look at an undecided lock to the next: a locker takes the input within
    /// milliseconds of mapping its window, on a loaded machine within a few hundred; past the
    /// last, the window is an overlay, and nothing is locked. A toast waiting to show waits at
    /// most their sum for an overlay that holds no input.
    public static let lockRechecks: [Double] = [0.05, 0.1, 0.2, 0.4]

    /// The user was away when the toast appeared (`--idle`).
    public struct Away: Equatable, Sendable {
        /// Seconds they had been idle at the last look: less at the next look means they are back.
        public internal(set) var idle: Double
        /// Without the server's idle alarm: when to look at the idle time again (nil: the alarm
        /// says when they are back, or a look is on its way).
        public internal(set) var nextLook: Double?
    }

    /// What stops the toast's time (the timeline's hold is what it stops).
    enum Freeze { case pointer, away(idle: Double), locked, replying(ReplyDraft?) }

    /// Seconds between two looks at where the pointer is while it moves over a click-through
    /// toast: about ten round trips a second while it moves, none while it rests.
    public static let pointerLookInterval = 0.1
    /// Seconds between two looks at a pointer resting over a click-through toast: one warped
    /// away makes no raw motion, and is noticed at most this late, for one round trip a second
    /// while the toast's time stands still anyway.
    public static let pointerRestLookInterval = 1.0
    /// Seconds after a link was opened in which a click on a link opens nothing: the second
    /// click of a double click (GTK's and Qt's double-click time is 0.4 s) would open it twice.
    public static let linkRepeatInterval = 0.5
    /// Seconds between two looks at the idle time while waiting for the user's return on a server
    /// without an idle alarm (no SYNC `IDLETIME`): a return noticed at most this late, for one
    /// round trip a second.
    public static let idleLookInterval = 1.0
}
