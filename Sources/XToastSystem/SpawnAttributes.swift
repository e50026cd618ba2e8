import Glibc

/// What a child of xtoast starts with, for `posix_spawn`: the default handling of the signals
/// xtoast reads from a signalfd or ignores (SIGPIPE), so that a `--run` command or a
/// notification's toast answers them as any program does; and no blocked signals but
/// `blocked`, for a child that reads those itself first thing (a toast process: a `SIGUSR1`
/// sent before it reads its signals is then held for it, not taken by the default action).
public final class SpawnAttributes {
    public var attributes = posix_spawnattr_t()

    public init(blocked: [Int32] = []) {
        posix_spawnattr_init(&attributes)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blocked { sigaddset(&mask, signal) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGCHLD, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    deinit { posix_spawnattr_destroy(&attributes) }
}
