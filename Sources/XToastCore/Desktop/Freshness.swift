/// How long what was asked of the screen may stand for it (issue #31): the monitors, their
/// docks, a compositor, the fullscreen question. The start-up path asks once, with the
/// connection's first round trips, and the looks before the first frame (the lock, the screen,
/// a fullscreen window, the show) use that answer while nothing can have changed it unseen.
/// Whatever waited makes it stale (the process slept: the pointer may have moved, a monitor
/// gone, a locker come), and so does a watch begun after it was asked (a change in between
/// would come as no event), and a change a watch reports, however soon it is read. The show
/// takes it: a toast on screen asks afresh for its updates.
public struct Freshness<View> {
    private var fresh: View?

    /// `asked`: the view asked at start.
    public init(asked view: View?) { fresh = view }

    /// The view to use now: the fresh one, else `ask()`'s, which stays fresh for the looks
    /// that follow when `keeping` (before the first frame; not for a toast on screen).
    public mutating func use<E: Error>(keeping: Bool = true, orAsk ask: () throws(E) -> View) throws(E) -> View {
        let view: View
        if let fresh { view = fresh } else { view = try ask() }
        fresh = keeping ? view : nil
        return view
    }

    /// The show's view: the fresh one, else `ask()`'s; nothing is fresh after it.
    public mutating func take<E: Error>(orAsk ask: () throws(E) -> View) throws(E) -> View {
        defer { fresh = nil }
        if let fresh { return fresh }
        return try ask()
    }

    /// The fresh view, if there is one, without asking.
    public var current: View? { fresh }

    /// The process slept, began to watch for a change, or heard of one: what was asked is stale.
    public mutating func expire() { fresh = nil }
}
