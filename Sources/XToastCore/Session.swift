/// One toast's life as a state machine: from the start of the process to its outcome.
///
/// Everything the toast decides lives here, as a pure function of what happened and when:
/// `handle(_:at:)` takes an event and the monotonic time, changes the state and returns the
/// effects to carry out, in order. `deadline` says when the machine next wants a `.tick`.
/// The X side (`ToastSession`) only turns X events, signals and fds into events, and effects
/// into requests; the unit tests drive the same machine on a virtual clock.
///
/// ```
///  start ─┬─ --run ──▶ grace ──(over, or failed at once)──┐
///         ├─ --in/--at ──▶ scheduled ──(due)──────────────┤
///         └───────────────────────────────────────────────┴─▶ waiting ──(turn)──▶ showing ──▶ finished
///                                       (--stack shows at once, without waiting) ─────┘
///  with --run, a toast closed before its command ended ──▶ closedEarly ──(command ends)──▶ finished
/// ```
/// Waiting also covers standing aside for a pause (`--pause`) and waiting out a fullscreen window
/// (out of the queue); while showing, the toast's time stands still while the pointer is over it
/// or the user is away (`--idle`).
public struct Session: Sendable {
    /// What the command line asked for.
    public struct Plan: Equatable, Sendable {
        public var content: ToastContent
        public var duration: DisplayDuration
        public var delivery: Delivery
        /// Shown at once, beside the others (`--stack`), instead of waiting for a turn.
        public var stack: Bool
        /// `--run`: the command runs already; the toast follows it.
        public var command: CommandPlan?
        /// Seconds between spinner frames, and seconds for one turn.
        public var spinnerInterval: Double
        public var spinnerPeriod: Double
        /// Tell a screen reader what the toast says, once, as it first appears (`announce`).
        public var speaks: Bool
        /// Seconds a toast holds at least once the pointer leaves it (`Style.hoverMinimumHold`).
        public var hoverMinimumHold: Double
        /// What it does while its monitor shows a fullscreen window (`--fullscreen`).
        public var fullscreen: FullscreenPolicy
        /// Seconds without input after which the user counts as away (`--idle`); 0: never.
        public var idleThreshold: Double

        public init(
            content: ToastContent, duration: DisplayDuration, delivery: Delivery = .now, stack: Bool = false,
            command: CommandPlan? = nil, spinnerInterval: Double = 1 / Style.toast.spinnerFrameRate,
            spinnerPeriod: Double = Style.toast.spinnerPeriod, speaks: Bool = false,
            hoverMinimumHold: Double = Style.toast.hoverMinimumHold, fullscreen: FullscreenPolicy = .show, idleThreshold: Double = 0
        ) {
            self.fullscreen = fullscreen
            self.idleThreshold = idleThreshold
            self.speaks = speaks
            self.hoverMinimumHold = hoverMinimumHold
            self.content = content
            self.duration = duration
            self.delivery = delivery
            self.stack = stack
            self.command = command
            self.spinnerInterval = spinnerInterval
            self.spinnerPeriod = spinnerPeriod
        }
    }

    /// The command of `--run`.
    public struct CommandPlan: Equatable, Sendable {
        /// The command line, for the toast.
        public var commandLine: String
        /// How long it may run before a toast appears at all.
        public var grace: Double
        /// How long its result stays.
        public var resultHold: Double

        public init(commandLine: String, grace: Double, resultHold: Double) {
            self.commandLine = commandLine
            self.grace = grace
            self.resultHold = resultHold
        }
    }

    public enum Phase: Equatable, Sendable {
        /// Not started.
        case starting
        /// `--run`: the command has until then to end before a toast shows.
        case grace(until: Double)
        /// `--in`/`--at`: waiting to be due.
        case scheduled
        /// In the queue, waiting for the turn (or standing aside for a pause).
        case waiting
        /// On screen (from the moment `show` is asked for).
        case showing
        /// `--run`: the toast was closed before its command ended; nothing shows, the command's
        /// end ends the process.
        case closedEarly(Outcome)
        case finished(Outcome)
    }

    /// Where a terminating signal came from. The terminal sends Ctrl-C to the whole foreground
    /// process group, so a `--run` command has it already; `kill` reaches us alone.
    public enum SignalSource: Equatable, Sendable { case process, terminal }

    /// The signals a toast answers. SIGCHLD is not one: the X side reaps the command and says
    /// `commandEnded`.
    public enum Signal: Equatable, Sendable {
        /// SIGUSR1: close the toast, as `--dismiss` does.
        case dismiss
        /// SIGTERM, SIGINT, SIGHUP, SIGQUIT: end, with 128+N as the exit status.
        case terminate(Int32)
    }

    public enum Event: Equatable, Sendable {
        case start
        /// Time has passed: do what is due at `now` (the grace's end, a frame, the end).
        case tick
        /// A scheduled toast's time has come.
        case due
        /// The local time zone changed (an `--at` in local time means another instant now).
        case zoneChanged
        case signal(Signal, from: SignalSource)
        /// The `--run` command ended with this status (128+N: killed by signal N).
        case commandEnded(status: Int32)
        /// Lines read from standard input (`--stdin`), oldest first.
        case lines([String])
        /// The ticket we waited for ended or changed: the turn may have come.
        case queueChanged
        /// What the queue says (see `QueueProtocol.turn`), after a `lookAtTurn`.
        case turn(QueueProtocol.Turn)
        /// The pause (`xtoast --pause`) changed, or its end came: a toast standing aside looks
        /// again.
        case pauseChanged
        /// A stacked toast before ours came, went or changed size.
        case stackChanged
        /// A command from another xtoast (`--dismiss`, a toast with our tag).
        case remote(Command)
        /// A click on the toast (`.clicked`) or on one of its buttons.
        case click(Outcome)
        /// Another window came over ours.
        case covered
        /// The server lost our pixels: draw again.
        case exposed
        /// The windows asked for by `show` are up, with this timeline.
        case shown(Timeline, composited: Bool)
        /// The seconds between frames on the toast's monitor, once known.
        case frameInterval(Double)
        /// A compositor started or stopped.
        case compositorChanged(composited: Bool)
        /// The pointer came onto the toast or left it: its time stands still while it is there.
        case hover(HoverChange)
        /// Whether every monitor the toast goes on shows a fullscreen window, after a
        /// `lookAtFullscreen`.
        case fullscreen(covered: Bool)
        /// The windows on top, or their states, changed (after a `watchFullscreen`).
        case fullscreenChanged
        /// Seconds since the user last touched keyboard or pointer, after a `lookAtIdle` (nil:
        /// the server cannot tell).
        case idle(seconds: Double?)
        /// The user is back (after a `watchReturn`).
        case userReturned
    }

    public enum Effect: Equatable, Sendable {
        /// Start the delivery clock of `--in`/`--at` (and watch the time zone for `--at`).
        case schedule(Delivery)
        /// Work out the `--at` instant again in the new time zone.
        case reschedule
        /// Be listed in `_XTOAST_SCHEDULED`, where `--cancel-scheduled` finds us; and leave it.
        case joinSchedule
        case leaveSchedule
        /// Join the queue (or, with `--stack`, the stack).
        case join
        /// Our place is on the server (where `--detach` lets its caller go).
        case queued
        /// Read the queue and answer with `.turn`.
        case lookAtTurn
        /// Join the queue again: we were missing from it.
        case rejoin
        /// Leave the queue for now (and say so to whoever waits for us).
        case leaveQueue
        /// Wait for this ticket: its end or change comes as `.queueChanged`.
        case watch(UInt)
        /// Stand aside for a pause: mark the ticket held, and say `.pauseChanged` when the pause
        /// changes or its end comes (`until`, a wall-clock second; nil: until `--resume`).
        case hold(until: Int?)
        /// Put up windows for this content and answer with `.shown`; `morph`: grow out of the
        /// toast on screen (an update), which stays until the new one is drawn.
        case show(ToastContent, DisplayDuration, morph: Bool)
        /// Draw the windows in this state; `turn` is the spinner's, in turns.
        case present(Appearance, turn: Double)
        /// Raise the windows over the one that covered them.
        case raise
        /// Move towards the toast's new place in the stack.
        case restack
        /// The first frame is out: publish where the toast is (and its progress value), tell
        /// the toasts we replace to go, drop the one we morphed from.
        case announce(progress: Double?)
        /// Tell a screen reader, if one runs, what this content says.
        case speak(ToastContent)
        /// Find out whether the toast's monitors are covered by a fullscreen window: answer with
        /// `.fullscreen(covered:)`.
        case lookAtFullscreen
        /// Say `.fullscreenChanged` when that may have changed.
        case watchFullscreen
        /// Find out how long the user has been idle: answer with `.idle(seconds:)`.
        case lookAtIdle
        /// Say `.userReturned` at the user's next input.
        case watchReturn
        /// Pass a signal on to the `--run` command.
        case forward(Int32)
        /// Close the windows now.
        case hide
        /// Leave the queue, the stack and the schedule, so that the next toast can show.
        case leave
        /// The session is over.
        case finish(Outcome)
    }

    /// What a signal does, by phase: the one table behind every signal (README "Signals").
    public enum SignalResponse: Equatable, Sendable {
        /// End the toast with this outcome (with a `--run` command still running: close it and
        /// wait for the command).
        case end(Outcome)
        /// Send it on to the `--run` command, and end as it does.
        case forwardToCommand
        /// The `--run` command has it already (it came from the terminal): end as it does.
        case awaitCommand
        /// Nothing to do: the toast is closed already.
        case ignore
    }

    public static func response(to signal: Signal, from source: SignalSource, in phase: Phase, commandRunning: Bool)
        -> SignalResponse
    {
        switch (signal, phase) {
        case (_, .finished), (.dismiss, .closedEarly):
            return .ignore
        case (.dismiss, _):
            // In every phase, the grace included: no toast for this run (the command goes on,
            // and its status is still ours).
            return .end(.dismissed)
        case (.terminate(let number), _):
            guard commandRunning else { return .end(.signalled(number)) }
            return source == .terminal ? .awaitCommand : .forwardToCommand
        }
    }

    public let plan: Plan
    public private(set) var phase: Phase = .starting
    /// What shows, or will: stdin lines and a `--run` result change it.
    public private(set) var content: ToastContent
    public private(set) var duration: DisplayDuration
    /// How the `--run` command ended, once it has.
    public private(set) var commandStatus: Int32?
    /// The terminating signal that reached the `--run` command: when it ends, we end with it
    /// instead of showing its result (nobody wants to read "failed" after Ctrl-C).
    public private(set) var interruption: Int32?
    private var presentation: Presentation?
    private var frameInterval: Double
    private var composited = true
    private var toldQueued = false
    /// Standing aside for a pause: the last turn was `.paused`.
    private var holding = false
    private var spoken = false
    /// Waiting to know whether a fullscreen window covers the toast's monitors, or for it to go.
    private var awaitingFullscreen = false
    /// What holds the toast's time still: the pointer over it, the user away.
    private var holds: Set<Hold> = []
    private var lookedAtIdle = false
    /// Delayed by a fullscreen window: out of the queue until it is gone.
    private var outOfQueue = false

    private enum Hold: Sendable { case pointer, away }

    /// The toast on screen: its timeline (under the pointer) and where it is in it.
    private struct Presentation: Sendable {
        var clock: HeldTimeline
        /// When elapsed time 0 was, in monotonic seconds.
        var start: Double
        /// When the next frame is due (elapsed seconds); nil: none until something happens.
        var nextFrame: Double? = 0
        var announced = false
        var spinner: Bool
    }

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

    private var commandRunning: Bool { plan.command != nil && commandStatus == nil }

    /// When the machine next wants a `.tick` (monotonic seconds); nil: not until an event.
    public var deadline: Double? {
        switch phase {
        case .grace(let until): return until
        case .showing:
            guard let presentation, let next = presentation.nextFrame else { return nil }
            return presentation.start + next
        default: return nil
        }
    }

    /// The toast's state at `now` (for tests and a repaint): nil when nothing is on screen.
    public func appearance(at now: Double) -> Appearance? {
        presentation.map { $0.clock.appearance(at: now - $0.start) }
    }

    // MARK: Events

    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        switch event {
        case .start:
            guard phase == .starting else { return [] }
            if let command = plan.command {
                phase = .grace(until: now + command.grace)
                return []
            }
            return proceed()
        case .tick:
            return tick(at: now)
        case .due:
            guard phase == .scheduled else { return [] }
            return [.leaveSchedule] + join()
        case .zoneChanged:
            return phase == .scheduled ? [.reschedule] : []
        case .signal(let signal, let source):
            switch Self.response(to: signal, from: source, in: phase, commandRunning: commandRunning) {
            case .end(let outcome): return end(outcome)
            case .forwardToCommand:
                guard case .terminate(let number) = signal else { return [] }
                interruption = number
                return [.forward(number)]
            case .awaitCommand:
                if case .terminate(let number) = signal { interruption = number }
                return []
            case .ignore: return []
            }
        case .commandEnded(let status):
            return commandEnded(status: status)
        case .lines(let lines):
            // Only the newest value matters: a burst of lines makes one update.
            var next = content
            for line in lines { next = next.updated(byLine: line) ?? next }
            return next == content ? [] : update(to: next, for: duration)
        case .queueChanged:
            return phase == .waiting && !outOfQueue ? [.lookAtTurn] : []
        case .turn(let turn):
            guard phase == .waiting, !outOfQueue else { return [] }
            holding = false
            switch turn {
            case .mine: return showUnlessCovered()
            case .missing: return [.rejoin, .lookAtTurn]
            case .waitFor(let ticket): return [.watch(ticket)]
            case .paused(let until):
                holding = true
                return [.hold(until: until)]
            }
        case .pauseChanged:
            return phase == .waiting && holding ? [.lookAtTurn] : []
        case .stackChanged:
            return phase == .showing && plan.stack ? [.restack] : []
        case .remote(let command):
            switch phase {
            // Anything sent to a scheduled toast cancels it (`--cancel-scheduled`).
            case .scheduled: return end(.dismissed)
            case .waiting, .showing: return end(command == .replaced ? .replaced : .dismissed)
            default: return []
            }
        case .click(let outcome):
            return phase == .showing ? end(outcome) : []
        case .covered:
            return phase == .showing ? [.raise] : []
        case .exposed:
            return redraw(at: now)
        case .shown(let timeline, let composited):
            guard phase == .showing else { return [] }
            self.composited = composited
            // The first state is usually invisible: the first frame shows the state one frame
            // in, so that the first thing drawn is something to see.
            let start = now - frameInterval
            var clock = HeldTimeline(timeline, minimumHold: plan.hoverMinimumHold)
            // New content under the pointer (an update, a command's result), or while the user
            // is away, is held as the old was.
            if !holds.isEmpty { clock.pointerEntered(at: 0) }
            presentation = Presentation(clock: clock, start: start, spinner: content.spinner)
            return tick(at: now)
        case .frameInterval(let interval):
            if interval > 0 && interval.isFinite { frameInterval = interval }
            return []
        case .compositorChanged(let composited):
            // The windows are drawn another way now (blended, or shaped and opaque), and the
            // frames come at another pace. The same answer again changes nothing.
            guard composited != self.composited else { return [] }
            self.composited = composited
            return redraw(at: now)
        case .hover(let change):
            return change == .entered ? hold(.pointer, at: now) : release(.pointer, at: now)
        case .fullscreen(let covered):
            guard awaitingFullscreen, phase == .waiting else { return [] }
            if !covered {
                awaitingFullscreen = false
                guard outOfQueue else { return show(morph: false) }
                // Back at the end of the queue: its turn comes as any other's (and the film is
                // asked about again then).
                outOfQueue = false
                return [.join, .lookAtTurn]
            }
            if plan.fullscreen == .drop { return end(.dropped) }
            // A film plays there: this toast waits for it out of the queue, so that the toasts
            // behind it (a volume key's OSD) are not held too. Stacked toasts hold nobody.
            guard !plan.stack, !outOfQueue else { return [.watchFullscreen] }
            outOfQueue = true
            return [.leaveQueue, .watchFullscreen]
        case .fullscreenChanged:
            return awaitingFullscreen && phase == .waiting ? [.lookAtFullscreen] : []
        case .idle(let seconds):
            // GNOME's rule: a toast that appears while the user is away waits for them, and then
            // holds what was left of its time (at least the hover minimum).
            guard let seconds, seconds >= plan.idleThreshold, phase == .showing else { return [] }
            return hold(.away, at: now) + [.watchReturn]
        case .userReturned:
            return release(.away, at: now)
        }
    }

    /// Something holds the toast's time still (the first thing to do so stops the clock).
    private mutating func hold(_ reason: Hold, at now: Double) -> [Effect] {
        guard phase == .showing, let start = presentation?.start, holds.insert(reason).inserted else { return [] }
        guard holds.count == 1 else { return [] }
        presentation?.clock.apply(.entered, at: now - start)
        // Coming back from a fade: the next frame is planned again from now.
        return redraw(at: now)
    }

    /// It lets go (the last thing to let go starts the clock again).
    private mutating func release(_ reason: Hold, at now: Double) -> [Effect] {
        guard holds.remove(reason) != nil, holds.isEmpty, phase == .showing, let start = presentation?.start else { return [] }
        presentation?.clock.apply(.left, at: now - start)
        return redraw(at: now)
    }

    /// A frame now, whatever the pace: what was drawn is gone or drawn another way.
    private mutating func redraw(at now: Double) -> [Effect] {
        guard phase == .showing, presentation != nil else { return [] }
        presentation?.nextFrame = 0
        return tick(at: now)
    }

    // MARK: Moving on

    /// After the start (or the grace): wait for the delivery time, or join now.
    private mutating func proceed() -> [Effect] {
        guard plan.delivery == .now else {
            phase = .scheduled
            return [.schedule(plan.delivery), .joinSchedule] + toldOnce()
        }
        return join()
    }

    private mutating func join() -> [Effect] {
        if plan.stack {
            // A stacked toast does not wait for a turn.
            phase = .waiting
            return [.join] + toldOnce() + showUnlessCovered()
        }
        phase = .waiting
        return [.join] + toldOnce() + [.lookAtTurn]
    }

    private mutating func toldOnce() -> [Effect] {
        guard !toldQueued else { return [] }
        toldQueued = true
        return [.queued]
    }

    /// Shows at once, or first asks whether a fullscreen window covers the toast's monitors.
    private mutating func showUnlessCovered() -> [Effect] {
        guard plan.fullscreen != .show else { return show(morph: false) }
        awaitingFullscreen = true
        return [.lookAtFullscreen]
    }

    private mutating func show(morph: Bool) -> [Effect] {
        phase = .showing
        return [.show(content, duration, morph: morph)]
    }

    /// New content (a line read, a command's result): on screen it replaces what shows;
    /// otherwise it is what will show.
    private mutating func update(to next: ToastContent, for hold: DisplayDuration) -> [Effect] {
        content = next
        duration = hold
        guard phase == .showing, presentation != nil else { return [] }
        return [.show(next, hold, morph: true)]
    }

    private mutating func commandEnded(status: Int32) -> [Effect] {
        guard let command = plan.command, commandStatus == nil else { return [] }
        commandStatus = status
        if let interruption { return finish(.signalled(interruption)) }
        let result = content.finished(command: command.commandLine, status: status)
        switch phase {
        case .grace:
            // Quick success needs no toast; a failure is worth showing, however quick.
            if status == 0 { return end(.expired) }
            content = result
            duration = .seconds(command.resultHold)
            return proceed()
        case .closedEarly(let outcome):
            return finish(outcome)
        case .finished:
            return []
        default:
            return update(to: result, for: .seconds(command.resultHold))
        }
    }

    /// Ends the toast. With a `--run` command still running it only closes: the command's end
    /// ends the process (its status is ours).
    private mutating func end(_ outcome: Outcome) -> [Effect] {
        switch phase {
        case .finished, .closedEarly: return []
        default: break
        }
        if commandRunning {
            presentation = nil
            phase = .closedEarly(outcome)
            return [.hide, .leave]
        }
        return finish(outcome)
    }

    private mutating func finish(_ outcome: Outcome) -> [Effect] {
        presentation = nil
        phase = .finished(outcome)
        return [.finish(outcome)]
    }

    /// What is due at `now`: the grace's end, a frame, the toast's end.
    private mutating func tick(at now: Double) -> [Effect] {
        switch phase {
        case .grace(let until):
            return now >= until ? proceed() : []
        case .showing:
            guard var presentation else { return [] }
            let clock = presentation.clock
            // Due by the same sum as `deadline`, so that a tick at the deadline always draws; and
            // then at least that far in, however `now - start` rounds, so that time always moves
            // on from one frame to the next.
            let frameDue = presentation.nextFrame.map { now >= presentation.start + $0 } ?? false
            let elapsed = max(now - presentation.start, frameDue ? presentation.nextFrame! : 0)
            // A mapped window is drawn once even when its time is up already (no fade and
            // `--duration 0`): the toast was there, however briefly.
            let finished = clock.isFinished(at: elapsed)
            if finished && presentation.announced { return end(.expired) }
            guard frameDue || finished else { return [] }
            var effects: [Effect] = [.present(clock.appearance(at: elapsed), turn: elapsed / plan.spinnerPeriod)]
            if !presentation.announced {
                presentation.announced = true
                effects.append(.announce(progress: content.progress?.percent))
                // Once per toast, politely: an update or a command's result is not read again.
                if plan.speaks && !spoken {
                    spoken = true
                    effects.append(.speak(content))
                }
                // Is anybody there to see it? Asked once it is out, so that it costs the first
                // frame nothing.
                if plan.idleThreshold > 0 && !lookedAtIdle && !finished {
                    lookedAtIdle = true
                    effects.append(.lookAtIdle)
                }
            }
            if finished {
                self.presentation = presentation
                return effects + end(.expired)
            }
            // Frames only while something moves; while holding, sleep until the exit, unless a
            // spinner turns.
            var next =
                composited
                ? clock.nextFrameTime(after: elapsed, frameInterval: frameInterval)
                : clock.nextPhaseBoundary(after: elapsed)
            if presentation.spinner {
                let tick = Timeline.tick(after: elapsed, every: plan.spinnerInterval)
                next = min(next ?? tick, tick)
            }
            presentation.nextFrame = next
            self.presentation = presentation
            return effects
        default:
            return []
        }
    }
}
