import Foundation
import XToastSystem

/// A child process started with posix_spawn and a clean signal mask.
///
/// Foundation's Process spawns from libdispatch threads, which block most signals, and the
/// children inherit that mask: an Xvfb started that way ignores SIGTERM and never stops.
final class Child {
    let pid: pid_t
    let command: [String]
    private var exitStatus: Int32?

    /// Starts `command` (looked up in PATH). `stdin`, `stdout`, `stderr` are file paths (nil:
    /// /dev/null); `stdoutDescriptor`, when given, is our descriptor to use as its standard
    /// output instead (a pipe); `fd3` opens a file for writing as descriptor 3. `environment`
    /// changes the inherited environment; a nil value removes the variable.
    init(
        _ command: [String], environment: [String: String?] = [:], stdin: String? = nil, stdout: String? = nil, stderr: String? = nil,
        stdoutDescriptor: Int32? = nil, fd3: String? = nil
    ) throws {
        self.command = command
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let fd3 { posix_spawn_file_actions_addopen(&actions, 3, fd3, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let cArgs = command.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], &actions, &attributes, cArgs, cEnv)
        guard result == 0 else { throw TestFailure("cannot start \(command[0]): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// The exit status (128+N when killed by signal N), or nil if still running after `timeout`.
    func wait(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                // WIFEXITED / WEXITSTATUS / WTERMSIG are macros: decode by hand.
                let signal = status & 0x7f
                exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
                return exitStatus
            }
            if result < 0 { return nil }
            if Date() >= deadline { return nil }
            // Process exit is not an X event; a short poll is the simple portable wait.
            usleep(5_000)
        }
    }

    var isRunning: Bool { wait(timeout: 0) == nil }

    /// Whether it sleeps in its event loop: blocked in poll(2) with no timeout on more than one
    /// descriptor, as xtoast waits for the X connection, signals and timers together (a wait
    /// for one answer of the server polls one). What a process does between X requests sends no
    /// event, so /proc is polled: this says that what it was doing is done.
    var sleepsInItsLoop: Bool {
        // "7 fds nfds timeout …" for poll, "271 fds nfds timeout-pointer …" for ppoll (x86_64).
        let fields = ((try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? "").split(separator: " ")
        guard fields.count > 3, let descriptors = UInt64(fields[2].dropFirst(2), radix: 16), descriptors > 1,
            let timeout = UInt64(fields[3].dropFirst(2), radix: 16)
        else { return false }
        switch fields[0] {
        case "7": return timeout & 0xffff_ffff == 0xffff_ffff  // an int -1
        case "271": return timeout == 0  // no timespec
        default: return false
        }
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Stops it with `signal` and waits; SIGKILL if it does not go within 5 s.
    func stop(with signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        kill(pid, signal)
        if wait(timeout: 5) == nil {
            kill(pid, SIGKILL)
            _ = wait(timeout: 5)
        }
    }

    deinit { stop(with: SIGKILL) }
}

/// A fresh temporary file path.
func temporaryPath(_ suffix: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("xtoast-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))\(suffix)")
        .path
}

/// A config folder (`XDG_CONFIG_HOME`) whose config says `after-quiet = replay`: toasts that
/// waited out quiet (a pause, a lock, a film) show each in turn, not as one summary. The
/// environment to run them with, and the folder to remove.
func replayingAfterQuiet() throws -> (environment: [String: String?], folder: String) {
    let folder = temporaryPath("-replay")
    try FileManager.default.createDirectory(atPath: folder + "/xtoast", withIntermediateDirectories: true)
    try "after-quiet = replay\n".write(toFile: folder + "/xtoast/config", atomically: true, encoding: .utf8)
    return (["XDG_CONFIG_HOME": folder], folder)
}
