import XToastSystem

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
}
