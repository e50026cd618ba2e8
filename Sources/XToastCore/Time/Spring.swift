// libm only (exp, sin, cos): the standard library has no elementary functions.
import Glibc

/// A damped spring from 0 to 1 as a timing curve, in closed form for all three regimes, scaled
/// so that it has settled (stays within 1/512 of 1) by the end of the animation, as UIKit's
/// `usingSpringWithDamping:initialSpringVelocity:` does within its duration.
public struct Spring: Equatable, Sendable {
    /// The damping ratio ζ: below 1 it overshoots and rings, 1 is critical, above 1 creeps.
    public let damping: Double
    /// The initial velocity, in whole distances per duration.
    public let velocity: Double
    /// The natural frequency ω (per duration) that makes it settle by progress 1.
    public let frequency: Double

    /// How close "settled" is.
    public static let tolerance = 1.0 / 512

    public init(damping: Double, velocity: Double) {
        self.damping = max(damping, 0.01)
        self.velocity = velocity
        frequency = Spring.settlingFrequency(damping: self.damping, velocity: velocity)
    }

    /// The position at `progress` (0...1); may pass 1 on the way when underdamped.
    public func value(at progress: Double) -> Double {
        guard progress > 0 else { return 0 }
        guard progress < 1 else { return 1 }
        return 1 + displacement(at: progress, frequency: frequency)
    }

    /// y(t) = x(t) − 1, with y(0) = −1 and y′(0) = velocity.
    func displacement(at t: Double, frequency w: Double) -> Double {
        let z = damping
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let b = (velocity - z * w) / wd
            return exp(-z * w * t) * (-cos(wd * t) + b * sin(wd * t))
        } else if z == 1 {
            return exp(-w * t) * (-1 + (velocity - w) * t)
        } else {
            let root = (z * z - 1).squareRoot()
            let r1 = -w * (z - root)
            let r2 = -w * (z + root)
            let c1 = (velocity + r2) / (r1 - r2)
            return c1 * exp(r1 * t) + (-1 - c1) * exp(r2 * t)
        }
    }

    /// The smallest frequency whose motion stays within `tolerance` of the end from progress 1
    /// on. The envelope of the motion bounds it: for ζ < 1, sqrt(1 + b²)·e^(−ζωt); for ζ ≥ 1 the
    /// slower exponential. Found by bisection on that bound at t = 1.
    static func settlingFrequency(damping z: Double, velocity v: Double) -> Double {
        func bound(_ w: Double) -> Double {
            if z < 1 {
                let wd = w * (1 - z * z).squareRoot()
                let b = (v - z * w) / wd
                return (1 + b * b).squareRoot() * exp(-z * w)
            } else if z == 1 {
                // |−1 + (v − ω)t|·e^(−ωt) is largest at t = 1 once ω is large enough.
                return (abs(-1 + (v - w)) + 1) * exp(-w)
            } else {
                let root = (z * z - 1).squareRoot()
                let r1 = -w * (z - root)
                let r2 = -w * (z + root)
                let c1 = (v + r2) / (r1 - r2)
                return abs(c1) * exp(r1) + abs(-1 - c1) * exp(r2)
            }
        }
        var low = 0.1
        var high = 10_000.0
        for _ in 0..<80 {
            let mid = (low + high) / 2
            if bound(mid) > tolerance { low = mid } else { high = mid }
        }
        return high
    }
}
