/// The one order in which a session's effects are carried out and its questions answered: the
/// interpreter (`ToastSession`) and the tests (`VirtualSession`) both run a session through it,
/// so the order production runs is the order tested (swift-nio's `EmbeddedEventLoop` idea).
///
/// Depth first: an effect's answers are handed to the machine before the effects that came after
/// it, in the order they were given, each with all it causes. A toast that looks at the lock in
/// the middle of its first frame hears the answer, and acts on it, before it says it is up.
///
/// ```
/// driver.handle(event, at: now)
/// while let effect = driver.next(at: now) { driver.answer(carryOut(effect), at: now) }
/// ```
public struct SessionDriver: Sendable {
    public private(set) var session: Session

    /// What is left to do, innermost last: effects to carry out and answers to hand in.
    private var stack: [[Work]] = []

    private enum Work: Sendable {
        case effect(Session.Effect)
        case event(Session.Event)
    }

    public init(_ session: Session) { self.session = session }

    /// Hands `event` to the machine: its effects come from `next`, before anything left over.
    /// Nothing is handed to a finished machine.
    public mutating func handle(_ event: Session.Event, at now: Double) {
        guard session.outcome == nil else { return }
        stack.append(session.handle(event, at: now).map(Work.effect))
    }

    /// The answers to the effect `next` gave last (a question's, or what carrying it out found):
    /// they are handled before the effects that came after it, each with all it causes.
    public mutating func answer(_ events: [Session.Event], at now: Double) {
        if !events.isEmpty { stack.append(events.map(Work.event)) }
    }

    /// The next effect to carry out, handing in the answers waiting before it; nil when all is done.
    public mutating func next(at now: Double) -> Session.Effect? {
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

    /// Whether anything is left to do.
    public var isIdle: Bool { stack.allSatisfy(\.isEmpty) }
}
