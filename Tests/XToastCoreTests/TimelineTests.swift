import Testing

@testable import XToastCore

/// The toast design: fade in 0.2 s, hold, fade out 0.8 s, ease-in-out.
private let toastFade = Motion.fade(in: 0.2, out: 0.8, curve: .easeInOut)
private let frame = 1.0 / 60

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite("Timeline")
struct TimelineTests {
    let timeline = Timeline(motion: toastFade, hold: 2)

    @Test("Durations add up: entrance 0.2, exit starts at 2.2, gone at 3.0")
    func durations() {
        #expect(close(timeline.entranceDuration, 0.2))
        #expect(close(timeline.exitDuration, 0.8))
        #expect(close(timeline.exitStart!, 2.2))
        #expect(close(timeline.end!, 3.0))
    }

    @Test(
        "Phases change exactly at the boundaries",
        arguments: [
            (0.0, Phase.entering), (0.1, .entering), (0.199, .entering),
            (0.2, .holding), (1.2, .holding), (2.199, .holding),
            (2.2, .leaving), (2.6, .leaving), (2.999, .leaving),
            (3.0, .finished), (3.001, .finished), (1000, .finished),
        ])
    func phases(time: Double, expected: Phase) {
        #expect(timeline.phase(at: time) == expected)
    }

    @Test(
        "Opacity: hidden, half way at half the fade (ease-in-out is symmetric), shown, half way out, hidden",
        arguments: [
            (0.0, 0.0), (0.1, 0.5), (0.2, 1.0), (1.2, 1.0), (2.2, 1.0), (2.6, 0.5), (3.0, 0.0), (60, 0.0),
        ])
    func opacity(time: Double, expected: Double) {
        let appearance = timeline.appearance(at: time)
        #expect(close(appearance.opacity, expected, 1e-6))
        #expect(appearance.scale == 1)
    }

    @Test("During the fades the opacity follows the curve", arguments: [0.05, 0.1, 0.25, 0.4, 0.6, 0.75, 0.9, 0.95])
    func followsCurve(fraction: Double) {
        let curve = TimingCurve.easeInOut
        #expect(close(timeline.appearance(at: 0.2 * fraction).opacity, curve.value(at: fraction), 1e-6))
        #expect(close(timeline.appearance(at: 2.2 + 0.8 * fraction).opacity, 1 - curve.value(at: fraction), 1e-6))
    }

    @Test("Opacity rises during the entrance and falls during the exit")
    func monotonicFades() {
        var previous = -1.0
        for step in 0...200 {
            let opacity = timeline.appearance(at: 0.2 * Double(step) / 200).opacity
            #expect(opacity >= previous - 1e-9)
            previous = opacity
        }
        previous = 2.0
        for step in 0...800 {
            let opacity = timeline.appearance(at: 2.2 + 0.8 * Double(step) / 800).opacity
            #expect(opacity <= previous + 1e-9)
            previous = opacity
        }
    }

    @Test("A sticky toast holds for ever and asks for no frame once settled")
    func sticky() {
        let sticky = Timeline(motion: toastFade, hold: nil)
        #expect(sticky.exitStart == nil)
        #expect(sticky.end == nil)
        for time in [0.2, 1.0, 3.0, 3600.0, 1e9] {
            #expect(sticky.phase(at: time) == .holding)
            #expect(sticky.appearance(at: time) == .shown)
            #expect(sticky.nextFrameTime(after: time, frameInterval: frame) == nil)
        }
        // Still animated while it fades in.
        #expect(sticky.phase(at: 0.1) == .entering)
        #expect(sticky.nextFrameTime(after: 0.1, frameInterval: frame) != nil)
    }

    @Test(
        "While fading, frames fall on a 1/60 s grid counted from the first frame",
        arguments: [
            (0.0, 1.0), (0.001, 1.0), (0.05, 4.0), (0.1, 7.0), (2.21, 133.0), (2.5, 151.0), (2.9, 175.0),
        ])
    func frameGrid(time: Double, expectedTick: Double) {
        let next = timeline.nextFrameTime(after: time, frameInterval: frame)
        #expect(next.map { close($0, expectedTick / 60, 1e-9) } == true, "got \(String(describing: next))")
    }

    @Test("A frame is never later than the end of its phase")
    func clampedToBoundaries() {
        // Phase ends off the frame grid, so the clamp shows.
        let offGrid = Timeline(motion: .fade(in: 0.21, out: 0.8, curve: .easeInOut), hold: 2)
        #expect(offGrid.nextFrameTime(after: 0.2, frameInterval: frame) == 0.21)
        #expect(offGrid.nextFrameTime(after: 0.205, frameInterval: frame) == 0.21)
        let end = offGrid.end!
        #expect(close(end, 3.01))
        #expect(offGrid.nextFrameTime(after: 3.001, frameInterval: frame) == end)
        // With a coarse frame rate the boundary wins too.
        #expect(timeline.nextFrameTime(after: 0.16, frameInterval: 0.15) == 0.2)
    }

    @Test("While holding, the next frame is the start of the exit; after the end there is none")
    func holdingJumpsToExit() {
        for time in [0.2, 0.5, 1.0, 2.0, 2.19] {
            #expect(timeline.nextFrameTime(after: time, frameInterval: frame).map { close($0, 2.2) } == true)
        }
        for time in [3.0, 3.5, 100] {
            #expect(timeline.nextFrameTime(after: time, frameInterval: frame) == nil)
        }
    }

    @Test("The next frame is always strictly later and at most one frame away while something moves")
    func nextFrameIsAhead() {
        for frames in 0..<180 {
            for time in [Double(frames) * frame, Double(frames) / 60, (Double(frames) + 0.5) / 60] {
                guard let next = timeline.nextFrameTime(after: time, frameInterval: frame) else {
                    #expect(time >= 3.0)
                    continue
                }
                #expect(next > time, "after \(time) came \(next)")
                if timeline.phase(at: time) != .holding {
                    #expect(next - time <= frame + 1e-9)
                }
            }
        }
    }

    @Test("Motion.none: shown at once, gone at once, no frames in between")
    func noMotion() {
        let plain = Timeline(motion: .none, hold: 2)
        #expect(plain.entranceDuration == 0)
        #expect(plain.phase(at: 0) == .holding)
        #expect(plain.appearance(at: 0) == .shown)
        #expect(plain.appearance(at: 1.999) == .shown)
        #expect(plain.phase(at: 2) == .finished)
        #expect(plain.nextFrameTime(after: 0, frameInterval: frame) == 2)
        #expect(plain.nextFrameTime(after: 2, frameInterval: frame) == nil)
        #expect(Timeline(motion: .none, hold: nil).nextFrameTime(after: 0, frameInterval: frame) == nil)
    }

    @Test("A negative hold counts as none")
    func negativeHold() {
        let t = Timeline(motion: toastFade, hold: -5)
        #expect(t.hold == 0)
        #expect(close(t.exitStart!, 0.2))
        #expect(t.phase(at: 0.2) == .leaving)
    }

    @Test("Keyframes chain: each starts where the previous one ended")
    func keyframesChain() {
        // The alert design's shape: grow past full size, settle, then grow while fading out.
        let motion = Motion(
            initial: Appearance(opacity: 0, scale: 0.8),
            entrance: [
                Keyframe(duration: 0.2, to: Appearance(opacity: 0.66, scale: 1.1), curve: .easeOut),
                Keyframe(duration: 0.1, to: Appearance(opacity: 1, scale: 1), curve: .linear),
            ],
            exit: [Keyframe(duration: 0.4, to: Appearance(opacity: 0, scale: 1.2), curve: .linear)])
        let t = Timeline(motion: motion, hold: 1)
        #expect(close(t.entranceDuration, 0.3))
        #expect(t.appearance(at: 0) == Appearance(opacity: 0, scale: 0.8))
        let endOfFirst = t.appearance(at: 0.2)
        #expect(close(endOfFirst.opacity, 0.66, 1e-9) && close(endOfFirst.scale, 1.1, 1e-9))
        let middleOfSecond = t.appearance(at: 0.25)
        #expect(close(middleOfSecond.opacity, 0.83, 1e-6) && close(middleOfSecond.scale, 1.05, 1e-6))
        #expect(t.appearance(at: 0.5) == .shown)
        let middleOfExit = t.appearance(at: 1.5)
        #expect(close(middleOfExit.opacity, 0.5, 1e-6) && close(middleOfExit.scale, 1.1, 1e-6))
        #expect(t.phase(at: 1.71) == .finished)
        #expect(motion.maximumScale == 1.2)
    }

    /// The hud design: appears from scale 1.3.
    static let shrinkIn = Motion(
        initial: Appearance(opacity: 0, scale: 1.3),
        entrance: [Keyframe(duration: 0.3, to: .shown, curve: .easeOut)],
        exit: [])
    /// Grows from half size but never reaches full size.
    static let smallOnly = Motion(
        initial: Appearance(opacity: 0, scale: 0.5),
        entrance: [Keyframe(duration: 0.3, to: Appearance(opacity: 1, scale: 0.9), curve: .linear)],
        exit: [])
    /// The alert design's exit: grows to 1.2 while fading out.
    static let growOut = Motion(
        initial: .hidden,
        entrance: [],
        exit: [Keyframe(duration: 0.3, to: Appearance(opacity: 0, scale: 1.2), curve: .easeIn)])

    @Test(
        "maximumScale is the largest scale reached, never below 1",
        arguments: [(toastFade, 1.0), (Motion.none, 1.0), (shrinkIn, 1.3), (smallOnly, 1.0), (growOut, 1.2)])
    func maximumScale(motion: Motion, expected: Double) {
        #expect(motion.maximumScale == expected)
    }

    /// Takes the place of a toast with the same tag, then leaves like the toast design.
    static let takeOver = Timeline(motion: .replacing(over: 0.25, curve: .easeOut, exit: toastFade.exit), hold: 1)

    @Test("A replacement is fully shown from its first frame to the start of its exit: no fade-in")
    func replacementShownAtOnce() {
        let t = Self.takeOver
        #expect(close(t.entranceDuration, 0.25))
        #expect(close(t.exitStart!, 1.25))
        for step in 0...125 {
            let appearance = t.appearance(at: Double(step) / 100)
            #expect(appearance.opacity == 1, "at \(Double(step) / 100)")
            #expect(appearance.scale == 1)
        }
        #expect(t.motion.maximumScale == 1)
    }

    @Test("A replacement's box moves from the old toast's place to its own over 0.25 s, never back")
    func replacementMorph() {
        let t = Self.takeOver
        #expect(t.appearance(at: 0).morph == 0)
        #expect(t.phase(at: 0.1) == .entering)
        var previous = 0.0
        for step in 1..<100 {
            let time = 0.25 * Double(step) / 100
            let morph = t.appearance(at: time).morph
            #expect(morph > previous && morph < 1, "at \(time): \(morph) after \(previous)")
            #expect(close(morph, TimingCurve.easeOut.value(at: time / 0.25), 1e-9))
            previous = morph
        }
        for time in [0.25, 0.5, 1.0, 1.25, 1.6, 2.05, 10] {
            #expect(t.appearance(at: time).morph == 1, "at \(time)")
        }
    }

    @Test("After holding, a replacement fades out like any toast", arguments: [(1.25, 1.0), (1.65, 0.5), (2.05, 0.0), (5, 0.0)])
    func replacementExit(time: Double, opacity: Double) {
        let t = Self.takeOver
        #expect(close(t.end!, 0.25 + 1 + 0.8))
        #expect(close(t.appearance(at: time).opacity, opacity, 1e-6))
        #expect(t.appearance(at: time).scale == 1)
    }

    @Test("A replacement's opacity only falls during its exit")
    func replacementFadesOut() {
        let t = Self.takeOver
        var previous = 1.0
        for step in 0...80 {
            let opacity = t.appearance(at: 1.25 + 0.8 * Double(step) / 80).opacity
            #expect(opacity <= previous + 1e-9)
            previous = opacity
        }
        #expect(t.phase(at: 2.05) == .finished)
    }

    @Test("A plain fade never morphs: its box is always in its own place", arguments: [0, 0.05, 0.1, 0.2, 1, 2.2, 2.6, 3, 60])
    func fadeNeverMorphs(time: Double) {
        #expect(timeline.appearance(at: time).morph == 1)
        #expect(Timeline(motion: .none, hold: 2).appearance(at: time).morph == 1)
        #expect(Timeline(motion: Self.shrinkIn, hold: nil).appearance(at: time).morph == 1)
    }

    @Test("A zero-length fade jumps instead of dividing by zero")
    func zeroLengthFade() {
        let t = Timeline(motion: .fade(in: 0, out: 0, curve: .easeInOut), hold: 1)
        #expect(t.appearance(at: 0) == .shown)
        #expect(t.phase(at: 1) == .finished)
        #expect(t.appearance(at: 1) == .hidden)
        #expect(!t.appearance(at: 0.5).opacity.isNaN)
    }
}

@Suite("Timeline without a compositor")
struct StillTimelineTests {
    @Test(
        "Every preset stays on screen as long as with its motion, shown whole throughout",
        arguments: [("toast", 2.0), ("alert", 0.9), ("hud", 1.5)])
    func keepsTheTime(preset: String, hold: Double) throws {
        let style = try #require(Style.presets[preset])
        let moving = Timeline(motion: style.motion, hold: hold)
        let still = moving.withoutMotion
        #expect(still.end == moving.end)
        #expect(still.motion == .none)
        for time in stride(from: 0.0, to: try #require(moving.end), by: 0.05) {
            #expect(still.appearance(at: time) == .shown)
            #expect(still.phase(at: time) == .holding)
        }
        #expect(still.phase(at: try #require(moving.end)) == .finished)
    }

    @Test("A sticky toast stays sticky")
    func sticky() {
        #expect(Timeline(motion: Style.alert.motion, hold: nil).withoutMotion.end == nil)
    }
}

@Suite("The opacity handed to a compositor")
struct OpacityPropertyTests {
    @Test(
        "_NET_WM_WINDOW_OPACITY from 0 (clear) to 2³²−1 (opaque), clamped, never a crash",
        arguments: [
            (0.0, UInt32(0)), (1.0, UInt32.max), (0.5, UInt32(0x8000_0000)), (-0.2, UInt32(0)), (1.7, UInt32.max),
            (Double.nan, UInt32(0)), (Double.infinity, UInt32.max),
        ])
    func property(opacity: Double, expected: UInt32) {
        #expect(Appearance(opacity: opacity).opacityProperty == expected)
    }
}
