/// `xtoast --press [LABEL]`: a click from the keyboard, without grabbing a key. The command
/// picks the toast on screen from the tickets (which carry their buttons' labels) and sends it
/// a `press` command; the toast takes it as the click it stands for, so it ends exactly as a
/// click with the mouse would end it (the same outcome, `--print-outcome` word and status).
public enum Press {
    /// The labels a ticket publishes: all of them, or none when one could not be read back
    /// (a ticket that does not read counts as gone, so it must never carry one). A toast with
    /// no labels published can still be pressed, on its body.
    public static func publishable(_ buttons: [String]) -> [String] {
        let fits = buttons.count <= Ticket.buttonLimit && buttons.allSatisfy(Ticket.isValidTag)
        return fits ? buttons : []
    }

    /// Where a press goes: the ticket and the command's argument (0: the toast itself; N: its
    /// button N, from 1).
    public struct Target: Equatable, Sendable {
        public var entry: UInt
        public var argument: Int
    }

    /// The toast to press, from the live tickets of the queue and the stack, in order. The
    /// candidates are the toasts on screen: the queue's first that does not stand aside for a
    /// pause, then the stacked ones, oldest first. Without a label the first candidate's body is
    /// pressed; with one, the first candidate that has a button with that label. Nil: nothing
    /// on screen (has that button).
    public static func target(label: String?, queue: [(UInt, Ticket)], stack: [(UInt, Ticket)]) -> Target? {
        let onScreen = Array(queue.filter { $0.1.pause != .held }.prefix(1)) + stack
        guard let label else { return onScreen.first.map { Target(entry: $0.0, argument: 0) } }
        for (entry, ticket) in onScreen {
            if let index = ticket.buttons.firstIndex(of: label) { return Target(entry: entry, argument: index + 1) }
        }
        return nil
    }

    /// What a press with `argument` means to a toast with `buttons` buttons: a click on its
    /// body or on one of them; nil for a button it does not have (a forged or stale message).
    public static func click(argument: Int, buttons: Int) -> Outcome? {
        if argument == 0 { return .clicked }
        return argument >= 1 && argument <= buttons ? .button(argument - 1) : nil
    }

    /// A command from another xtoast as the session's event: a press is a click.
    public static func event(_ command: RemoteCommand, argument: Int, buttons: Int) -> Session.Event? {
        guard command == .press else { return .remote(command) }
        return click(argument: argument, buttons: buttons).map { .click($0) }
    }
}
