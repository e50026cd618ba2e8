/// The session's answers to events, phase by phase (the showing phase's own are in
/// Session+Showing.swift).
extension Session {
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
            // Said `queued` when it was scheduled already.
            return [.leaveSchedule] + join(telling: false)
        case .zoneChanged:
            return phase == .scheduled ? [.reschedule] : []
        case .signal(let signal, let source):
            return answer(signal, from: source)
        case .commandEnded(let status):
            return commandEnded(status: status)
        case .lines(let lines):
            // Only the newest value matters: a burst of lines makes one update.
            var next = content
            for line in lines { next = next.updated(byLine: line) ?? next }
            return next == content ? [] : update(to: next, for: duration)
        case .remote(let command):
            switch (phase, command) {
            // Anything sent to a scheduled toast cancels it (`--cancel-scheduled`).
            case (.scheduled, _): return end(.dismissed)
            // Only a toast waiting behind the one that came back first is summarised.
            case (.waiting, .summarised): return end(.summarised(opensCenter: false))
            case (.showing, .summarised): return []
            case (.waiting, _), (.showing, _): return end(command == .replaced ? .replaced : .dismissed)
            default: return []
            }
        case .lock where showing != nil, .lockChanged where showing != nil:
            return lockWhileShowing(event, at: now)
        case .queueChanged, .turn, .pauseChanged, .fullscreen, .fullscreenChanged, .lock, .lockChanged, .screen:
            return whileWaiting(event, at: now)
        case .noRoom,
            .stackChanged where waiting == .forRoom:
            return waitForRoom(event)
        default:
            return whileShowing(event, at: now)
        }
    }

    /// What a signal does: `response(to:from:in:commandRunning:)` says.
    private mutating func answer(_ signal: Signal, from source: SignalSource) -> [Effect] {
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
    }

    /// The events of the waiting phase: the queue, the pause, a fullscreen window, the screen.
    private mutating func whileWaiting(_ event: Event, at now: Double) -> [Effect] {
        guard let waiting else { return [] }
        switch event {
        case .queueChanged:
            // Out of the queue it has no turn to look at; ready to show, it looked already.
            return [.forTurn, .behindFullscreen].contains(waiting) || isStandingAside || isWaitingForPasser ? [.lookAtTurn] : []
        case .turn(let turn):
            guard [.forTurn, .behindFullscreen].contains(waiting) || isStandingAside || isWaitingForPasser else { return [] }
            phase = .waiting(.forTurn)
            switch turn {
            case .mine: return showUnlessLocked()
            case .mineBack(let returners): return comeBack(with: returners)
            case .missing: return [.rejoin, .lookAtTurn]
            case .waitFor(let ticket): return [.watch(ticket)]
            case .waitForPasser(let ticket, let until):
                phase = .waiting(.forPasser(until: until))
                return [.watch(ticket), .lookAgain(at: until)]
            case .paused(let until):
                phase = .waiting(.standingAside(until: until))
                return [.standAside(until: until)]
            }
        case .pauseChanged:
            // Waiting for a passer, it hears the clock it set (`lookAgain`).
            return isStandingAside || isWaitingForPasser ? [.lookAtTurn] : []
        case .fullscreen(let covered):
            return fullscreen(covered: covered, while: waiting)
        case .fullscreenChanged:
            return [.behindFullscreen, .asideForFullscreen].contains(waiting) ? [.lookAtFullscreen] : []
        case .lock(let state):
            return lock(state, while: waiting, at: now)
        case .lockChanged:
            return waiting == .locked ? [.lookAtLock] : []
        case .screen(let screen):
            guard waiting == .forScreen else { return [] }
            let timeline = timeline(on: screen)
            phase = .showing(Showing(screen: screen, timeline: timeline))
            return [.show(content, timeline, composited: screen.composited, morph: false)]
        default:
            return []
        }
    }

    /// Its turn, back from quiet first (a pause, a lock, a film) with `returners` behind it
    /// (itself first): enough of them show as one summary, this toast's, and the others are told
    /// to end as its lines; its own content is kept unseen with theirs (`AwaySummary`). Fewer
    /// show as themselves, in turn.
    /// A summary already shown for (it stood aside again before it showed, a lock on the way)
    /// takes the newly come back in.
    private mutating func comeBack(with returners: [QueueProtocol.Returner]) -> [Effect] {
        guard summary != nil || returners.count >= AwaySummary.threshold else { return showUnlessLocked() }
        var summary = self.summary ?? AwaySummary(returners[0].away)
        for returner in returners.dropFirst() { summary.add(returner.away) }
        self.summary = summary
        content = summary.content
        duration = AwaySummary.hold
        return [.summarise(returners.dropFirst().map(\.ticket))] + showUnlessLocked()
    }

    private var isStandingAside: Bool {
        if case .standingAside = waiting { return true }
        return false
    }

    private var isWaitingForPasser: Bool {
        if case .forPasser = waiting { return true }
        return false
    }

    /// The answer to `lookAtFullscreen`, behind a fullscreen window or standing aside for it.
    private mutating func fullscreen(covered: Bool, while waiting: Waiting) -> [Effect] {
        guard [.behindFullscreen, .asideForFullscreen].contains(waiting) else { return [] }
        if !covered {
            guard waiting == .asideForFullscreen else { return readyToShow() }
            // Still in its place: its turn comes before the toasts that started after it (and
            // the film is asked about again then).
            phase = .waiting(.forTurn)
            return [.lookAtTurn]
        }
        if plan.fullscreen == .drop { return end(.dropped) }
        // A film plays there: this toast waits for it aside, in its place, so that the toasts
        // behind it (a volume key's OSD) are not kept waiting too. Stacked toasts keep nobody waiting.
        guard !plan.stack, waiting == .behindFullscreen else { return [.watchFullscreen] }
        phase = .waiting(.asideForFullscreen)
        return [.standAsideInPlace, .watchFullscreen]
    }

    // MARK: Moving on

    /// After the start (or the grace): wait for the delivery time, or join now.
    mutating func proceed() -> [Effect] {
        guard plan.delivery == .now else {
            phase = .scheduled
            return [.schedule(plan.delivery), .joinSchedule, .queued]
        }
        return join(telling: true)
    }

    /// Joins the queue (or the stack); `telling`: say `queued` (not said yet).
    private mutating func join(telling: Bool) -> [Effect] {
        phase = .waiting(.forTurn)
        let joined: [Effect] = telling ? [.join, .queued] : [.join]
        // A stacked toast waits for no turn, only for a pause to end: its look reads the pause.
        return joined + [.lookAtTurn]
    }

    /// Shows at once, or first asks whether a fullscreen window covers the toast's monitors.
    mutating func showUnlessCovered() -> [Effect] {
        guard plan.fullscreen != .show else { return readyToShow() }
        phase = .waiting(.behindFullscreen)
        return [.lookAtFullscreen]
    }

    /// Asks what the screen is like, to pick the toast's timeline; `.screen` shows it.
    mutating func readyToShow() -> [Effect] {
        phase = .waiting(.forScreen)
        return [.lookAtScreen]
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
    mutating func end(_ outcome: Outcome) -> [Effect] {
        switch phase {
        case .finished, .closedEarly: return []
        default: break
        }
        if summary != nil, let summarised = Self.summarised(outcome) { return end(summarised) }
        if commandRunning {
            phase = .closedEarly(outcome)
            return [.hide, .leave]
        }
        return finish(outcome)
    }

    /// How a toast that shows a summary ends, for `outcome` of the summary's toast: summarised
    /// (a click asks for the centre), or ended by a signal; nil when it is that already.
    static func summarised(_ outcome: Outcome) -> Outcome? {
        switch outcome {
        case .summarised, .signalled: nil
        case .clicked: .summarised(opensCenter: true)
        default: .summarised(opensCenter: false)
        }
    }

    private mutating func finish(_ outcome: Outcome) -> [Effect] {
        phase = .finished(outcome)
        return [.finish(outcome)]
    }
}
