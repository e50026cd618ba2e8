/// How an animation's progress maps to its effect: a value with one pure function.
public enum TimingCurve: Equatable, Sendable, CustomStringConvertible {
    case linear
    /// A CSS-style cubic Bézier from (0,0) to (1,1) with control points (x1,y1) and (x2,y2).
    case cubicBezier(Double, Double, Double, Double)
    /// A damped spring (UIKit's damping ratio and initial velocity) that settles by the end.
    case spring(damping: Double, velocity: Double)

    public static let ease = TimingCurve.cubicBezier(0.25, 0.1, 0.25, 1)
    public static let easeIn = TimingCurve.cubicBezier(0.42, 0, 1, 1)
    public static let easeOut = TimingCurve.cubicBezier(0, 0, 0.58, 1)
    /// UIKit's default animation curve, which the toast design's fades use.
    public static let easeInOut = TimingCurve.cubicBezier(0.42, 0, 0.58, 1)

    /// The curves with a name, as `--easing` takes them (besides `cubic-bezier(…)` and `spring(…)`).
    public static let named: [TimingCurve] = [.linear, .ease, .easeIn, .easeOut, .easeInOut]

    /// As `--easing` takes it.
    public var description: String {
        switch self {
        case .linear: "linear"
        case .ease: "ease"
        case .easeIn: "ease-in"
        case .easeOut: "ease-out"
        case .easeInOut: "ease-in-out"
        case let .cubicBezier(a, b, c, d): "cubic-bezier(\(plain(a)),\(plain(b)),\(plain(c)),\(plain(d)))"
        case let .spring(damping, velocity): "spring(\(plain(damping)),\(plain(velocity)))"
        }
    }

    /// The eased value at `progress` (clamped to 0...1); 0 maps to 0 and 1 to 1.
    public func value(at progress: Double) -> Double {
        let x = progress.isNaN ? 0 : min(max(progress, 0), 1)
        switch self {
        case .linear:
            return x
        case let .cubicBezier(x1, y1, x2, y2):
            if x == 0 || x == 1 { return x }
            return UnitBezier(x1, y1, x2, y2).solve(x)
        case let .spring(damping, velocity):
            return Spring(damping: damping, velocity: velocity).value(at: x)
        }
    }

    /// Parses `linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, `cubic-bezier(a,b,c,d)`
    /// or `spring(damping,velocity)`.
    public init?(parsing text: String) {
        if let curve = Self.named.first(where: { $0.description == text }) {
            self = curve
            return
        }
        if text.hasPrefix("spring("), text.hasSuffix(")") {
            let numbers = text.dropFirst("spring(".count).dropLast().split(separator: ",", omittingEmptySubsequences: false)
                .map { Double($0.filter { $0 != " " }) }
            guard numbers.count == 2, let damping = numbers[0], let velocity = numbers[1],
                (0.05...10).contains(damping), (-50...50).contains(velocity)
            else { return nil }
            self = .spring(damping: damping, velocity: velocity)
            return
        }
        guard text.hasPrefix("cubic-bezier("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst("cubic-bezier(".count).dropLast()
        let numbers = inner.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.filter { $0 != " " }) }
        guard numbers.count == 4, !numbers.contains(nil) else { return nil }
        let n = numbers.map { $0! }
        // As in CSS, the x coordinates must stay in 0...1 so that time runs forwards.
        guard n.allSatisfy(\.isFinite), (0...1).contains(n[0]), (0...1).contains(n[2]) else { return nil }
        self = .cubicBezier(n[0], n[1], n[2], n[3])
    }
}

/// A cubic Bézier in polynomial form, solved for y at a given x the way browsers do:
/// a few Newton steps from a good guess, then bisection if Newton did not converge.
struct UnitBezier {
    let ax, bx, cx, ay, by, cy: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t whose x is `x`, to within `epsilon`.
    func solveCurveX(_ x: Double, epsilon: Double = 1e-7) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            let slope = sampleDerivativeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = x
        while low < high {
            let value = sampleX(t)
            if abs(value - x) < epsilon { return t }
            if x > value { low = t } else { high = t }
            let next = (low + high) / 2
            if next == t { break }
            t = next
        }
        return t
    }

    func solve(_ x: Double) -> Double { sampleY(solveCurveX(x)) }
}
