import Glibc
import XToastCore

/// Invoked as `notify-send` (a link of that name, `make install NOTIFY_SEND=1`): notify-send's
/// command line, read into xtoast's before anything else looks at it.
enum NotifySendMode {
    /// notify-send's invocation from argv, nil when invoked as xtoast (`Caller` asks, once).
    static func invocation(_ arguments: [String]) throws(CommandError) -> NotifySend.Invocation? {
        guard let name = arguments.first?.split(separator: "/").last, name == "notify-send" else { return nil }
        do throws(OptionError) {
            return try NotifySend.invocation(Array(arguments.dropFirst()), newID: Int(getpid()))
        } catch {
            // notify-send's own status for a command line it cannot read.
            throw .failure("notify-send: \(error.message)")
        }
    }

    /// Runs the command line notify-send's was turned into; the exit status. Help and version
    /// are notify-send's; `-p` prints the id before the toast is sent.
    static func run(_ invocation: NotifySend.Invocation) throws(CommandError) -> Int32 {
        switch invocation.mode {
        case .help:
            try Output.write(NotifySend.help)
            return ExitStatus.success
        case .version:
            try Output.write("notify-send (\(Documentation.version))\n")
            return ExitStatus.success
        case .show:
            for warning in invocation.warnings { warn("notify-send: \(warning)") }
            if let id = invocation.printedID { try Output.write("\(id)\n") }
            return try XToastCommand(arguments: invocation.arguments, caller: .notifySend(invocation)).run()
        }
    }
}
