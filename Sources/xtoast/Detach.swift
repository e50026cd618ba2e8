import Glibc

/// `--detach`: the caller gets its exit status as soon as the toast is queued, and the toast
/// lives on in a child that no terminal or session owns.
enum Detach {
    /// Forks; the parent exits 0 at once, the child returns and carries on. Called while the
    /// process has one thread (before Pango starts any), so fork is safe.
    static func now() {
        let pid = fork()
        if pid < 0 {
            // Cannot detach: showing the toast in the foreground is better than none.
            warn("cannot detach (\(String(cString: strerror(errno)))); showing the toast in the foreground")
            return
        }
        // _exit: the parent must not close the X connection the child goes on using.
        if pid > 0 { _exit(ExitStatus.success) }
        setsid()
        // Nobody is waiting for output: a closed terminal must not end the toast with SIGPIPE
        // or SIGHUP.
        signal(SIGPIPE, SIG_IGN)
        let null = open("/dev/null", O_RDWR)
        if null >= 0 {
            dup2(null, 0)
            dup2(null, 1)
            dup2(null, 2)
            close(null)
        }
    }
}
