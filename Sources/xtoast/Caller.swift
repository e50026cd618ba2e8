import XToastCore
import XToastSystem

/// Whom this process answers to: decided once, first thing in main, from how it was started. It
/// decides which command line is read, which warnings are said, how a bad icon is taken and
/// what a toast reports at its end; nothing else asks how the process was started.
enum Caller {
    /// A person or a script, with xtoast's own command line.
    case commandLine
    /// A script written for notify-send (xtoast invoked by that name): its command line read as
    /// libnotify's.
    case notifySend(NotifySend.Invocation)
    /// The notification service, which started this process for one notification.
    case notificationService

    /// This process's caller.
    nonisolated(unsafe) private(set) static var current = Caller.commandLine

    /// Decides from the environment the service sets for its toast processes and the name the
    /// program was invoked by.
    static func decide() {
        if Environment.isSet(NotificationChild.environmentVariable) {
            current = .notificationService
        } else if let invocation = NotifySendMode.invocation() {
            current = .notifySend(invocation)
        }
    }

    /// The service's first toast process, forked from it: its caller from now on.
    static func becomeTheServicesToastProcess() { current = .notificationService }

    /// The command line xtoast reads: its own, notify-send's turned into one, or the one the
    /// service writes into its standard input.
    static func arguments() throws(CommandError) -> [String] {
        switch current {
        case .commandLine: Array(CommandLine.arguments.dropFirst())
        case .notifySend(let invocation): try NotifySendMode.arguments(invocation)
        case .notificationService: NotificationChildMode.arguments()
        }
    }

    static var isNotifySend: Bool {
        if case .notifySend = current { return true }
        return false
    }

    static var isNotificationService: Bool {
        if case .notificationService = current { return true }
        return false
    }
}
