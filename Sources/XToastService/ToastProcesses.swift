import CGio
import Glibc
import XToastCore
import XToastSystem
import XToastX11

/// The notification service's toast processes: one `xtoast` per notification, started from this
/// same binary, each an ordinary toast in the display's queue (`NotificationChild` says how they
/// talk). Which process gets what and when is the dispatcher's (`Dispatcher`); this starts them,
/// writes their command lines, reads what they write and hears their ends, and tells the service.
final class ToastProcesses {
    /// A process started without work, waiting for its command line on `input`.
    struct Spare {
        var pid: pid_t
        var input: Int32
        var output: Int32
    }

    /// What the service hears from its processes.
    enum News {
        case queued(pid_t)
        case ended(pid_t, report: NotificationChild.Report?, status: Int32)
    }

    /// Bytes of a toast's output read at most (`queued`, `--print-outcome`'s word, a label, the
    /// click's time).
    static let outputLimit = 4096

    /// A live process: its output's read end, GLib's watch on it, and what it wrote so far.
    private final class Process {
        let pid: pid_t
        var input: Int32
        let output: Int32
        var outputWatch: guint = 0
        var written: [UInt8] = []
        var saidQueued = false

        init(_ spare: Spare) {
            (pid, input, output) = (spare.pid, spare.input, spare.output)
        }
    }

    private var processes: [pid_t: Process] = [:]
    /// Where news goes (the service's dispatcher).
    var tell: (News) -> Void = { _ in }

    init() {}

    /// Starts a process with no work yet, or adopts `forked` (the first, forked as the service
    /// started); its pid, nil when it cannot start.
    func startSpare(adopting forked: Spare? = nil) -> (pid: pid_t?, failure: String?) {
        let spare: Spare
        if let forked {
            spare = forked
        } else {
            do throws(SpawnFailure) {
                spare = try Self.spawn()
            } catch {
                return (nil, error.description)
            }
        }
        let process = Process(spare)
        processes[spare.pid] = process
        process.outputWatch = g_unix_fd_add(
            spare.output, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue), onOutput,
            Unmanaged.passUnretained(self).toOpaque())
        g_child_watch_add(spare.pid, onChildEnded, Unmanaged.passUnretained(self).toOpaque())
        return (spare.pid, nil)
    }

    /// Writes `arguments` into `pid`'s standard input, whole, and closes it: whether it went.
    /// Non-blocking: the pipe's buffer takes it all, or the hand-over fails; the service never
    /// waits for a child. A process that did not get it whole is killed (its end is no one's).
    func hand(_ arguments: [String], to pid: pid_t) -> Bool {
        guard let process = processes[pid], process.input >= 0 else { return false }
        defer {
            close(process.input)
            process.input = -1
        }
        let bytes = NotificationChild.encode(arguments)
        var done = 0
        while bytes.count <= NotificationChild.argumentsByteLimit && done < bytes.count {
            guard
                case .success(let count) = retryingOnInterrupt({
                    bytes[done...].withUnsafeBytes { write(process.input, $0.baseAddress, $0.count) }
                }),
                count > 0
            else { break }
            done += count
        }
        if done == bytes.count && !bytes.isEmpty { return true }
        kill(pid, SIGKILL)
        return false
    }

    /// Closes a spare's input: with no command line it ends without a word.
    func endSpare(_ pid: pid_t) {
        guard let process = processes[pid], process.input >= 0 else { return }
        close(process.input)
        process.input = -1
    }

    /// Closes the toast of `pid` (dismissed). Its signals were blocked from its start, so even
    /// one that has not read them yet takes this as a dismissal, never by SIGUSR1's default action.
    func dismiss(_ pid: pid_t) {
        if processes[pid] != nil { kill(pid, SIGUSR1) }
    }

    // MARK: GLib's news

    fileprivate func outputReady(_ descriptor: Int32) -> Bool {
        guard let process = processes.values.first(where: { $0.output == descriptor }) else { return false }
        guard read(process) else {
            // At its end: the rest is read when the process has ended.
            process.outputWatch = 0
            return false
        }
        return true
    }

    fileprivate func ended(_ pid: pid_t, waitStatus: Int32) {
        g_spawn_close_pid(pid)
        guard let process = processes.removeValue(forKey: pid) else { return }
        if process.outputWatch != 0 { g_source_remove(process.outputWatch) }
        while read(process) {}
        close(process.output)
        if process.input >= 0 { close(process.input) }
        let report = process.written.isEmpty ? nil : NotificationChild.Report(parsing: String(decoding: process.written, as: UTF8.self))
        tell(.ended(pid, report: report, status: WaitStatus(raw: waitStatus).shellStatus))
    }

    /// Reads what `process` wrote, up to `outputLimit`; false at its end (or when nothing more
    /// is there now). Its `queued` line is news at once.
    private func read(_ process: Process) -> Bool {
        guard let bytes = Descriptor.readAvailable(process.output, limit: 1024), !bytes.isEmpty else { return false }
        process.written += bytes.prefix(max(Self.outputLimit - process.written.count, 0))
        if !process.saidQueued, process.written.starts(with: Array((NotificationChild.queuedLine + "\n").utf8)) {
            process.saidQueued = true
            tell(.queued(process.pid))
        }
        return true
    }

    // MARK: Starting

    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts this program as a notification's toast process: standard input and output are
    /// pipes to us (ours non-blocking, close-on-exec), the signals back to their defaults but
    /// those a toast reads, held blocked until it reads them (a `CloseNotification` just after
    /// its `Notify` must not end it by `SIGUSR1`'s default action).
    static func spawn() throws(SpawnFailure) -> Spare {
        let input: Pipe
        let output: Pipe
        do throws(Errno) {
            input = try Pipe()
            do throws(Errno) { output = try Pipe() } catch {
                input.close()
                throw error
            }
        } catch {
            throw SpawnFailure(description: error.description)
        }
        prepare(input: input.write, output: output.read)
        let pid: pid_t
        do throws(Errno) {
            pid = try ChildProcess.spawn(
                "/proc/self/exe", arguments: ["xtoast"], environment: ["\(NotificationChild.environmentVariable)=1"] + Environment.all(),
                standard: .init(input: input.read, output: output.write), blocked: Wakeups.handledSignals)
        } catch {
            input.close()
            output.close()
            throw SpawnFailure(description: error.description)
        }
        Glibc.close(input.read)
        Glibc.close(output.write)
        return Spare(pid: pid, input: input.write, output: output.read)
    }

    /// Sets a toast process's pipes, our ends: non-blocking, and a buffer that holds a
    /// command line whole (the default 64 KiB would do for any real one).
    private static func prepare(input: Int32, output: Int32) {
        Descriptor.setNonBlocking(input)
        Descriptor.setNonBlocking(output)
        Descriptor.setPipeBuffer(input, bytes: NotificationChild.pipeBuffer)
    }

    /// Forks this process into the first notification's toast process, which needs no exec and
    /// no loading: only while the process has one thread (no process otherwise, or when it
    /// cannot). In the child: `.toastProcess`, with the pipes on its standard input and output,
    /// and the signals a toast reads blocked from the fork on.
    static func fork() -> NotificationService.Fork {
        guard ChildProcess.threadCount() == 1 else { return .service(nil) }
        let side: ChildProcess.Side
        do throws(Errno) {
            side = try ChildProcess.fork(blocking: Wakeups.handledSignals, pipes: [.toChild, .fromChild])
        } catch {
            return .service(nil)
        }
        switch side {
        case .child(let ends):
            dup2(ends[0], 0)
            dup2(ends[1], 1)
            ends.forEach { Glibc.close($0) }
            return .toastProcess
        case .parent(let pid, let ends):
            prepare(input: ends[0], output: ends[1])
            return .service(NotificationService.ToastProcess(process: Spare(pid: pid, input: ends[0], output: ends[1])))
        }
    }
}

private let onOutput: GUnixFDSourceFunc = { descriptor, _, processes in
    guard let processes else { return 0 }
    return Unmanaged<ToastProcesses>.fromOpaque(processes).takeUnretainedValue().outputReady(descriptor) ? 1 : 0
}

private let onChildEnded: GChildWatchFunc = { pid, status, processes in
    guard let processes else { return }
    Unmanaged<ToastProcesses>.fromOpaque(processes).takeUnretainedValue().ended(pid, waitStatus: status)
}
