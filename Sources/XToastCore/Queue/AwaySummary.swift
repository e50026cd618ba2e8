/// No flood after quiet (issue #30): when a pause, an inhibition, a locked screen or a film ends
/// with several toasts waiting, one toast says what came, "While you were away: 12" over
/// "Signal 8, Mail 4" (by count, then name), and a click on it opens the centre, where the rest
/// wait unseen. The notification service summarises the notifications it held itself
/// (`Dispatcher+Quiet.swift`); toasts waiting in the queue are summarised by the first of them
/// whose turn comes (`QueueProtocol.Turn.mineBack`, docs/protocol.md).
public struct AwaySummary: Equatable, Sendable {
    /// Fewer toasts than this that waited show as themselves, in turn.
    public static let threshold = 3
    /// Applications named at most; the rest are "…".
    public static let namedApps = 5
    /// How long a summary holds: as long as an application's notification does (the `normal`
    /// preset's 10 s, docs/notifications.md), whatever the summarising toast asked for itself.
    public static var hold: DisplayDuration { Style.normal.defaultDuration }

    /// How many notifications came from each application.
    public private(set) var counts: [String: Int] = [:]

    /// The summary of toasts from these applications, one name each.
    public init(apps names: [String]) {
        for name in names { add(Ticket.Away(name)) }
    }

    /// The summary of one toast's part so far.
    public init(_ first: Ticket.Away) { add(first) }

    /// Counts one more toast's part: a burst's toast stands for all of its notifications.
    public mutating func add(_ away: Ticket.Away) {
        counts[away.name, default: 0] += away.count
    }

    /// How many notifications it stands for.
    public var count: Int { counts.values.reduce(0, +) }
    /// "While you were away: 12".
    public var title: String { "While you were away: \(count)" }

    /// "Signal 8, Mail 4": by count, then name.
    public var body: String {
        let sorted = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        var body = sorted.prefix(Self.namedApps).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        if sorted.count > Self.namedApps { body += ", …" }
        return body
    }

    /// What a toast shows instead of its own content once it summarises.
    public var content: ToastContent { ToastContent(message: body, title: title) }
}
