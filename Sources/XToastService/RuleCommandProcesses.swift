import CGio
import Glibc
import XToastCore
import XToastSystem

/// The rules' commands as processes (what to run, how long, and what a failure says is the
/// dispatcher's, `RuleCommands`): each started from `PATH` with the service's environment and
/// the notification's fields, its standard input, output and error `/dev/null` (nothing it
/// prints reaches anyone, so nothing it prints is unbounded), in a process group of its own so
/// that a kill reaches what it started too. GLib tells its end.
final class RuleCommandProcesses {
    private var pids: [Int: pid_t] = [:]
    /// Where ends go (the service's dispatcher).
    var tell: (Int, RuleCommands.End) -> Void = { _, _ in }

    init() {}

    /// Starts command `id`: its end is told when it comes; nil, or why it could not start (the
    /// answer to the dispatcher's effect, handed in in the driver's order, not told).
    func run(_ id: Int, _ command: [String], environment: [String]) -> RuleCommands.End? {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let ours = Environment.all().filter { entry in !environment.contains { $0.prefix { $0 != "=" } == entry.prefix { $0 != "=" } } }
        do throws(Errno) {
            let descriptor = null >= 0 ? null : nil
            let pid = try ChildProcess.spawnSearchingPath(
                arguments: command, environment: ours + environment,
                standard: ChildProcess.StandardDescriptors(input: descriptor, output: descriptor, error: descriptor), ownGroup: true)
            pids[id] = pid
            let context = UnsafeMutableRawPointer(bitPattern: UInt(id))
            g_child_watch_add(pid, onCommandEnded, context)
            return nil
        } catch {
            return .couldNotStart(error.description)
        }
    }

    /// Kills command `id` and its process group.
    func kill(_ id: Int) {
        guard let pid = pids[id] else { return }
        Glibc.kill(-pid, SIGKILL)
    }

    fileprivate func ended(_ id: Int, waitStatus: Int32) {
        guard let pid = pids.removeValue(forKey: id) else { return }
        g_spawn_close_pid(pid)
        tell(id, .status(WaitStatus(raw: waitStatus).shellStatus))
    }

    /// The one set of commands of this process, for GLib's C callback.
    nonisolated(unsafe) static var current: RuleCommandProcesses?
}

private let onCommandEnded: GChildWatchFunc = { _, status, context in
    RuleCommandProcesses.current?.ended(Int(bitPattern: context), waitStatus: status)
}
