import Testing

@testable import XToastCore

/// An oracle independent of the implementation: the Bézier in Bernstein form, solved for t by
/// plain bisection (x(t) is monotonic when x1 and x2 lie in 0...1, as CSS requires).
private func referenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
    func bernstein(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }
    var low = 0.0
    var high = 1.0
    for _ in 0..<200 {
        let mid = (low + high) / 2
        if bernstein(x1, x2, mid) < x { low = mid } else { high = mid }
    }
    return bernstein(y1, y2, (low + high) / 2)
}

@Suite("Timing curves")
struct TimingCurveTests {
    @Test("CSS ease at 0.5 is 0.802403")
    func easeReferenceValue() {
        #expect(abs(TimingCurve.ease.value(at: 0.5) - 0.802403) < 1e-5)
    }

    static let namedCurves: [TimingCurve] = [.linear, .ease, .easeIn, .easeOut, .easeInOut]

    @Test("Every curve maps 0 to 0 and 1 to 1", arguments: namedCurves + [.cubicBezier(0.68, -0.55, 0.27, 1.55)])
    func endpoints(curve: TimingCurve) {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
    }

    @Test("Progress outside 0...1 (and NaN) is clamped", arguments: namedCurves)
    func clamping(curve: TimingCurve) {
        #expect(curve.value(at: -0.5) == 0)
        #expect(curve.value(at: 1.5) == 1)
        #expect(curve.value(at: -.infinity) == 0)
        #expect(curve.value(at: .infinity) == 1)
        #expect(curve.value(at: .nan) == 0)
    }

    static let samples: [Double] = [0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.99]

    @Test("Linear is the identity", arguments: samples)
    func linear(x: Double) {
        #expect(TimingCurve.linear.value(at: x) == x)
        // A Bézier with its control points on the diagonal is linear too.
        #expect(abs(TimingCurve.cubicBezier(0, 0, 1, 1).value(at: x) - x) < 1e-6)
        #expect(abs(TimingCurve.cubicBezier(1 / 3, 1 / 3, 2 / 3, 2 / 3).value(at: x) - x) < 1e-6)
    }

    @Test("ease-in-out is point-symmetric: f(x) + f(1 − x) = 1", arguments: samples)
    func easeInOutSymmetry(x: Double) {
        let curve = TimingCurve.easeInOut
        #expect(abs(curve.value(at: x) + curve.value(at: 1 - x) - 1) < 1e-6)
    }

    @Test("ease-in(x) = 1 − ease-out(1 − x)", arguments: samples)
    func easeInMirrorsEaseOut(x: Double) {
        #expect(abs(TimingCurve.easeIn.value(at: x) - (1 - TimingCurve.easeOut.value(at: 1 - x))) < 1e-6)
    }

    @Test("ease-in-out is exactly one half at the middle")
    func easeInOutMiddle() {
        #expect(abs(TimingCurve.easeInOut.value(at: 0.5) - 0.5) < 1e-9)
    }

    static let bezierCases: [(Double, Double, Double, Double)] = [
        (0.25, 0.1, 0.25, 1),  // ease
        (0.42, 0, 1, 1),  // ease-in
        (0, 0, 0.58, 1),  // ease-out
        (0.42, 0, 0.58, 1),  // ease-in-out
        (0.68, -0.55, 0.27, 1.55),  // overshoots at both ends ("back")
        (0.1, 0.9, 0.2, 1),
        (0.9, 0, 0.9, 0.1),
    ]

    @Test("Bézier curves agree with a bisection reference", arguments: bezierCases)
    func matchesReference(points: (Double, Double, Double, Double)) {
        let (x1, y1, x2, y2) = points
        let curve = TimingCurve.cubicBezier(x1, y1, x2, y2)
        for x in Self.samples {
            let expected = referenceBezier(x1, y1, x2, y2, at: x)
            #expect(abs(curve.value(at: x) - expected) < 1e-5, "x = \(x)")
        }
    }

    @Test(
        "Curves whose control points stay in 0...1 never go backwards",
        arguments: namedCurves + [.cubicBezier(1, 0, 0, 1), .cubicBezier(0, 1, 1, 0), .cubicBezier(0.9, 0.1, 0.1, 0.9)])
    func monotonic(curve: TimingCurve) {
        var previous = 0.0
        for step in 0...1000 {
            let value = curve.value(at: Double(step) / 1000)
            #expect(value >= previous - 1e-6, "at \(Double(step) / 1000)")
            #expect((-1e-9...1 + 1e-9).contains(value))
            previous = value
        }
    }

    @Test(
        "Names parse to their curves",
        arguments: [
            ("linear", TimingCurve.linear), ("ease", .ease), ("ease-in", .easeIn), ("ease-out", .easeOut),
            ("ease-in-out", .easeInOut),
        ])
    func parsesNames(text: String, expected: TimingCurve) {
        #expect(TimingCurve(parsing: text) == expected)
    }

    @Test(
        "cubic-bezier(a,b,c,d) parses, with or without spaces; y may leave 0...1",
        arguments: [
            ("cubic-bezier(0.25,0.1,0.25,1)", TimingCurve.cubicBezier(0.25, 0.1, 0.25, 1)),
            ("cubic-bezier(0.25, 0.1, 0.25, 1)", .cubicBezier(0.25, 0.1, 0.25, 1)),
            ("cubic-bezier( 0 , 0 , 1 , 1 )", .cubicBezier(0, 0, 1, 1)),
            ("cubic-bezier(0.68,-0.55,0.27,1.55)", .cubicBezier(0.68, -0.55, 0.27, 1.55)),
            ("cubic-bezier(1,-10,0,10)", .cubicBezier(1, -10, 0, 10)),
        ])
    func parsesBezier(text: String, expected: TimingCurve) {
        #expect(TimingCurve(parsing: text) == expected)
    }

    @Test(
        "Malformed curves are rejected",
        arguments: [
            "", "Ease", "ease ", "ease-in-out-back", "cubic-bezier", "cubic-bezier()",
            "cubic-bezier(0,0,1)", "cubic-bezier(0,0,1,1,1)", "cubic-bezier(0,,1,1)", "cubic-bezier(0,0,1,1",
            "cubic-bezier 0,0,1,1", "cubic-bezier(a,b,c,d)",
            // x outside 0...1 would make time run backwards.
            "cubic-bezier(1.1,0,1,1)", "cubic-bezier(-0.1,0,1,1)", "cubic-bezier(0,0,1.5,1)", "cubic-bezier(0,0,-1,1)",
            // Not numbers a curve can use.
            "cubic-bezier(nan,0,1,1)", "cubic-bezier(0,nan,1,1)", "cubic-bezier(0,0,1,inf)", "cubic-bezier(0,-inf,1,1)",
        ])
    func rejects(text: String) {
        #expect(TimingCurve(parsing: text) == nil)
    }
}
