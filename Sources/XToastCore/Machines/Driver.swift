/// A decision-maker without I/O: events and the time in, effects out. `Session` (one toast) and
/// `Dispatcher` (the notification service) are machines; their interpreters and their tests run
/// them through the same `Driver`.
public protocol Machine: Sendable {
    associatedtype Event: Sendable
    associatedtype Effect: Sendable
    /// Hands `event` to the machine at `now` (monotonic seconds): what to carry out, in order.
    mutating func handle(_ event: Event, at now: Double) -> [Effect]
    /// Whether it is over: nothing more is handed to it.
    var isFinished: Bool { get }
}

/// The one order in which a machine's effects are carried out and its questions answered: the
/// interpreters (`ToastSession`, the notification service) and the tests (`VirtualSession`,
/// the dispatcher's simulation) all run a machine through it, so the order production runs is
/// the order tested (swift-nio's `EmbeddedEventLoop` idea).
///
/// Depth first: an effect's answers are handed to the machine before the effects that came after
/// it, in the order they were given, each with all it causes. A toast that looks at the lock in
/// the middle of its first frame hears the answer, and acts on it, before it says it is up.
///
/// ```
/// driver.handle(event, at: now)
/// while let effect = driver.next(at: now) { driver.answer(carryOut(effect), at: now) }
/// ```
public struct Driver<M: Machine>: Sendable {
    public private(set) var machine: M

    /// What is left to do, innermost last: effects to carry out and answers to hand in.
    private var stack: [[Work]] = []

    private enum Work: Sendable {
        case effect(M.Effect)
        case event(M.Event)
    }

    public init(_ machine: M) { self.machine = machine }

    /// Hands `event` to the machine: its effects come from `next`, before anything left over.
    /// Nothing is handed to a finished machine.
    public mutating func handle(_ event: M.Event, at now: Double) {
        guard !machine.isFinished else { return }
        stack.append(machine.handle(event, at: now).map(Work.effect))
    }

    /// The answers to the effect `next` gave last (a question's, or what carrying it out found):
    /// they are handled before the effects that came after it, each with all it causes.
    public mutating func answer(_ events: [M.Event], at now: Double) {
        if !events.isEmpty { stack.append(events.map(Work.event)) }
    }

    /// The next effect to carry out, handing in the answers waiting before it; nil when all is done.
    public mutating func next(at now: Double) -> M.Effect? {
        while var frame = stack.popLast() {
            guard !frame.isEmpty else { continue }
            let work = frame.removeFirst()
            stack.append(frame)
            switch work {
            case .effect(let effect): return effect
            case .event(let event): handle(event, at: now)
            }
        }
        return nil
    }

    /// Whether anything is left to do. (A closure, not `\.isEmpty`: a key path into a generic
    /// type is built anew at each call in a debug build, and the simulations ask at every step.)
    public var isIdle: Bool { stack.allSatisfy { $0.isEmpty } }
}

/// A toast's session, run in the interpreter's order.
public typealias SessionDriver = Driver<Session>

extension Session: Machine {
    public var isFinished: Bool { outcome != nil }
}

extension Driver where M == Session {
    /// The session it runs.
    public var session: Session { machine }
}
