import Glibc
import XToastSystem
import XToastX11

/// Starts the command of `--run`.
enum Runner {
    /// Starts `command` (looked up in PATH) with our standard input, output and error, and the
    /// default signal handling (xtoast itself blocks the signals it reads from a signalfd).
    /// A command that cannot be started ends xtoast with 127, as in a shell.
    static func spawn(_ command: [String]) throws(CommandError) -> Int32 {
        do throws(Errno) {
            return try ChildProcess.spawnSearchingPath(arguments: command)
        } catch {
            throw CommandError(message: "cannot run \"\(command[0])\": \(error)", status: 127)
        }
    }

    /// Runs `command` to its end with no toast (`--inhibit`'s, a `--run` a rule keeps from the
    /// screen): a signal sent to us goes on to it (the terminal's Ctrl-C reaches it already, as
    /// the whole foreground group's); its status, as a shell says it.
    static func runForwardingSignals(_ command: [String]) throws(CommandError) -> Int32 {
        let wakeups: Wakeups
        do throws(SystemFailure) { wakeups = try Wakeups() } catch { throw .failure(error.description) }
        let pid = try spawn(command)
        while true {
            if let status = ChildProcess.reap(pid) { return status.shellStatus }
            for case .signal(let number) in wakeups.waitForSignals() where number != SIGCHLD { kill(pid, number) }
        }
    }
}
