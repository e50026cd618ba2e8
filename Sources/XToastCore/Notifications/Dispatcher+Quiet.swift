/// Quiet that stays quiet (issue #30): while toasts are paused (`xtoast --pause`, the centre's
/// switch) or an application inhibits them (KDE's `Inhibit`, `xtoast --inhibit -- COMMAND`),
/// an application's notification is kept unseen as it comes (in the centre and the
/// history, unread), instead of waiting in the queue to show when the pause ends. As it ends,
/// one toast says what came ("While you were away: 12", "Signal 8, Mail 4"), and a click on it
/// opens the centre: not the flood of a replay, which KDE removed (its bug 440837). Fewer than
/// `summaryFrom`, or `after-quiet = replay`, show as themselves, in turn. Critical ones, and
/// those with a stack tag (a volume bar) or of no named application, are not held: they go
/// through the pause, or wait for its end, as before.
extension Dispatcher {
    /// The summary's id: never a notification's (the service counts them from 1).
    public static let summaryID: UInt32 = 0

    /// Toasts are paused until `until` (nil: not paused).
    mutating func paused(until: Double?, at now: Double) -> [Effect] {
        quiet.pausedUntil = until
        return quietEnds(at: now)
    }

    /// If nothing holds toasts any more (no pause, no inhibition): what was held (and is still
    /// kept) shows, as one summary or each as itself.
    mutating func quietEnds(at now: Double) -> [Effect] {
        guard !quiet.holds else { return [] }
        let held = quiet.held.filter { kept[$0] != nil }
        quiet.held = []
        return cameBack(held, at: now)
    }

    /// The pause is over: what was held (and is still kept) shows as one summary, or each as
    /// itself.
    private mutating func cameBack(_ held: [UInt32], at now: Double) -> [Effect] {
        guard !held.isEmpty else { return [] }
        if case .serving = phase { phase = .serving(idleSince: nil) }
        guard limits.afterQuiet == .summary, held.count >= limits.summaryFrom else {
            var effects: [Effect] = []
            for id in held {
                guard let notification = kept.removeValue(forKey: id) else { continue }
                effects.append(.forget(id))
                entries[id] = Entry(notification: notification)
                line.append(id)
            }
            return effects + bound() + handOut(at: now)
        }
        let summary = Notification(id: Self.summaryID, toast: NotificationToast(summaryOf: held.compactMap { kept[$0] }))
        // As a notification of its own id comes: one still waiting or showing from an earlier
        // pause is replaced in its place, by its tag.
        return notify(summary, at: now)
    }
}

extension NotificationToast {
    /// The summary of `notifications`, kept while toasts were paused (`AwaySummary`), its click
    /// the centre's opening.
    init(summaryOf notifications: [Dispatcher.Notification]) {
        let summary = AwaySummary(apps: notifications.map(\.toast.app))
        let (title, body) = (summary.title, summary.body)
        self.init(
            arguments: [
                "--print-outcome", "--preset", "normal", "--tag", "xtoast-away", "--markup", "--action", "--title",
                NotificationMarkup.escape(title), "--", NotificationMarkup.escape(body),
            ], tag: "xtoast-away", buttonKeys: [], labels: [], hasDefaultAction: true, app: "xtoast", summary: title, body: body,
            whenExpired: .closed, whenActed: .closed)
    }
}
