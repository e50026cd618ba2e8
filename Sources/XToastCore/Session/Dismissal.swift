/// `xtoast --dismiss`, `--dismiss-all` and `--cancel-scheduled`: which toasts another xtoast
/// closes, picked from the live tickets of the root's lists as `Press.target` picks a press's.
public enum Dismissal: Equatable, Sendable {
    /// `--dismiss`: the toast on screen in each list.
    case onScreen
    /// `--dismiss-all`: every toast, on screen or waiting.
    case all
    /// `--cancel-scheduled`: every toast waiting for its `--in`/`--at` time.
    case scheduled

    /// The dismissal a mode asks for; nil for a mode that closes nothing.
    public init?(_ mode: Configuration.Mode) {
        switch mode {
        case .dismiss: self = .onScreen
        case .dismissAll: self = .all
        case .cancelScheduled: self = .scheduled
        default: return nil
        }
    }

    /// The root's lists it looks in: the queue's first toast is on screen, and stacked toasts are
    /// on screen too; scheduled toasts are in a list of their own.
    public var lists: [QueueMember.List] { self == .scheduled ? [.scheduled] : [.queue, .stack] }

    /// The entries it closes among one list's live tickets, in order. With `tag` (`--tag`), every
    /// toast with that tag; `--dismiss` without one, the first of the list that does not stand
    /// aside (for a pause or a fullscreen window): the oldest toast on screen there.
    public func targets(in tickets: [(UInt, Ticket)], tag: String?) -> [UInt] {
        if let tag { return tickets.filter { $0.1.tag == tag }.map(\.0) }
        guard self == .onScreen else { return tickets.map(\.0) }
        return tickets.first { $0.1.pause != .held && $0.1.pause != .aside }.map { [$0.0] } ?? []
    }
}
