import Glibc
import XToastRender
import XToastSystem
import XToastX11

/// `--detach`: the caller gets its exit status as soon as the toast is queued, and the toast
/// lives on in a child that no terminal or session owns.
///
/// The fork comes before the X connection is opened: the caller (the parent) never talks to
/// the server, so a server that does not answer cannot hold it. The child's standard error is
/// a pipe to the parent until the toast is queued; the parent passes on what comes (warnings,
/// the error line) and ends with 0 at the mark that says "queued", or with the child's status
/// when it ends first.
enum Detach {
    /// What `start` made of this process.
    enum Side {
        /// The caller, done waiting: its exit status.
        case caller(status: Int32)
        /// The detached child, which owes the caller the word "queued" (`queued()`).
        case toast
        /// Not detached: the toast shows in the foreground.
        case foreground
    }

    /// Written by the child once the toast is queued: no line of text contains it.
    private static let queuedMark: UInt8 = 0

    /// The longest the caller waits. The child itself gives up on a silent server after
    /// `XDisplay.answerTimeout` seconds of silence, and on a server that serves only others
    /// after `XDisplay.busyTimeout`, and says so; this only bounds what else could go wrong. It
    /// is as long as the longest of those, so that on a loaded machine (a hundred toasts started
    /// at once, notify-send from a busy script) a toast is late, never killed unqueued.
    static let callerBound = Double(XDisplay.busyTimeout) + 2

    /// Forks. The parent waits for the child's word and returns it as its status; the child
    /// carries on with the toast. Called while the process has one thread (before Pango starts
    /// any), so fork is safe.
    static func start() -> Side {
        let side: ChildProcess.Side
        do throws(Errno) {
            side = try ChildProcess.fork(pipes: [.fromChild])
        } catch {
            // Cannot detach: showing the toast in the foreground is better than none.
            warn("cannot detach (\(error)); showing the toast in the foreground")
            return .foreground
        }
        switch side {
        case .parent(let pid, let ends):
            // The caller shows nothing: Ctrl-C ends its wait, and the toast goes on.
            Wakeups.unblockHandledSignals()
            return .caller(status: relay(from: ends[0], child: pid))
        case .child(let ends):
            setsid()
            // Nobody reads its output; a closed terminal must not end the toast with SIGHUP.
            let null = open("/dev/null", O_RDWR)
            if null >= 0 {
                dup2(null, 0)
                dup2(null, 1)
                close(null)
            }
            dup2(ends[0], 2)
            close(ends[0])
            return .toast
        }
    }

    /// In the child, once the toast is queued: tells the parent, and from now on nobody is
    /// waiting for its errors. Fonts start loading only now: before, Pango's thread would take
    /// CPU from getting the toast queued, which is what the caller waits for.
    static func queued() {
        var mark = queuedMark
        _ = write(2, &mark, 1)
        startLoadingFonts()
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 2)
            close(null)
        }
    }

    /// In the parent: passes on what the child writes until the mark (0), its end (its status)
    /// or `callerBound` (the child is killed: a toast reported as failed must never show).
    private static func relay(from pipe: Int32, child: pid_t) -> Int32 {
        let deadline = Clock.monotonic() + callerBound
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard Descriptor.waitReadable(pipe, until: deadline) else {
                kill(child, SIGKILL)
                _ = ChildProcess.wait(child)
                printError("xtoast: the toast was not queued within \(Int(callerBound)) s")
                return ExitStatus.failure
            }
            if case .success(let count) = retryingOnInterrupt({ read(pipe, &buffer, buffer.count) }), count > 0 {
                let mark = buffer[0..<count].firstIndex(of: queuedMark)
                _ = write(2, buffer, mark ?? count)
                if mark != nil { return ExitStatus.success }
                continue
            }
            // The child ended before it was queued: its line is out; its status is ours.
            switch ChildProcess.wait(child) {
            case .exited(let code): return code
            case .signalled(let signal):
                printError("xtoast: ended by signal \(signal) before the toast was queued")
                return ExitStatus.failure
            case nil: return ExitStatus.failure
            }
        }
    }
}
