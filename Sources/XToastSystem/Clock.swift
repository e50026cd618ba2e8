import Glibc

/// The clocks xtoast reads, in seconds as `Double`: the one place where `clock_gettime` is
/// called. Which clock a wait counts on is part of what it means (see `Wakeups.schedule`).
public enum Clock {
    /// Seconds on the monotonic clock, which neither jumps nor stops with the wall clock.
    public static func monotonic() -> Double { read(CLOCK_MONOTONIC) }

    /// Seconds since 1970 on the wall clock.
    public static func wall() -> Double { read(CLOCK_REALTIME) }

    /// Seconds on the clock that counts on while the machine sleeps and is never set
    /// (`--in 25m` counts on it).
    public static func boot() -> Double { read(CLOCK_BOOTTIME) }

    private static func read(_ clock: clockid_t) -> Double {
        var ts = Glibc.timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// `seconds` as a `timespec`, for timers.
    public static func timespec(_ seconds: Double) -> Glibc.timespec {
        let whole = seconds.rounded(.down)
        return Glibc.timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }
}
