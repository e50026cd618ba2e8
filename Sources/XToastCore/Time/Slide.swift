/// A move from one place to another over time: how stacked toasts close the gap one leaves.
/// Like the timeline, a pure function of time, never accumulated frame by frame.
public struct Slide: Equatable, Sendable {
    public var from: Int
    public var to: Int
    public var start: Double
    public var duration: Double
    public var curve: TimingCurve

    public init(from: Int, to: Int, start: Double, duration: Double, curve: TimingCurve) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration
        self.curve = curve
    }

    /// The position at `time`, rounded to a whole pixel.
    public func value(at time: Double) -> Int {
        guard duration > 0, time < start + duration else { return to }
        let eased = curve.value(at: (time - start) / duration)
        return Int((Double(from) + Double(to - from) * eased).rounded())
    }

    public func isFinished(at time: Double) -> Bool { time >= start + duration }
}

/// Stacked toasts (`--stack`) line up from their edge: each sits past the ones before it.
public enum Stack {
    /// How far from its own place a toast sits: the heights of the toasts before it, each with
    /// `gap` pixels after it.
    public static func shift(after heights: [Int], gap: Int) -> Int {
        heights.reduce(0) { $0 + $1 + gap }
    }
}
