import Glibc
import XToastRender

/// Starts the command of `--run`.
enum Runner {
    /// Starts `command` (looked up in PATH) with our standard input, output and error, and the
    /// default signal handling (xtoast itself blocks the signals it reads from a signalfd).
    /// A command that cannot be started ends xtoast with 127, as in a shell.
    static func spawn(_ command: [String]) throws(CommandError) -> pid_t {
        let spawn = SpawnAttributes()
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], nil, &spawn.attributes, arguments, environ)
        guard result == 0 else {
            throw CommandError(message: "cannot run \"\(command[0])\": \(Errno(result))", status: 127)
        }
        return pid
    }
}
