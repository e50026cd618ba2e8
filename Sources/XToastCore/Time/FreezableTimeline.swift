/// The pointer came onto the toast, or went off it.
public enum HoverChange: Equatable, Sendable {
    case entered, left
}

/// A toast's timeline whose clock can be frozen: it stands still while the pointer is over the
/// toast or the user is away (`Session.Freeze`).
///
/// "Hold" is the timeline's own word, the time a toast stays fully shown; a freeze stops that
/// time from passing. The rules, all on the timeline's own time (seconds since the first frame):
/// - The entrance always plays out; a freeze during it keeps the hold from starting.
/// - While a holding toast is frozen, no hold time passes and it stays fully shown.
/// - A toast already leaving comes back: from how it looks at that moment to fully shown, along
///   ease-out, over the entrance's duration (the exit's without one) times the share of its
///   opacity it had lost. A toast halfway faded takes half a fade-in to come back; it is not
///   a new entrance, so a bounce or a spring does not play again.
/// - When it thaws (the pointer leaves, the user is back), the hold goes on with what was left
///   of it, but for at least `minimumHold` seconds from that moment, then the normal exit plays. A toast that
///   had started leaving had nothing left: it gets the minimum.
/// - A sticky toast stays sticky; a finished toast cannot be frozen.
///
/// Like `Timeline`, every answer is a function of time (no per-frame accumulation). Events must
/// come in order; a question or event about a moment before the last event is taken as being at
/// that event.
public struct FreezableTimeline: Equatable, Sendable {
    public let timeline: Timeline
    /// Seconds the toast holds at least after it thaws (`Style.hoverMinimumHold`).
    public let minimumHold: Double
    /// How the toast looks once it has come in.
    private let settled: Appearance
    /// Coming back from a fade-out a freeze stopped; nil: the timeline's own entrance.
    private var comeback: Comeback?
    /// When the exit starts; nil while sticky. Not used while frozen.
    private var exitStart: Double?
    /// While frozen: the hold left for after the thaw (nil: sticky).
    private var frozen: Frozen?
    /// The moment of the last event: time never goes back before it.
    private var lastEvent = -Double.infinity

    private struct Comeback: Equatable {
        var from: Appearance
        var start: Double
        var duration: Double
        var end: Double { start + duration }
    }

    private struct Frozen: Equatable {
        var holdLeft: Double?
    }

    /// The easing of the way back from a stopped fade-out.
    public static let comebackCurve = TimingCurve.easeOut

    public init(_ timeline: Timeline, minimumHold: Double) {
        self.timeline = timeline
        self.minimumHold = max(minimumHold, 0)
        settled = Timeline(motion: timeline.motion, hold: nil).appearance(at: .infinity)
        exitStart = timeline.exitStart
    }

    /// Whether the clock stands still.
    public var isFrozen: Bool { frozen != nil }

    /// When the toast has fully come in (its entrance, or its way back from a stopped exit).
    private var arrivalEnd: Double { comeback?.end ?? timeline.entranceDuration }

    // MARK: Events

    /// Stops the clock at `time` (the pointer came onto the toast, the user is away): its hold
    /// stops; a leaving toast comes back.
    public mutating func freeze(at time: Double) {
        let time = max(time, lastEvent)
        guard frozen == nil else { return }
        let phase = phase(at: time)
        guard phase != .finished else { return }
        lastEvent = time
        switch phase {
        case .entering:
            // The hold has not begun: all of it is left.
            frozen = Frozen(holdLeft: exitStart.map { $0 - arrivalEnd })
        case .holding:
            frozen = Frozen(holdLeft: exitStart.map { $0 - time })
        case .leaving:
            let now = appearance(at: time)
            let lost = settled.opacity > 0 ? min(max(1 - now.opacity / settled.opacity, 0), 1) : 1
            let span = timeline.entranceDuration > 0 ? timeline.entranceDuration : timeline.exitDuration
            comeback = Comeback(from: now, start: time, duration: lost * span)
            frozen = Frozen(holdLeft: 0)
        case .finished:
            break
        }
    }

    /// Starts the clock again at `time`: the hold goes on with what was left, at least
    /// `minimumHold`.
    public mutating func thaw(at time: Double) {
        let time = max(time, lastEvent)
        guard let frozen else { return }
        lastEvent = time
        self.frozen = nil
        guard let left = frozen.holdLeft else {
            exitStart = nil
            return
        }
        // Left during the entrance (or the way back): the hold starts when that ends.
        let holdStart = max(time, arrivalEnd)
        exitStart = max(holdStart + left, time + minimumHold)
    }

    // MARK: Questions

    /// The phase at `time`; coming back from a stopped exit counts as entering.
    public func phase(at time: Double) -> Phase {
        let time = max(time, lastEvent)
        if time < arrivalEnd { return .entering }
        guard frozen == nil, let exitStart else { return .holding }
        if time < exitStart { return .holding }
        return time < exitStart + timeline.exitDuration ? .leaving : .finished
    }

    /// Whether the toast is gone at `time`.
    public func isFinished(at time: Double) -> Bool { phase(at: time) == .finished }

    /// The appearance at `time`.
    public func appearance(at time: Double) -> Appearance {
        let time = max(time, lastEvent)
        switch phase(at: time) {
        case .entering:
            guard let comeback else { return timeline.appearance(at: time) }
            let fraction = Self.comebackCurve.value(at: (time - comeback.start) / comeback.duration)
            return comeback.from.interpolated(to: settled, by: fraction)
        case .holding:
            return settled
        case .leaving, .finished:
            // The timeline's own exit, moved to start when ours does.
            // (Shifted by a difference, so that an untouched toast is exactly its timeline.)
            guard let exitStart, let timelineExit = timeline.exitStart else { return settled }
            return timeline.appearance(at: time - (exitStart - timelineExit))
        }
    }

    /// When the next frame is due after `time`: on the frame grid while something moves, at
    /// the end of a phase if that comes first, the start of the exit while holding; nil when
    /// nothing will change without an event (frozen, sticky, finished).
    public func nextFrameTime(after time: Double, frameInterval: Double) -> Double? {
        switch phase(at: time) {
        case .entering, .leaving:
            // The grid counts from the first frame, as `Timeline`'s does.
            let tick = Timeline.tick(after: max(time, lastEvent), every: frameInterval)
            return min(tick, nextPhaseBoundary(after: time) ?? tick)
        case .holding:
            return nextPhaseBoundary(after: time)
        case .finished:
            return nil
        }
    }

    /// The next moment after `time` at which the phase changes without an event; nil if none.
    public func nextPhaseBoundary(after time: Double) -> Double? {
        let time = max(time, lastEvent)
        var boundaries = [arrivalEnd]
        if frozen == nil, let exitStart { boundaries += [exitStart, exitStart + timeline.exitDuration] }
        return boundaries.filter { $0 > time }.min()
    }
}
