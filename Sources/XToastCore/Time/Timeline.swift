/// What a toast looks like at one moment: how opaque, how large (1 = its laid-out size), and
/// how far its box has moved from the toast it replaced to its own place (1 = all the way).
public struct Appearance: Equatable, Sendable {
    public var opacity: Double
    public var scale: Double
    public var morph: Double

    public init(opacity: Double, scale: Double = 1, morph: Double = 1) {
        self.opacity = opacity
        self.scale = scale
        self.morph = morph
    }

    /// The opacity as `_NET_WM_WINDOW_OPACITY` carries it: 0 (clear) to 2³²−1 (opaque), clamped,
    /// and clear for a value that is not a number.
    public var opacityProperty: UInt32 {
        guard !opacity.isNaN else { return 0 }
        return UInt32((min(max(opacity, 0), 1) * Double(UInt32.max)).rounded())
    }

    public static let shown = Appearance(opacity: 1, scale: 1)
    public static let hidden = Appearance(opacity: 0, scale: 1)

    func interpolated(to end: Appearance, by fraction: Double) -> Appearance {
        Appearance(
            opacity: opacity + (end.opacity - opacity) * fraction,
            scale: scale + (end.scale - scale) * fraction,
            morph: morph + (end.morph - morph) * fraction)
    }
}

/// One step of a motion: move to `target` over `duration` seconds along `curve`.
public struct Keyframe: Equatable, Sendable {
    public var duration: Double
    public var target: Appearance
    public var curve: TimingCurve

    public init(duration: Double, to target: Appearance, curve: TimingCurve) {
        self.duration = duration
        self.target = target
        self.curve = curve
    }
}

/// How a toast comes and goes: where it starts, the steps in, and the steps out.
public struct Motion: Equatable, Sendable {
    public var initial: Appearance
    public var entrance: [Keyframe]
    public var exit: [Keyframe]

    public init(initial: Appearance, entrance: [Keyframe], exit: [Keyframe]) {
        self.initial = initial
        self.entrance = entrance
        self.exit = exit
    }

    /// A plain fade in and out, the toast design's motion.
    public static func fade(in fadeIn: Double, out fadeOut: Double, curve: TimingCurve) -> Motion {
        Motion(
            initial: .hidden,
            entrance: [Keyframe(duration: fadeIn, to: .shown, curve: curve)],
            exit: [Keyframe(duration: fadeOut, to: .hidden, curve: curve)])
    }

    /// Takes over from a toast with the same tag: already fully shown, the box moves and resizes
    /// from the old one's place to its own, then it leaves as `exit` says.
    public static func replacing(over duration: Double, curve: TimingCurve, exit: [Keyframe]) -> Motion {
        Motion(
            initial: Appearance(opacity: 1, scale: 1, morph: 0),
            entrance: [Keyframe(duration: duration, to: .shown, curve: curve)],
            exit: exit)
    }

    /// Appears and disappears at once: what a screen without a compositor can show.
    public static let none = Motion(initial: .shown, entrance: [], exit: [])

    /// The largest scale the motion reaches: the window must be this much larger than the box.
    public var maximumScale: Double {
        (entrance + exit).map(\.target.scale).reduce(max(initial.scale, 1), max)
    }
}

/// The phases of a toast's life, in order.
public enum Phase: Equatable, Sendable {
    case entering, holding, leaving, finished
}

/// A toast's whole life as a pure function of the time since its first frame.
///
/// Nothing is accumulated from frame to frame: a late frame shows the state of the moment it is
/// drawn, so it never stretches an animation.
public struct Timeline: Equatable, Sendable {
    public let motion: Motion
    /// The time between the end of the entrance and the start of the exit; nil holds until dismissed.
    public let hold: Double?

    public init(motion: Motion, hold: Double?) {
        self.motion = motion
        self.hold = hold.map { max($0, 0) }
    }

    /// The same toast without motion (no compositor to blend it, or "reduce motion"): shown
    /// whole at once, and held for as long as the motion would have kept it on screen.
    public var withoutMotion: Timeline {
        Timeline(motion: .none, hold: hold.map { $0 + entranceDuration + exitDuration })
    }

    public var entranceDuration: Double { motion.entrance.reduce(0) { $0 + max($1.duration, 0) } }
    public var exitDuration: Double { motion.exit.reduce(0) { $0 + max($1.duration, 0) } }
    /// When the exit begins; nil while the toast is sticky.
    public var exitStart: Double? { hold.map { entranceDuration + $0 } }
    /// When the toast is gone; nil while the toast is sticky.
    public var end: Double? { exitStart.map { $0 + exitDuration } }

    /// The phase at `time` seconds after the first frame.
    public func phase(at time: Double) -> Phase {
        if time < entranceDuration { return .entering }
        guard let exitStart, let end else { return .holding }
        if time < exitStart { return .holding }
        return time < end ? .leaving : .finished
    }

    /// The appearance at `time` seconds after the first frame.
    public func appearance(at time: Double) -> Appearance {
        let settled = Timeline.run(motion.entrance, from: motion.initial, at: .infinity)
        switch phase(at: time) {
        case .entering: return Timeline.run(motion.entrance, from: motion.initial, at: time)
        case .holding: return settled
        case .leaving, .finished: return Timeline.run(motion.exit, from: settled, at: time - exitStart!)
        }
    }

    /// When the next frame is due after `time`: on the frame grid while something moves, at the
    /// end of a phase if that comes first, the start of the exit while holding, nil when nothing
    /// will ever change again (finished, or sticky and settled).
    public func nextFrameTime(after time: Double, frameInterval: Double) -> Double? {
        guard let boundary = nextPhaseBoundary(after: time) else { return nil }
        switch phase(at: time) {
        case .entering, .leaving:
            // Frames sit on a grid counted from the first frame, so rounding never drifts.
            return min(Timeline.tick(after: time, every: frameInterval), boundary)
        case .holding, .finished:
            return boundary
        }
    }

    /// The next multiple of `interval` after `time`: later than `time` even where the division
    /// rounds (2.32 / 0.01 is 231.99999999999997).
    public static func tick(after time: Double, every interval: Double) -> Double {
        let tick = ((time / interval).rounded(.down) + 1) * interval
        return tick > time ? tick : tick + interval
    }

    /// The next moment after `time` at which the phase changes; nil if none is coming.
    public func nextPhaseBoundary(after time: Double) -> Double? {
        let boundaries = [entranceDuration, exitStart, end].compactMap { $0 }
        return boundaries.first { $0 > time }
    }

    private static func run(_ keyframes: [Keyframe], from start: Appearance, at time: Double) -> Appearance {
        var from = start
        var elapsed = 0.0
        for keyframe in keyframes {
            let duration = max(keyframe.duration, 0)
            if time < elapsed + duration {
                let fraction = keyframe.curve.value(at: (time - elapsed) / duration)
                return from.interpolated(to: keyframe.target, by: fraction)
            }
            elapsed += duration
            from = keyframe.target
        }
        return from
    }
}
