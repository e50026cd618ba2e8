import Glibc

/// What a child of xtoast starts with, for `posix_spawn`: the default handling of the signals
/// xtoast reads from a signalfd or ignores (SIGPIPE), so that a `--run` command or a
/// notification's toast answers them as any program does; and no blocked signals but
/// `blocked`, for a child that reads those itself first thing (a toast process: a `SIGUSR1`
/// sent before it reads its signals is then held for it, not taken by the default action).
public final class SpawnAttributes {
    public var attributes = posix_spawnattr_t()

    /// `ownGroup`: the child leads a process group of its own, so that it can be killed with
    /// everything it started (a rule's `sh -c …`).
    public init(blocked: [Int32] = [], ownGroup: Bool = false) {
        posix_spawnattr_init(&attributes)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blocked { sigaddset(&mask, signal) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGCHLD, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
    }

    deinit { posix_spawnattr_destroy(&attributes) }
}
