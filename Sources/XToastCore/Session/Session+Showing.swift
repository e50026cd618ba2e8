/// The showing phase: frames, what freezes the toast's time, the looks at the pointer and at the
/// idle time, the stack's slides, updates.
extension Session {
    /// The events of a toast on screen (or asked for).
    mutating func whileShowing(_ event: Event, at now: Double) -> [Effect] {
        switch event {
        case .frameInterval(let interval):
            if interval > 0 && interval.isFinite { frameInterval = interval }
            return []
        case .stackChanged:
            return showing != nil && plan.stack ? [.restack] : []
        case .click(.button(let index)) where index == content.reply?.button:
            return reply(event, at: now)
        case .click(let outcome):
            // While the entry is open a click on the toast types nothing and ends nothing.
            guard let showing, showing.reply == nil else { return [] }
            return end(outcome)
        case .key, .keyboard:
            return reply(event, at: now)
        case .link(let url):
            return open(url, at: now)
        case .covered:
            // Never raised over a locker: it is withdrawn under one anyway.
            return showing.map { $0.underLock ? [] : [.raise] } ?? []
        case .exposed:
            return redraw(at: now)
        case .shown:
            return shown(at: now)
        case .compositorChanged(let composited):
            // The windows are drawn another way now (blended, or shaped and opaque), and the
            // frames come at another pace. The same answer again changes nothing.
            guard var showing, composited != showing.screen.composited else { return [] }
            showing.screen.composited = composited
            phase = .showing(showing)
            return [.blend(composited)] + redraw(at: now)
        case .hover(let change):
            return change == .entered ? freeze(.pointer, at: now) : thaw(.pointer, at: now)
        case .pointerMoves(let moving):
            guard var showing else { return [] }
            // Resting over the toast, it is looked at now and then too: a pointer warped away
            // (`xdotool mousemove`, a window manager) makes no raw motion (issue #22).
            let resting = showing.pointerOver ? now + Self.pointerRestLookInterval : nil
            showing.nextPointerLook = moving ? now + Self.pointerLookInterval : resting
            phase = .showing(showing)
            return []
        case .sliding(let end):
            guard var showing else { return [] }
            showing.slide = end.map { Sliding(next: now, end: $0) }
            phase = .showing(showing)
            // The first step at once, as the slides start from where the windows are.
            return step(at: now)
        case .idle(let seconds):
            return idle(seconds: seconds, at: now)
        case .noReturnAlarm:
            guard var showing, var away = showing.away else { return [] }
            away.nextLook = now + Self.idleLookInterval
            showing.away = away
            phase = .showing(showing)
            return []
        case .userReturned:
            return thaw(.away(idle: 0), at: now)
        default:
            return []
        }
    }

    /// A click on a link: its URL is opened, if it may be, and the toast stays as it was. The
    /// click is the link's, not the toast's: a click on the toast is the application's default
    /// action or its dismissal, and the user who follows a link asked for neither. A second link
    /// within `linkRepeatInterval` (the second click of a double click) opens nothing more.
    private mutating func open(_ url: String, at now: Double) -> [Effect] {
        guard var showing, showing.presentation != nil, let url = Link.openable(url) else { return [] }
        if let last = showing.linkOpened, now - last < Self.linkRepeatInterval { return [] }
        showing.linkOpened = now
        phase = .showing(showing)
        return [.open(url)]
    }

    /// The windows asked for by `show` are up: a presentation starts on the timeline picked.
    private mutating func shown(at now: Double) -> [Effect] {
        guard var showing else { return [] }
        // The first state is usually invisible: the first frame shows the state one frame in, so
        // that the first thing drawn is something to see.
        var clock = FreezableTimeline(showing.timeline, minimumHold: plan.hoverMinimumHold)
        // New content under the pointer (an update, a command's result), or while the user is
        // away, is frozen as the old was.
        if showing.isFrozen { clock.freeze(at: 0) }
        showing.presentation = Presentation(clock: clock, start: now - frameInterval)
        phase = .showing(showing)
        return tick(at: now)
    }

    /// The answer to `lookAtIdle`: the first look, after the first frame (GNOME's rule: a toast
    /// that appears while the user is away waits for them, then holds what was left of its time,
    /// at least the hover minimum); or, without an idle alarm, a look while they are away.
    private mutating func idle(seconds: Double?, at now: Double) -> [Effect] {
        guard var showing else { return [] }
        guard let away = showing.away else {
            guard let seconds, seconds >= plan.idleThreshold else { return [] }
            let frozen = freeze(.away(idle: seconds), at: now)
            return self.showing?.away == nil ? frozen : frozen + [.watchReturn]
        }
        // Idle time that went down means input came: the user is back (and a server that cannot
        // tell any more cannot keep the toast waiting).
        guard let seconds, seconds >= away.idle else { return thaw(.away(idle: 0), at: now) }
        showing.away = Away(idle: seconds, nextLook: now + Self.idleLookInterval)
        phase = .showing(showing)
        return []
    }

    /// Something freezes the toast's time (the first thing to do so stops the clock). Before the
    /// first windows are up only the lock counts: `shown` starts a frozen presentation then.
    mutating func freeze(_ reason: Freeze, at now: Double) -> [Effect] {
        guard var showing else { return [] }
        guard var presentation = showing.presentation else {
            if case .locked = reason, !showing.underLock {
                showing.lock = .locked(heldUpdate: false)
                phase = .showing(showing)
            }
            return []
        }
        let wasFrozen = showing.isFrozen
        switch reason {
        case .pointer:
            guard !showing.pointerOver else { return [] }
            showing.pointerOver = true
        case .away(let idle):
            guard showing.away == nil else { return [] }
            showing.away = Away(idle: idle)
        case .locked:
            guard !showing.underLock else { return [] }
            showing.lock = .locked(heldUpdate: false)
        case .replying(let draft):
            guard showing.reply == nil, let draft else { return [] }
            showing.reply = draft
        }
        if !wasFrozen {
            presentation.clock.freeze(at: now - presentation.start)
            showing.presentation = presentation
        }
        phase = .showing(showing)
        // Coming back from a fade: the next frame is planned again from now.
        return wasFrozen ? [] : redraw(at: now)
    }

    /// It lets go (the last thing to let go starts the clock again).
    mutating func thaw(_ reason: Freeze, at now: Double) -> [Effect] {
        guard var showing else { return [] }
        guard var presentation = showing.presentation else {
            if case .locked = reason { showing.lock = .clear }
            phase = .showing(showing)
            return []
        }
        switch reason {
        case .pointer:
            guard showing.pointerOver else { return [] }
            showing.pointerOver = false
        case .away:
            guard showing.away != nil else { return [] }
            showing.away = nil
        case .locked:
            guard showing.underLock else { return [] }
            showing.lock = .clear
        case .replying:
            guard showing.reply != nil else { return [] }
            showing.reply = nil
        }
        if !showing.isFrozen {
            presentation.clock.thaw(at: now - presentation.start)
            showing.presentation = presentation
        }
        phase = .showing(showing)
        return showing.isFrozen ? [] : redraw(at: now)
    }

    /// A frame now, whatever the pace: what was drawn is gone or drawn another way.
    mutating func redraw(at now: Double) -> [Effect] {
        guard var showing, showing.presentation != nil else { return [] }
        showing.presentation?.nextFrame = 0
        phase = .showing(showing)
        return tick(at: now)
    }

    /// New content (a line read, a command's result): on screen it replaces what shows, moving
    /// from its box, as the screen was when it showed; otherwise it is what will show. Under a
    /// locker it is held until the unlock: nothing new is mapped over a locked screen.
    mutating func update(to next: ToastContent, for hold: DisplayDuration) -> [Effect] {
        content = next
        duration = hold
        guard var showing, showing.presentation != nil else { return [] }
        var screen = showing.screen
        screen.replacing = true
        showing.timeline = timeline(on: screen)
        if showing.underLock { showing.lock = .locked(heldUpdate: true) }
        phase = .showing(showing)
        return showing.underLock ? [] : [.show(next, showing.timeline, composited: screen.composited, morph: true)]
    }

    // MARK: Time

    /// What is due at `now`: the grace's end; a frame, the toast's end, a step of a slide, a look
    /// at the pointer or at the idle time.
    mutating func tick(at now: Double) -> [Effect] {
        switch phase {
        case .grace(let until):
            return now >= until ? proceed() : []
        case .waiting(.lockUndecided):
            return lockLook(at: now)
        case .showing:
            // The frame first: a look's answer that draws (a freeze) draws after it.
            let frame = frame(at: now)
            guard showing != nil else { return frame }
            return frame + step(at: now) + looks(at: now) + lockLook(at: now) + replyIdle(at: now)
        default:
            return []
        }
    }

    /// A step of the stack's slide, when due: every frame until the end.
    private mutating func step(at now: Double) -> [Effect] {
        guard var showing, let slide = showing.slide, now >= slide.next else { return [] }
        showing.slide = now >= slide.end ? nil : Sliding(next: min(now + frameInterval, slide.end), end: slide.end)
        phase = .showing(showing)
        return [.slide]
    }

    /// The looks due at `now`: where the pointer is (click-through, while it moves), how long
    /// the user has been idle (while away, without an idle alarm).
    private mutating func looks(at now: Double) -> [Effect] {
        guard var showing else { return [] }
        var effects: [Effect] = []
        if let look = showing.nextPointerLook, now >= look {
            showing.nextPointerLook = nil
            effects.append(.lookAtPointer)
        }
        if let look = showing.away?.nextLook, now >= look {
            showing.away?.nextLook = nil
            effects.append(.lookAtIdle)
        }
        phase = .showing(showing)
        return effects
    }

    /// A frame, when one is due, and the toast's end when its time is up.
    private mutating func frame(at now: Double) -> [Effect] {
        guard var showing, var presentation = showing.presentation else { return [] }
        let clock = presentation.clock
        // Due by the same sum as `deadline`, so that a tick at the deadline always draws; and then
        // at least that far in, however `now - start` rounds, so that time always moves on from
        // one frame to the next.
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
            // A screen saver that comes on while it is up hides it as a locker does (issue #22),
            // but only those who ask hear of it (a locker's map comes unasked): asked before the
            // toast says it is up, so that from then on nothing is missed. And looked at once: a
            // locker mapped between the look before the show and the show came as no event.
            if !showing.greeted && !finished { effects += [.watchLock, .lookAtLock] }
            effects.append(.announce(progress: content.progress?.percent))
            effects += greet(&showing, finished: finished)
        }
        if finished {
            showing.presentation = presentation
            phase = .showing(showing)
            return effects + end(.expired)
        }
        // Frames only while something moves; while holding, sleep until the exit, unless a
        // spinner turns.
        var next =
            showing.screen.composited
            ? clock.nextFrameTime(after: elapsed, frameInterval: frameInterval)
            : clock.nextPhaseBoundary(after: elapsed)
        if content.spinner {
            let tick = Timeline.tick(after: elapsed, every: plan.spinnerInterval)
            next = min(next ?? tick, tick)
        }
        presentation.nextFrame = next
        showing.presentation = presentation
        phase = .showing(showing)
        return effects
    }

    /// What follows the toast's first frame, once per toast (an update or a command's result is
    /// not read again): the screen reader, politely; and whether anybody is there to see it,
    /// asked once it is out, so that it costs the first frame nothing.
    private func greet(_ showing: inout Showing, finished: Bool) -> [Effect] {
        guard !showing.greeted else { return [] }
        showing.greeted = true
        var effects: [Effect] = []
        if plan.speaks { effects.append(.speak(content)) }
        if plan.idleThreshold > 0 && !finished { effects.append(.lookAtIdle) }
        return effects
    }
}
