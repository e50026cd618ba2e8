/* What XToastSystem needs of the C library that the Swift Glibc module leaves out or cannot
 * import (GNU extensions, macros). Nothing else in xtoast includes it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <malloc.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>

/* pipe2 with O_CLOEXEC: no other child inherits the ends. */
static inline int xtoast_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC); }

/* F_SETPIPE_SZ is Linux's (and GNU's): the buffer of a pipe, in bytes; -1 where it cannot be set. */
static inline int xtoast_set_pipe_size(int descriptor, int size) {
#ifdef F_SETPIPE_SZ
    return fcntl(descriptor, F_SETPIPE_SZ, size);
#else
    return fcntl(descriptor, 1031, size);
#endif
}

/* The wait status macros. */
static inline int xtoast_exited(int status) { return WIFEXITED(status); }
static inline int xtoast_exit_code(int status) { return WEXITSTATUS(status); }
static inline int xtoast_signalled(int status) { return WIFSIGNALED(status); }
static inline int xtoast_term_signal(int status) { return WTERMSIG(status); }

/* Gives the heap's free pages back to the system (glibc); 0 elsewhere. */
static inline int xtoast_give_back_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}

/* libcanberra's functions, as `dlopen` finds them (SoundPlayer): the library is loaded only
 * when a sound is asked for, so its header is not needed and its types stay opaque here. */
typedef int (*xtoast_ca_context_create)(void **context);
typedef int (*xtoast_ca_context_destroy)(void *context);
typedef int (*xtoast_ca_proplist_create)(void **proplist);
typedef int (*xtoast_ca_proplist_destroy)(void *proplist);
typedef int (*xtoast_ca_proplist_sets)(void *proplist, const char *key, const char *value);
typedef int (*xtoast_ca_context_play_full)(void *context, unsigned int id, void *proplist, void *callback, void *userdata);
typedef const char *(*xtoast_ca_strerror)(int code);

/* Forks a child that starts `path` (`argv`, `envp`) as a child of its own, in a session of its
 * own, and ends at once: the program is adopted by init (or the session's subreaper), so nothing
 * here waits for it, however long it runs, and its end leaves no zombie here. It gets /dev/null
 * as its standard input, output and error, no blocked signal and every signal's default
 * handling, and no other descriptor (all are made close-on-exec). If the exec fails, its errno
 * is written to `report`, the write end of a close-on-exec pipe that a successful exec closes.
 * Between the fork and the exec only async-signal-safe calls are made: this process may have
 * threads (Pango's). Returns the child's pid, to be reaped (it ends at once), or -1 (errno). */
static inline pid_t xtoast_fork_detached(const char *path, char *const argv[], char *const envp[], int report) {
    pid_t child = fork();
    if (child != 0) return child;
    setsid();
    pid_t grandchild = fork();
    if (grandchild != 0) _exit(grandchild < 0 ? 1 : 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction standard = {0};
    standard.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) sigaction(number, &standard, NULL);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2) close(null);
    }
    /* close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) (Linux 5.11), through syscall: glibc declares
     * its wrapper for _GNU_SOURCE only. Older kernels: the first thousand one by one. */
    if (syscall(SYS_close_range, 3U, ~0U, 4U) != 0) {
        for (int descriptor = 3; descriptor < 1024; descriptor++) fcntl(descriptor, F_SETFD, FD_CLOEXEC);
    }
    execve(path, argv, envp);
    int failure = errno;
    ssize_t written = write(report, &failure, sizeof failure);
    (void)written;
    _exit(127);
}
