import Glibc
import XToastCore

/// Invoked as `notify-send` (a link of that name, `make install NOTIFY_SEND=1`): notify-send's
/// command line, read into xtoast's before anything else looks at it.
enum NotifySendMode {
    /// notify-send's invocation, nil when invoked as xtoast (`Caller.decide` asks, once).
    static func invocation() -> NotifySend.Invocation? {
        guard let name = CommandLine.arguments.first?.split(separator: "/").last, name == "notify-send" else { return nil }
        do throws(OptionError) {
            return try NotifySend.invocation(Array(CommandLine.arguments.dropFirst()), newID: Int(getpid()))
        } catch {
            // notify-send's own status for a command line it cannot read.
            die("notify-send: \(error.message)", status: ExitStatus.failure)
        }
    }

    /// The command line notify-send's was turned into. Help and version are notify-send's; `-p`
    /// prints the id before the toast is sent.
    static func arguments(_ invocation: NotifySend.Invocation) throws(CommandError) -> [String] {
        switch invocation.mode {
        case .help:
            try Output.write(NotifySend.help)
            exit(ExitStatus.success)
        case .version:
            try Output.write("notify-send (\(Documentation.version))\n")
            exit(ExitStatus.success)
        case .show:
            for warning in invocation.warnings { warn("notify-send: \(warning)") }
            if let id = invocation.printedID { try Output.write("\(id)\n") }
            return invocation.arguments
        }
    }
}
