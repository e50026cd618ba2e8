import XToastCore
import XToastRender
import XToastSystem

/// Whom this process answers to: decided once, first thing in main, from how it was started,
/// and handed down from there (`XToastCommand.caller`). It decides which command line is read,
/// which warnings are said, how a bad icon is taken and what a toast reports at its end.
enum Caller {
    /// A person or a script, with xtoast's own command line.
    case commandLine
    /// A script written for notify-send (xtoast invoked by that name): its command line read as
    /// libnotify's.
    case notifySend(NotifySend.Invocation)
    /// The notification service, which started this process for one notification and writes
    /// its command line into its standard input.
    case notificationService

    /// Decides from the environment the service sets for its toast processes and `arguments`
    /// (argv: the name the program was invoked by, then its command line).
    init(arguments: [String]) throws(CommandError) {
        if Environment.isSet(NotificationChild.environmentVariable) {
            self = .notificationService
        } else if let invocation = try NotifySendMode.invocation(arguments) {
            self = .notifySend(invocation)
        } else {
            self = .commandLine
        }
    }

    /// The warnings not said to this caller: as notify-send, markup that does not parse is shown
    /// plain without a word, as daemons do.
    var unsaidWarnings: Set<String> { isNotifySend ? [ToastPainter.markupWarning] : [] }

    var isNotifySend: Bool {
        if case .notifySend = self { return true }
        return false
    }

    var isNotificationService: Bool {
        if case .notificationService = self { return true }
        return false
    }
}
