/// Whether a toast waits for a user who is away (issue #14), by GNOME Shell's rule: a toast that
/// appears while the user has not touched keyboard or pointer for `threshold` seconds is held
/// past its normal end until they come back, and then stays at least `returnHold` seconds more,
/// so it is still there to read. A toast that appears while the user is there ends as usual:
/// they saw it arrive. Times are the session's clock, in seconds.
public struct IdleHold: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// Off (threshold 0), or the server cannot tell (no MIT-SCREEN-SAVER): nothing is held.
        case off
        /// The user was there when the toast appeared.
        case present
        /// The user was away when it appeared and has not come back yet.
        case away
        /// The user came back at this moment.
        case back(at: Double)
    }

    public let threshold: Double
    public let returnHold: Double
    public private(set) var state: State

    /// `idleSeconds`: the idle time when the toast appeared, nil when it cannot be read.
    public init(threshold: Double, returnHold: Double, idleSeconds: Double?) {
        self.threshold = threshold
        self.returnHold = returnHold
        if let idleSeconds, threshold > 0 {
            state = idleSeconds >= threshold ? .away : .present
        } else {
            state = .off
        }
    }

    /// Whether the session should be woken when the user comes back (`IdleWatch.armReturn`).
    public var watchesReturn: Bool { state == .away }

    /// The user is back (the return alarm fired, or a poll saw the idle time drop).
    public mutating func userReturned(at time: Double) {
        if state == .away { state = .back(at: time) }
    }

    /// When the toast ends, given when it would end without this rule; nil while it is held
    /// for a user who has not come back. A sticky toast (`normal` infinite) stays sticky.
    public func end(normal: Double) -> Double? {
        switch state {
        case .off, .present: normal
        case .away: nil
        case .back(let time): max(normal, time + returnHold)
        }
    }
}
