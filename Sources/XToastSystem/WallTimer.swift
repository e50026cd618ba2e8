import CSystem
import Glibc

/// A timer on the wall clock (timerfd, CLOCK_REALTIME, an absolute deadline): it fires when the
/// wall clock reaches the deadline, however the clock is set meanwhile, and at once after a
/// sleep that passed it.
public final class WallTimer {
    /// Readable once the deadline has come; for `poll`.
    public let descriptor: Int32

    public init() throws(SystemFailure) {
        descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw SystemFailure("cannot create a timer") }
    }

    deinit { close(descriptor) }

    /// Fires at `deadline` (seconds since 1970), or never for nil.
    public func arm(at deadline: Double?) {
        var spec = itimerspec()
        if let deadline { spec.it_value = Clock.timespec(max(deadline, 1e-6)) }
        timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Takes the expiry in, so that the descriptor is not readable again until it fires again.
    public func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, 8)
    }
}
