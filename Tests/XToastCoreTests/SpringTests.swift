import Testing

@testable import XToastCore

/// Underdamped (0.7 is the HUD's), critically damped, overdamped.
private let dampings: [Double] = [0.3, 0.5, 0.7, 1.0, 1.5, 3.0]
/// Backwards first, from rest, the HUD's 0.5, and a hard push.
private let velocities: [Double] = [-2, 0, 0.5, 3]

/// `count` + 1 evenly spaced points from `start` to `end`, both included.
private func samples(from start: Double, to end: Double, count: Int) -> [Double] {
    (0...count).map { start + (end - start) * Double($0) / Double(count) }
}

@Suite("Spring")
struct SpringTests {
    @Test("Starts at 0 and ends at 1, as every timing curve does", arguments: dampings, velocities)
    func endpoints(damping: Double, velocity: Double) {
        let spring = Spring(damping: damping, velocity: velocity)
        #expect(spring.value(at: 0) == 0)
        #expect(spring.value(at: 1) == 1)
        let curve = TimingCurve.spring(damping: damping, velocity: velocity)
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
    }

    @Test("The closed form starts 1 away from the end with the given velocity", arguments: dampings, velocities)
    func initialConditions(damping: Double, velocity: Double) {
        let spring = Spring(damping: damping, velocity: velocity)
        let y = { (t: Double) in spring.displacement(at: t, frequency: spring.frequency) }
        #expect(abs(y(0) + 1) < 1e-12)
        let h = 1e-6
        let slope = (y(h) - y(-h)) / (2 * h)
        #expect(abs(slope - velocity) < 1e-4, "y′(0) = \(slope)")
    }

    @Test(
        "The closed form solves the spring's equation y″ + 2ζωy′ + ω²y = 0", arguments: dampings, velocities)
    func solvesTheEquation(damping: Double, velocity: Double) {
        let spring = Spring(damping: damping, velocity: velocity)
        let w = spring.frequency
        let y = { (t: Double) in spring.displacement(at: t, frequency: w) }
        let h = 1e-4
        for t in [0.05, 0.1, 0.2, 0.4, 0.7, 0.95] {
            let first = (y(t + h) - y(t - h)) / (2 * h)
            let second = (y(t + h) - 2 * y(t) + y(t - h)) / (h * h)
            let residual = second + 2 * damping * w * first + w * w * y(t)
            // Finite differences are exact to about h² times the fourth derivative, ~ω⁴.
            #expect(abs(residual) < 1e-5 * w * w * w * w, "t = \(t): residual \(residual), ω = \(w)")
        }
    }

    @Test(
        "Settled by its end: from progress 1 on, the spring stays within 1/512 of where it comes to rest",
        arguments: dampings, velocities)
    func settlesByTheEnd(damping: Double, velocity: Double) {
        #expect(Spring.tolerance == 1.0 / 512)
        let spring = Spring(damping: damping, velocity: velocity)
        for t in samples(from: 1, to: 3, count: 4000) {
            let y = spring.displacement(at: t, frequency: spring.frequency)
            #expect(abs(y) <= Spring.tolerance, "t = \(t): \(y) from rest")
        }
    }

    @Test("So the curve jumps by at most 1/512 at its end, where it snaps to exactly 1", arguments: dampings, velocities)
    func noJumpAtTheEnd(damping: Double, velocity: Double) {
        let spring = Spring(damping: damping, velocity: velocity)
        let justBefore = spring.value(at: 1 - 1e-9)
        #expect(abs(justBefore - 1) <= Spring.tolerance + 1e-9, "\(justBefore) just before the end")
    }

    @Test(
        "Underdamped springs overshoot 1 before the end; critical and overdamped ones pushed no harder than 1 never do",
        arguments: dampings, velocities)
    func overshoot(damping: Double, velocity: Double) {
        let spring = Spring(damping: damping, velocity: velocity)
        let highest = samples(from: 0, to: 1, count: 4000).map(spring.value(at:)).max()!
        if damping < 1 {
            #expect(highest > 1, "peaks at \(highest)")
        } else if velocity <= 1 {
            #expect(highest <= 1, "peaks at \(highest)")
        }
    }

    @Test("The HUD's spring (0.7, 0.5) overshoots by a few percent, visibly but not wildly")
    func hudOvershoot() {
        let spring = Spring(damping: 0.7, velocity: 0.5)
        let highest = samples(from: 0, to: 1, count: 4000).map(spring.value(at:)).max()!
        // From rest, ζ = 0.7 overshoots by e^(−πζ/√(1−ζ²)) ≈ 4.6 %; the small push hardly changes that.
        #expect((1.04...1.055).contains(highest), "peaks at \(highest)")
    }

    @Test("A negative initial velocity first moves backwards, below 0", arguments: dampings)
    func backwardsFirst(damping: Double) {
        let spring = Spring(damping: damping, velocity: -2)
        #expect(spring.value(at: 0.001) < 0)
        #expect(Spring(damping: damping, velocity: 0.5).value(at: 0.001) > 0)
    }

    @Test("Damping at or above 1 with no backward push rises steadily", arguments: [1.0, 1.5, 3.0], [0, 0.5])
    func monotonicWhenDamped(damping: Double, velocity: Double) {
        let spring = Spring(damping: damping, velocity: velocity)
        var previous = 0.0
        for x in samples(from: 0, to: 1, count: 2000) {
            let value = spring.value(at: x)
            #expect(value >= previous - 1e-12, "at \(x)")
            previous = value
        }
    }

    // MARK: As a timing curve

    @Test("spring(d,v) parses, with or without spaces, to a curve that is that spring")
    func parses() throws {
        let curve = try #require(TimingCurve(parsing: "spring(0.7,0.5)"))
        #expect(curve == .spring(damping: 0.7, velocity: 0.5))
        #expect(TimingCurve(parsing: "spring( 0.7 , 0.5 )") == curve)
        #expect(curve == Style.hud.easing)
        let spring = Spring(damping: 0.7, velocity: 0.5)
        for x in samples(from: 0, to: 1, count: 20) {
            #expect(curve.value(at: x) == spring.value(at: x))
        }
    }

    @Test(
        "The ends of the accepted ranges parse: damping 0.05...10, velocity −50...50",
        arguments: [
            ("spring(0.05,0)", TimingCurve.spring(damping: 0.05, velocity: 0)), ("spring(10,0)", .spring(damping: 10, velocity: 0)),
            ("spring(1,-50)", .spring(damping: 1, velocity: -50)), ("spring(1,50)", .spring(damping: 1, velocity: 50)),
            ("spring(1,-2.5)", .spring(damping: 1, velocity: -2.5)), ("spring(.3,3)", .spring(damping: 0.3, velocity: 3)),
        ])
    func parsesRanges(text: String, expected: TimingCurve) {
        #expect(TimingCurve(parsing: text) == expected)
    }

    @Test(
        "Malformed springs are rejected",
        arguments: [
            "spring", "spring()", "spring(0.7)", "spring(0.7,0.5,1)", "spring(,0.5)", "spring(0.7,)", "spring(0.7,0.5",
            "spring 0.7,0.5", "Spring(0.7,0.5)", "spring(a,b)", "spring(0.7;0.5)",
            // Out of range: no damping at all would never settle; beyond these nothing useful happens.
            "spring(0,0.5)", "spring(0.04,0)", "spring(10.5,0)", "spring(-1,0)", "spring(0.7,51)", "spring(0.7,-51)",
            "spring(nan,0)", "spring(0.7,nan)", "spring(inf,0)", "spring(0.7,-inf)",
        ])
    func rejects(text: String) {
        #expect(TimingCurve(parsing: text) == nil)
    }

    @Test("Progress outside 0...1 (and NaN) is clamped for springs too")
    func clamping() {
        let curve = TimingCurve.spring(damping: 0.3, velocity: 3)
        #expect(curve.value(at: -0.5) == 0)
        #expect(curve.value(at: 1.5) == 1)
        #expect(curve.value(at: .nan) == 0)
    }
}
