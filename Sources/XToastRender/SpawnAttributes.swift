import Glibc

/// What a child of xtoast starts with, for `posix_spawn`: no blocked signals and the default
/// handling of the ones xtoast reads from a signalfd or ignores (SIGPIPE, SIGXFSZ), so that a
/// `--run` command or a notification's toast answers them as any program does.
public final class SpawnAttributes {
    public var attributes = posix_spawnattr_t()

    public init() {
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGCHLD, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    deinit { posix_spawnattr_destroy(&attributes) }
}
