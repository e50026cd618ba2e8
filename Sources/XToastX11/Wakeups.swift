import CX11
import Glibc

/// The only places the main loop waits on: the X connection, signals (read from a signalfd,
/// so no code ever runs inside a signal handler) and one absolute monotonic timer.
public final class Wakeups {
    public let signalDescriptor: Int32
    private let timerDescriptor: Int32

    /// The signals xtoast handles: they are blocked from delivery here and read in the loop.
    public static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1]

    /// Blocks `handledSignals` for the process. Call first thing, before any library can start
    /// a thread that would inherit an unblocked mask.
    public init() throws(X11Error) {
        signalDescriptor = Wakeups.handledSignals.withUnsafeBufferPointer {
            xtoast_signalfd($0.baseAddress, Int32($0.count))
        }
        guard signalDescriptor >= 0 else { throw .system("cannot watch signals: \(Wakeups.errnoText)") }
        timerDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timerDescriptor >= 0 else {
            close(signalDescriptor)
            throw .system("cannot create a timer: \(Wakeups.errnoText)")
        }
    }

    deinit {
        close(signalDescriptor)
        close(timerDescriptor)
    }

    /// Seconds on the monotonic clock, which neither jumps nor stops with the wall clock.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sets the timer to fire at `deadline` (monotonic seconds), or disarms it for nil.
    /// timerfd wakes within ~0.1 ms; a poll timeout in milliseconds is ~0.7 ms late.
    func arm(at deadline: Double?) {
        var spec = itimerspec()
        if let deadline {
            let clamped = max(deadline, 1e-6)
            spec.it_value.tv_sec = Int(clamped.rounded(.down))
            spec.it_value.tv_nsec = Int((clamped - clamped.rounded(.down)) * 1e9)
        }
        timerfd_settime(timerDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    public enum Event: Equatable {
        case connection
        case signal(Int32)
        case timer
    }

    /// Blocks until the X connection is readable, a signal arrives or the timer fires.
    func wait(connection: Int32) -> [Event] {
        var fds = [
            pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: timerDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&fds, nfds_t(fds.count), -1) < 0 {
            guard errno == EINTR else { return [.connection] }
        }
        var events: [Event] = []
        // A hung-up connection reads as readable: Xlib then reports it through its I/O handler.
        if fds[0].revents != 0 { events.append(.connection) }
        if fds[1].revents != 0, let signal = readSignal() { events.append(.signal(signal)) }
        if fds[2].revents != 0 {
            var expirations: UInt64 = 0
            _ = read(timerDescriptor, &expirations, 8)
            events.append(.timer)
        }
        return events
    }

    /// The next pending handled signal, if any (non-blocking).
    public func readSignal() -> Int32? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        let count = withUnsafeMutableBytes(of: &info) { read(signalDescriptor, $0.baseAddress, size) }
        return count == size ? Int32(info.ssi_signo) : nil
    }

    static var errnoText: String { String(cString: strerror(errno)) }
}
