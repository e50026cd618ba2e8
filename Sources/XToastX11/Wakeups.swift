import CX11
import Glibc
import XToastCore
import XToastRender
import XToastSystem

/// The only places the main loop waits on: the X connection, signals (read from a signalfd,
/// so no code ever runs inside a signal handler) and one absolute monotonic timer.
public final class Wakeups {
    public let signalDescriptor: Int32
    private let timerDescriptor: Int32
    /// The delivery time of a scheduled toast, on its own clock; -1 until one is set.
    private var scheduleDescriptor: Int32 = -1
    /// Changes to the local time zone file (inotify on its folder); -1 when not watched.
    private var zoneDescriptor: Int32 = -1
    private var zoneFileName = ""
    /// The end of a pause that a toast stands aside for, on the wall clock; -1 until armed.
    private var pauseDescriptor: Int32 = -1

    /// The signals xtoast handles: they are blocked from delivery here and read in the loop.
    /// SIGCHLD tells that a `--run` command ended.
    public static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGCHLD]

    /// Blocks `handledSignals` in this thread, and so in every thread started from it later:
    /// Pango's font loading and the watchdog start before the loop has its signalfd, and a
    /// signal left unblocked in one of them ends the whole process by its default action (a
    /// `--dismiss` by SIGUSR1 ended a toast with 138 while Pango's thread was alive). Call
    /// first thing in main; a signal that comes before the loop waits for it, and is read then.
    public static func blockHandledSignals() { setHandledSignals(SIG_BLOCK) }

    /// Gives `handledSignals` their default handling back, for a process that shows no toast
    /// (it has no loop to read them): Ctrl-C ends `--history` as it ends any program.
    public static func unblockHandledSignals() { setHandledSignals(SIG_UNBLOCK) }

    private static func setHandledSignals(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        pthread_sigmask(how, &set, nil)
    }

    /// Blocks `handledSignals` (again: `blockHandledSignals` did first) and reads them from now.
    public init() throws(SystemFailure) {
        signalDescriptor = Wakeups.handledSignals.withUnsafeBufferPointer {
            xtoast_signalfd($0.baseAddress, Int32($0.count))
        }
        guard signalDescriptor >= 0 else { throw SystemFailure("cannot watch signals") }
        timerDescriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timerDescriptor >= 0 else {
            let failure = SystemFailure("cannot create a timer")
            close(signalDescriptor)
            throw failure
        }
    }

    deinit {
        close(signalDescriptor)
        close(timerDescriptor)
        if scheduleDescriptor >= 0 { close(scheduleDescriptor) }
        if zoneDescriptor >= 0 { close(zoneDescriptor) }
        if pauseDescriptor >= 0 { close(pauseDescriptor) }
    }

    /// Arms a timer for the end of a pause (`_XTOAST_PAUSED`, a wall-clock second), or disarms
    /// it for nil. CLOCK_REALTIME with an absolute deadline, as `--at`: it fires when the wall
    /// clock gets there, however the clock is set meanwhile, and at once on resume if the end
    /// passed while the machine slept. Without a timer (none left) the toast still hears a
    /// `--resume`.
    func armPauseEnd(at end: Double?) {
        if pauseDescriptor < 0 {
            guard end != nil else { return }
            pauseDescriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
            guard pauseDescriptor >= 0 else { return }
        }
        var spec = itimerspec()
        if let end { spec.it_value = Clock.timespec(max(end, 1e-6)) }
        timerfd_settime(pauseDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Watches the local time zone (`$TZ` when it names a file as `:/path`, else
    /// /etc/localtime) so that a wall-clock time can be worked out again when it changes.
    /// Tools replace the file (or its symlink), so the folder is watched, not the file.
    func watchTimeZone() {
        var path = "/etc/localtime"
        if let tz = Environment.value("TZ"), tz.hasPrefix(":/") { path = String(tz.dropFirst()) }
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        zoneFileName = String(path[path.index(after: slash)...])
        zoneDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard zoneDescriptor >= 0 else { return }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
        if inotify_add_watch(zoneDescriptor, folder, mask) < 0 {
            close(zoneDescriptor)
            zoneDescriptor = -1
        }
    }

    /// Whether the inotify events waiting on the zone descriptor touch the zone file.
    private func zoneFileChanged() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var changed = false
        while true {
            let count = read(zoneDescriptor, &buffer, buffer.count)
            guard count > 0 else { return changed }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == zoneFileName { changed = true }
                offset += header + length
            }
        }
    }

    /// Arms the delivery timer. `--at` uses CLOCK_REALTIME with an absolute deadline: the
    /// kernel fires it when the wall clock reaches that instant, however the clock is set in
    /// between, and at once on resume if it passed while the machine slept. `--in` counts on
    /// CLOCK_BOOTTIME, which runs during sleep and is not moved by clock changes.
    func schedule(_ delivery: Delivery) throws(SystemFailure) {
        let clock: Int32
        let deadline: Double
        switch delivery {
        case .now: return
        case .after(let seconds):
            clock = CLOCK_BOOTTIME
            deadline = Clock.boot() + seconds
        case .at(let instant):
            clock = CLOCK_REALTIME
            deadline = instant
        }
        if scheduleDescriptor >= 0 { close(scheduleDescriptor) }
        scheduleDescriptor = timerfd_create(clock, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard scheduleDescriptor >= 0 else { throw SystemFailure("cannot create a timer") }
        var spec = itimerspec()
        spec.it_value = Clock.timespec(max(deadline, 1e-6))
        timerfd_settime(scheduleDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Sets the timer to fire at `deadline` (monotonic seconds), or disarms it for nil.
    /// timerfd wakes within ~0.1 ms; a poll timeout in milliseconds is ~0.7 ms late.
    func arm(at deadline: Double?) {
        var spec = itimerspec()
        if let deadline { spec.it_value = Clock.timespec(max(deadline, 1e-6)) }
        timerfd_settime(timerDescriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    public enum Event: Equatable {
        case connection
        case signal(Int32)
        case timer
        /// A scheduled toast is due.
        case due
        /// The local time zone changed.
        case zoneChanged
        /// The end of a pause has come (`armPauseEnd`).
        case pauseEnded
        /// Standard input has something to read (or has ended).
        case input
        /// A signal the terminal sent (Ctrl-C): it went to the whole foreground process group,
        /// so a `--run` command has it already.
        case terminalSignal(Int32)

        var isSignal: Bool {
            switch self {
            case .signal, .terminalSignal: true
            default: false
            }
        }
    }

    /// Blocks until the X connection is readable, a signal arrives or the timer fires.
    func wait(connection: Int32, input: Int32 = -1) -> [Event] {
        var fds = [
            pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: timerDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: scheduleDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: zoneDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: pauseDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        guard case .success = retryingOnInterrupt({ poll(&fds, nfds_t(fds.count), -1) }) else { return [.connection] }
        var events: [Event] = []
        // A hung-up connection reads as readable: Xlib then reports it through its I/O handler.
        if fds[0].revents != 0 { events.append(.connection) }
        if fds[1].revents != 0 {
            while let (signal, code) = readSignalInfo() {
                events.append(code == Int32(SI_KERNEL) ? .terminalSignal(signal) : .signal(signal))
            }
        }
        if fds[2].revents != 0 {
            var expirations: UInt64 = 0
            _ = read(timerDescriptor, &expirations, 8)
            events.append(.timer)
        }
        if fds[3].revents != 0 {
            var expirations: UInt64 = 0
            _ = read(scheduleDescriptor, &expirations, 8)
            close(scheduleDescriptor)
            scheduleDescriptor = -1
            events.append(.due)
        }
        if fds[4].revents != 0 && zoneFileChanged() { events.append(.zoneChanged) }
        if fds[5].revents != 0 { events.append(.input) }
        if fds[6].revents != 0 {
            var expirations: UInt64 = 0
            _ = read(pauseDescriptor, &expirations, 8)
            events.append(.pauseEnded)
        }
        return events
    }

    /// Blocks until handled signals come; those read (a process with nothing else to wait on:
    /// `--inhibit`, while its command runs).
    public func waitForSignals() -> [Event] {
        wait(connection: -1).filter(\.isSignal)
    }

    /// The next pending handled signal and its `si_code` (SI_KERNEL: from the terminal), if any.
    func readSignalInfo() -> (Int32, Int32)? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        let count = withUnsafeMutableBytes(of: &info) { read(signalDescriptor, $0.baseAddress, size) }
        return count == size ? (Int32(info.ssi_signo), info.ssi_code) : nil
    }
}
