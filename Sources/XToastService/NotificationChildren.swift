import CGio
import Glibc
import XToastCore
import XToastRender
import XToastSystem
import XToastX11

/// The toasts of the notification service: one `xtoast` process per notification, started
/// from this same binary, each an ordinary toast in the display's queue (`NotificationChild`
/// says how they talk). At most `runningLimit` run at once; the rest wait here, in order, and
/// none is lost.
///
/// Two things make a notification quick and keep the order:
/// - a spare: a process started before there is work for it (at start, and each time the last
///   one took work), which links, connects and loads fonts while it waits; a `Notify` only
///   writes its command line into the spare's standard input;
/// - one at a time into the queue: the next notification is handed out once the last one's
///   place is on the server (it says `queued`), or it ended, or `joinBound` passed.
final class NotificationChildren {
    /// One notification's toast, running or waiting for a place.
    final class Entry {
        let id: UInt32
        let toast: NotificationToast
        /// A PNG this service wrote for the toast's icon, removed when the toast ends.
        let imageFile: String?
        /// 0 while waiting.
        var pid: pid_t = 0
        /// The read end of its standard output, and GLib's watch on it while it may write.
        var output: Int32 = -1
        var outputWatch: guint = 0
        /// What it wrote so far (at most `outputLimit` bytes).
        var written: [UInt8] = []
        /// CloseNotification asked for its end.
        var closedByCall = false

        init(id: UInt32, toast: NotificationToast, imageFile: String?) {
            (self.id, self.toast, self.imageFile) = (id, toast, imageFile)
        }
    }

    /// A process started without work, waiting for its command line on `input`.
    struct Spare {
        var pid: pid_t
        var input: Int32
        var output: Int32
    }

    /// Toast processes alive at most: a flood of Notify calls must not start thousands of
    /// processes, each an X client. More wait in `waiting`.
    static let runningLimit = 32
    /// Bytes of a toast's output read at most (`queued`, `--print-outcome`'s word, a label, the
    /// click's time).
    static let outputLimit = 4096
    /// Seconds a toast process may take to join the queue before the next is handed out all the
    /// same: one stuck before the server answers must not hold up every other notification.
    static let joinBound: guint = 5

    /// The newest entry of each notification id still alive.
    private(set) var current: [UInt32: Entry] = [:]
    private var running: [pid_t: Entry] = [:]
    private var waiting: [Entry] = []
    /// The toast handed its command line whose place is not on the server yet; the next waits.
    private var joining: Entry?
    private var joinTimer: guint = 0
    private var spare: Spare?
    /// Called once a process runs, to watch for its end.
    let watch: (pid_t) -> Void
    let warn: (String) -> Void

    init(watch: @escaping (pid_t) -> Void, warn: @escaping (String) -> Void) {
        (self.watch, self.warn) = (watch, warn)
    }

    /// Nothing shows or waits (a spare is no work).
    var isEmpty: Bool { current.isEmpty && running.isEmpty && waiting.isEmpty }

    /// Starts the spare, if none is ready and one may start (at the service's start: the
    /// first notification's process then starts while the service gets onto the bus).
    func prepareSpare(adopting forked: Spare? = nil) {
        if let forked {
            watch(forked.pid)
            spare = forked
            return
        }
        guard spare == nil, joining == nil, running.count < Self.runningLimit else { return }
        do throws(SpawnError) {
            spare = try start()
        } catch {
            warn("cannot start a toast process: \(error.description)")
        }
    }

    /// Shows `entry`, replacing the toast of the same id if one is alive.
    func show(_ entry: Entry) {
        if let old = current[entry.id] {
            if old.pid == 0, let index = waiting.firstIndex(where: { $0 === old }) {
                // Not started yet: the new one takes its place in line.
                waiting[index] = entry
                current[entry.id] = entry
                remove(old.imageFile)
                return
            }
            // Running: the same tag replaces it in place; a new tag would leave it up.
            if old.toast.tag != entry.toast.tag { kill(old.pid, SIGUSR1) }
        }
        current[entry.id] = entry
        waiting.append(entry)
        handOut()
    }

    /// CloseNotification: the toast is dismissed whatever its phase; true when it was waiting
    /// here (then it is gone, and the caller says so), false when its process will say.
    func close(id: UInt32) -> Bool? {
        guard let entry = current[id] else { return nil }
        if entry.pid == 0 {
            waiting.removeAll { $0 === entry }
            current[id] = nil
            remove(entry.imageFile)
            return true
        }
        entry.closedByCall = true
        kill(entry.pid, SIGUSR1)
        return false
    }

    /// A process ended: its entry, with what it wrote, if it is still its id's newest (else it
    /// was replaced by a newer toast of the same notification, and nothing is said about it).
    func ended(_ pid: pid_t, status: Int32) -> (entry: Entry, report: NotificationChild.Report)? {
        if let spare, spare.pid == pid {
            // It could not get ready (its error is on our standard error, or, forked before
            // the service opened the display, is the service's own); the next notification
            // starts one of its own.
            Glibc.close(spare.input)
            Glibc.close(spare.output)
            self.spare = nil
            return nil
        }
        guard let entry = running.removeValue(forKey: pid) else { return nil }
        if entry.outputWatch != 0 { g_source_remove(entry.outputWatch) }
        entry.outputWatch = 0
        while readOutput(of: entry) {}
        Glibc.close(entry.output)
        remove(entry.imageFile)
        defer {
            if joining === entry { joined() }
            handOut()
        }
        guard current[entry.id] === entry else { return nil }
        current[entry.id] = nil
        if entry.written.isEmpty && status != 0 { warn("the toast of notification \(entry.id) failed (status \(status))") }
        return (entry, NotificationChild.Report(parsing: String(decoding: entry.written, as: UTF8.self)))
    }

    // MARK: Handing out

    /// Hands the waiting notifications to processes, one at a time into the queue.
    private func handOut() {
        while joining == nil, running.count < Self.runningLimit, !waiting.isEmpty {
            let entry = waiting.removeFirst()
            do throws(SpawnError) {
                try launch(entry)
                entry.outputWatch = g_unix_fd_add(
                    entry.output, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue), onOutput,
                    Unmanaged.passUnretained(self).toOpaque())
                joining = entry
                joinTimer = g_timeout_add_seconds(Self.joinBound, onJoinBound, Unmanaged.passUnretained(self).toOpaque())
            } catch {
                warn("cannot start the toast of notification \(entry.id): \(error.description)")
                current[entry.id] = nil
                remove(entry.imageFile)
            }
        }
        prepareSpare()
    }

    /// Gives `entry`'s command line to the spare, or to a process started for it. A spare that
    /// went away meanwhile (its end not heard yet) is replaced once.
    private func launch(_ entry: Entry) throws(SpawnError) {
        var tries = spare == nil ? 1 : 2
        while true {
            let child: Spare
            if let spare { child = spare } else { child = try start() }
            spare = nil
            tries -= 1
            do throws(SpawnError) {
                try give(entry.toast.arguments, to: child)
                (entry.pid, entry.output) = (child.pid, child.output)
                running[child.pid] = entry
                return
            } catch {
                // It has no whole command line: it goes, and its end is no one's.
                kill(child.pid, SIGKILL)
                Glibc.close(child.output)
                if tries == 0 { throw error }
            }
        }
    }

    /// The joining toast's place is on the server (or it ended, or took too long): the next
    /// may go.
    private func joined() {
        joining = nil
        if joinTimer != 0 { g_source_remove(joinTimer) }
        joinTimer = 0
    }

    /// Writes the command line into the child's standard input, whole, and closes it.
    private func give(_ arguments: [String], to child: Spare) throws(SpawnError) {
        defer { Glibc.close(child.input) }
        let bytes = NotificationChild.encode(arguments)
        guard bytes.count <= NotificationChild.argumentsByteLimit else { throw SpawnError(description: "its command line is too long") }
        var done = 0
        while done < bytes.count {
            // Non-blocking: the pipe's buffer takes it all, or the hand-over fails; the
            // service never waits for a child.
            switch retryingOnInterrupt({ bytes[done...].withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) } }) {
            case .success(let count) where count > 0: done += count
            case .success: throw SpawnError(description: Errno.ioError.description)
            case .failure(let error): throw SpawnError(description: error.description)
            }
        }
    }

    /// Reads what `entry` wrote, up to `outputLimit`; false at its end (or when nothing more
    /// is there now).
    @discardableResult
    fileprivate func readOutput(of entry: Entry) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        guard case .success(let count) = retryingOnInterrupt({ read(entry.output, &buffer, buffer.count) }), count > 0 else {
            return false
        }
        entry.written += buffer[0..<min(count, max(Self.outputLimit - entry.written.count, 0))]
        if joining === entry, entry.written.starts(with: Array((NotificationChild.queuedLine + "\n").utf8)) {
            joined()
            handOut()
        }
        return true
    }

    /// GLib's word that a child's output can be read.
    fileprivate func outputReady(_ descriptor: Int32) -> Bool {
        guard let entry = running.values.first(where: { $0.output == descriptor }) else { return false }
        if readOutput(of: entry) { return true }
        // At its end: the rest is read when the process has ended.
        entry.outputWatch = 0
        return false
    }

    fileprivate func joinBoundPassed() {
        joinTimer = 0
        if let joining { warn("the toast of notification \(joining.id) took over \(Self.joinBound) s to join the queue") }
        joining = nil
        handOut()
    }

    private func remove(_ file: String?) {
        if let file { unlink(file) }
    }

    // MARK: Processes

    struct SpawnError: Error {
        var description: String
    }

    /// Starts a toast process (a spare, until it is given a command line) and watches it.
    private func start() throws(SpawnError) -> Spare {
        let child = try Self.spawn()
        watch(child.pid)
        return child
    }

    /// Starts this program as a notification's toast process: standard input and output are
    /// pipes to us (ours non-blocking, close-on-exec), the signals back to their defaults but
    /// those a toast reads, held blocked until it reads them (a `CloseNotification` just after
    /// its `Notify` must not end it by `SIGUSR1`'s default action).
    static func spawn() throws(SpawnError) -> Spare {
        let (input, output) = try pipes()
        let pid: pid_t
        do throws(Errno) {
            pid = try ChildProcess.spawn(
                "/proc/self/exe", arguments: ["xtoast"], environment: ["\(NotificationChild.environmentVariable)=1"] + Environment.all(),
                standard: .init(input: input.read, output: output.write), blocked: Wakeups.handledSignals)
        } catch {
            input.close()
            output.close()
            throw SpawnError(description: error.description)
        }
        Glibc.close(input.read)
        Glibc.close(output.write)
        return Spare(pid: pid, input: input.write, output: output.read)
    }

    /// The pipes to a toast process: its standard input and output (all close-on-exec; ours
    /// non-blocking).
    private static func pipes() throws(SpawnError) -> (input: Pipe, output: Pipe) {
        let input: Pipe
        let output: Pipe
        do throws(Errno) {
            input = try Pipe()
            do throws(Errno) { output = try Pipe() } catch {
                input.close()
                throw error
            }
        } catch {
            throw SpawnError(description: error.description)
        }
        Descriptor.setNonBlocking(input.write)
        Descriptor.setNonBlocking(output.read)
        // A command line fits the buffer whole (the default 64 KiB would do for any real one).
        Descriptor.setPipeBuffer(input.write, bytes: NotificationChild.pipeBuffer)
        return (input, output)
    }

    /// Forks this process into the first notification's toast process, which needs no exec and
    /// no loading: only while the process has one thread (no process otherwise, or when it
    /// cannot). In the child: `.toastProcess`, with the pipes on its standard input and output,
    /// and the signals a toast reads blocked from the fork on.
    static func fork() -> NotificationService.Fork {
        guard ChildProcess.threadCount() == 1, let (input, output) = try? pipes() else { return .service(nil) }
        let side: ChildProcess.Side
        do throws(Errno) {
            side = try ChildProcess.fork(blocking: Wakeups.handledSignals)
        } catch {
            input.close()
            output.close()
            return .service(nil)
        }
        guard case .parent(let pid) = side else {
            dup2(input.read, 0)
            dup2(output.write, 1)
            input.close()
            output.close()
            return .toastProcess
        }
        Glibc.close(input.read)
        Glibc.close(output.write)
        return .service(NotificationService.ToastProcess(process: Spare(pid: pid, input: input.write, output: output.read)))
    }
}

private let onOutput: GUnixFDSourceFunc = { descriptor, _, children in
    guard let children else { return 0 }
    return Unmanaged<NotificationChildren>.fromOpaque(children).takeUnretainedValue().outputReady(descriptor) ? 1 : 0
}

private let onJoinBound: GSourceFunc = { children in
    guard let children else { return 0 }
    Unmanaged<NotificationChildren>.fromOpaque(children).takeUnretainedValue().joinBoundPassed()
    return 0
}
