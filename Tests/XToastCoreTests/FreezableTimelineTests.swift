import Testing

@testable import XToastCore

/// The toast design: fade in 0.2 s, hold 2 s, fade out 0.8 s, ease-in-out: exit at 2.2, gone at 3.0.
private let toastFade = Motion.fade(in: 0.2, out: 0.8, curve: .easeInOut)
private let frame = 1.0 / 60
private let minimum = Style.toast.hoverMinimumHold

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
private func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { a.map { close($0, b, tolerance) } ?? false }

private func frozen(hold: Double? = 2, motion: Motion = toastFade) -> FreezableTimeline {
    FreezableTimeline(Timeline(motion: motion, hold: hold), minimumHold: minimum)
}

/// Every moment from `from` to `to` in steps of `step`.
private func moments(_ from: Double, _ to: Double, step: Double = 0.01) -> [Double] {
    stride(from: from, through: to, by: step).map { $0 }
}

@Suite("Freezable timeline (the pointer over the toast, the user away)")
struct FreezableTimelineTests {
    @Test("The minimum hold after the pointer leaves is one second")
    func minimumIsOneSecond() {
        #expect(Style.toast.hoverMinimumHold == 1)
    }

    @Test(
        "Without the pointer it is the timeline itself",
        arguments: [
            Timeline(motion: toastFade, hold: 2), Timeline(motion: toastFade, hold: 0), Timeline(motion: toastFade, hold: nil),
            Timeline(motion: Style.alert.motion, hold: 0.9), Timeline(motion: Style.hud.motion, hold: 1),
            Timeline(motion: toastFade, hold: 2).withoutMotion, Timeline(motion: .none, hold: 0),
        ])
    func untouchedIsTheTimeline(timeline: Timeline) {
        let clock = FreezableTimeline(timeline, minimumHold: minimum)
        for time in moments(0, 4.5, step: 0.005) {
            #expect(clock.phase(at: time) == timeline.phase(at: time), "at \(time)")
            #expect(clock.appearance(at: time) == timeline.appearance(at: time), "at \(time)")
            #expect(clock.nextFrameTime(after: time, frameInterval: frame) == timeline.nextFrameTime(after: time, frameInterval: frame))
            #expect(clock.nextPhaseBoundary(after: time) == timeline.nextPhaseBoundary(after: time), "at \(time)")
        }
    }

    @Test("Over a holding toast the clock stands still; after leaving, the hold left (1.2 s) then the exit")
    func holdStandsStill() {
        var clock = frozen()
        clock.freeze(at: 1.0)
        #expect(clock.isFrozen)
        for time in [1.0, 2.2, 2.6, 3.0, 50, 10_000] {
            #expect(clock.phase(at: time) == .holding)
            #expect(clock.appearance(at: time) == .shown)
        }
        // Nothing moves and nothing is due: no wake-ups while held.
        #expect(clock.nextFrameTime(after: 1.0, frameInterval: frame) == nil)
        #expect(clock.nextPhaseBoundary(after: 1.0) == nil)

        clock.thaw(at: 50)
        #expect(!clock.isFrozen)
        #expect(close(clock.nextFrameTime(after: 50, frameInterval: frame), 51.2, 1e-6))
        #expect(clock.phase(at: 51.199) == .holding)
        #expect(clock.phase(at: 51.2) == .leaving)
        #expect(close(clock.appearance(at: 51.6).opacity, 0.5, 1e-6))
        #expect(clock.phase(at: 51.999) == .leaving)
        #expect(clock.isFinished(at: 52.0))
        #expect(clock.appearance(at: 52.0) == .hidden)
    }

    @Test(
        "After leaving it holds what was left, but at least the minimum",
        arguments: [
            // entered, left, exit starts
            (0.5, 0.7, 2.4),  // 1.7 s left
            (1.0, 1.1, 2.3),  // 1.2 s left
            (1.5, 4.0, 5.0),  // 0.7 s left: the minimum
            (2.0, 2.1, 3.1),  // 0.2 s left: the minimum
            (2.199, 9.0, 10.0),
        ])
    func leftoverOrMinimum(entered: Double, left: Double, exitStart: Double) {
        var clock = frozen()
        clock.freeze(at: entered)
        clock.thaw(at: left)
        let boundary = clock.nextPhaseBoundary(after: left) ?? .nan
        #expect(close(boundary, exitStart, 1e-9))
        #expect(clock.phase(at: boundary - 1e-6) == .holding)
        #expect(clock.phase(at: boundary) == .leaving)
        #expect(clock.phase(at: boundary + 0.8 - 1e-6) == .leaving)
        #expect(clock.isFinished(at: boundary + 0.8 + 1e-9))
    }

    @Test("Hover during the entrance: the entrance plays out, then it holds; the whole hold is left")
    func enteredWhileEntering() {
        var clock = frozen()
        let timeline = clock.timeline
        clock.freeze(at: 0.1)
        for time in moments(0.1, 0.195, step: 0.005) {
            #expect(clock.appearance(at: time) == timeline.appearance(at: time))
            #expect(clock.phase(at: time) == .entering)
        }
        #expect(close(clock.nextFrameTime(after: 0.1, frameInterval: frame), 7 * frame, 1e-6))
        #expect(close(clock.nextFrameTime(after: 0.19, frameInterval: frame), 0.2, 1e-6))
        #expect(clock.phase(at: 0.2) == .holding)
        #expect(clock.nextFrameTime(after: 0.2, frameInterval: frame) == nil)
        #expect(clock.appearance(at: 30) == .shown)

        clock.thaw(at: 10)
        #expect(close(clock.nextPhaseBoundary(after: 10), 12, 1e-6))
    }

    @Test("In and out during the entrance: the hold is as if nothing happened (2 s > the minimum)")
    func inAndOutWhileEntering() {
        var clock = frozen()
        clock.freeze(at: 0.05)
        clock.thaw(at: 0.15)
        #expect(clock.phase(at: 0.15) == .entering)
        #expect(close(clock.nextPhaseBoundary(after: 0.15), 0.2, 1e-6))
        #expect(close(clock.nextPhaseBoundary(after: 0.2), 2.2, 1e-6))
        #expect(clock.isFinished(at: 3.0))
    }

    @Test("A short toast (hold 0.3) touched during its entrance still holds the minimum after the pointer leaves")
    func shortToastGetsTheMinimum() {
        var clock = frozen(hold: 0.3)
        clock.freeze(at: 0.1)
        clock.thaw(at: 0.15)
        #expect(close(clock.nextPhaseBoundary(after: 0.2), 1.15, 1e-6))
    }

    @Test("A fading toast comes back: half faded, it takes half a fade-in (0.1 s) along ease-out")
    func comesBack() {
        var clock = frozen()
        // Halfway through the ease-in-out exit (2.2 + 0.4): opacity 0.5.
        #expect(close(clock.appearance(at: 2.6).opacity, 0.5, 1e-6))
        clock.freeze(at: 2.6)
        #expect(close(clock.appearance(at: 2.6).opacity, 0.5, 1e-6))
        #expect(clock.phase(at: 2.6) == .entering)
        // Ease-out (0, 0, 0.58, 1) at 0.5 is 0.68.
        let halfway = clock.appearance(at: 2.65).opacity
        #expect(close(halfway, 0.5 + 0.5 * TimingCurve.easeOut.value(at: 0.5), 1e-9))
        #expect(close(halfway, 0.84, 0.005), "\(halfway)")
        // Rising all the way.
        var previous = 0.5
        for time in moments(2.6, 2.7, step: 0.002) {
            let opacity = clock.appearance(at: time).opacity
            #expect(opacity >= previous - 1e-9)
            previous = opacity
        }
        #expect(clock.phase(at: 2.701) == .holding)
        #expect(clock.appearance(at: 2.701) == .shown)
        #expect(clock.appearance(at: 100) == .shown)
        // Frames while it comes back, none after.
        #expect(close(clock.nextFrameTime(after: 2.61, frameInterval: frame), 157 * frame, 1e-6))
        #expect(close(clock.nextFrameTime(after: 2.69, frameInterval: frame), 2.7, 1e-6))
        #expect(clock.nextFrameTime(after: 2.701, frameInterval: frame) == nil)

        // Nothing was left of the hold: the minimum, then the whole exit again.
        clock.thaw(at: 5)
        #expect(close(clock.nextPhaseBoundary(after: 5), 6, 1e-6))
        #expect(close(clock.appearance(at: 6.4).opacity, 0.5, 1e-6))
        #expect(clock.isFinished(at: 6.8))
    }

    @Test(
        "The way back takes the fade-in's duration times the opacity lost",
        arguments: [(2.2 + 0.8 * 0.25, 0.2 * (1 - TimingCurve.easeInOut.value(at: 0.75))), (2.99, 0.2 * 0.9999)])
    func comebackDuration(entered: Double, expected: Double) {
        var clock = frozen()
        let lost = 1 - clock.appearance(at: entered).opacity
        clock.freeze(at: entered)
        let end = clock.nextPhaseBoundary(after: entered)!
        #expect(close(end - entered, 0.2 * lost, 1e-9))
        #expect(close(end - entered, expected, 1e-3))
    }

    @Test("Pointer off during the way back: it finishes coming back, holds the minimum from the leave, then leaves")
    func leftDuringComeback() {
        var clock = frozen()
        clock.freeze(at: 2.6)
        clock.thaw(at: 2.65)
        #expect(clock.phase(at: 2.68) == .entering)
        #expect(clock.appearance(at: 2.68).opacity > clock.appearance(at: 2.65).opacity)
        #expect(clock.phase(at: 2.701) == .holding)
        #expect(close(clock.nextPhaseBoundary(after: 2.701), 3.65, 1e-6))
        #expect(clock.phase(at: 3.65) == .leaving)
        #expect(close(clock.appearance(at: 4.05).opacity, 0.5, 1e-6))
        #expect(clock.isFinished(at: 4.45))
    }

    @Test("A bouncing alert caught growing out shrinks back to its size, continuously")
    func bounceComesBack() {
        var clock = frozen(hold: 0.9, motion: Style.alert.motion)
        let exitStart = clock.timeline.exitStart!
        let caught = exitStart + 0.2
        let before = clock.appearance(at: caught)
        #expect(before.scale > 1.05 && before.opacity < 0.9)
        clock.freeze(at: caught)
        #expect(clock.appearance(at: caught) == before)
        let end = clock.nextPhaseBoundary(after: caught)!
        #expect(end > caught)
        let middle = clock.appearance(at: (caught + end) / 2)
        #expect(middle.scale < before.scale && middle.scale > 1)
        #expect(middle.opacity > before.opacity && middle.opacity < 1)
        #expect(clock.appearance(at: end) == .shown)
    }

    @Test("Repeated visits: the hold counts only the time the pointer was away")
    func repeatedVisits() {
        var clock = frozen(hold: 5)  // exit at 5.2
        clock.freeze(at: 1)  // 4.2 left
        clock.thaw(at: 2)  // exit at 6.2
        #expect(close(clock.nextPhaseBoundary(after: 2), 6.2, 1e-6))
        clock.freeze(at: 3)  // 3.2 left
        #expect(clock.nextPhaseBoundary(after: 3) == nil)
        clock.thaw(at: 10)
        #expect(close(clock.nextPhaseBoundary(after: 10), 13.2))
        // Away: 0.8 + 1 + 3.2 = 5 s of hold, as asked.
        clock.freeze(at: 13.6)  // leaving: back in 0.2 × (1 − opacity)
        #expect(clock.phase(at: 13.6) == .entering)
        clock.thaw(at: 14)
        #expect(close(clock.nextPhaseBoundary(after: 14), 15, 1e-6))
        #expect(clock.isFinished(at: 15.8))
    }

    @Test("A second enter, or a leave without an enter, changes nothing")
    func repeatedEventsAreIgnored() {
        var clock = frozen()
        clock.thaw(at: 1)
        #expect(clock == frozen())
        clock.freeze(at: 1)
        let once = clock
        clock.freeze(at: 1.5)
        #expect(clock == once)
        clock.thaw(at: 2)
        clock.thaw(at: 2.5)
        #expect(close(clock.nextPhaseBoundary(after: 2.5), 3.2, 1e-6))
    }

    @Test("Entering a finished toast does nothing", arguments: [3.0, 3.5, 1000])
    func enteredAfterFinished(time: Double) {
        var clock = frozen()
        clock.freeze(at: time)
        #expect(!clock.isFrozen)
        #expect(clock.isFinished(at: time))
        #expect(clock == frozen())
    }

    @Test("A sticky toast stays sticky after a visit")
    func stickyStaysSticky() {
        var clock = frozen(hold: nil)
        clock.freeze(at: 1)
        clock.thaw(at: 2)
        #expect(clock.phase(at: 1_000_000) == .holding)
        #expect(clock.nextFrameTime(after: 2, frameInterval: frame) == nil)
        #expect(clock.nextPhaseBoundary(after: 2) == nil)
    }

    @Test("Without motion (no compositor) it simply stays, then goes the minimum after the pointer leaves")
    func withoutMotion() {
        var clock = FreezableTimeline(Timeline(motion: toastFade, hold: 2).withoutMotion, minimumHold: minimum)
        clock.freeze(at: 2.9)  // 0.1 s left of its 3 s
        #expect(clock.appearance(at: 2.9) == .shown)
        clock.thaw(at: 20)
        #expect(close(clock.nextPhaseBoundary(after: 20), 21, 1e-6))
        #expect(clock.phase(at: 20.999) == .holding)
        #expect(clock.isFinished(at: 21))
    }

    @Test("Time never runs back before the last event")
    func timeIsMonotonic() {
        var clock = frozen()
        clock.freeze(at: 2.6)
        // Asked about a moment before the event: the answer is as of the event.
        #expect(clock.appearance(at: 1.0) == clock.appearance(at: 2.6))
        #expect(clock.phase(at: 1.0) == .entering)
        // An event stamped earlier than the last counts as at the last.
        clock.thaw(at: 2.0)
        #expect(close(clock.nextPhaseBoundary(after: 2.701), 3.6, 1e-6))
    }

    @Test(
        "A replacing toast (a box moving into place) comes back over the move's duration",
        arguments: [0.25])
    func replacingComesBack(duration: Double) {
        let motion = Motion.replacing(over: duration, curve: .easeOut, exit: toastFade.exit)
        var clock = frozen(hold: 1, motion: motion)
        let exitStart = clock.timeline.exitStart!
        let entered = exitStart + 0.4  // half the ease-in-out exit: half lost
        clock.freeze(at: entered)
        #expect(close(clock.nextPhaseBoundary(after: entered)!, entered + duration / 2, 1e-6))
        #expect(clock.appearance(at: entered + 1) == .shown)
    }
}
