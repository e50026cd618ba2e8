/* The watchdog: a bound on the X server's silence, and on nothing else.
 *
 * A thread of its own looks, four times a second while xtoast is awake (XDisplay arms it then
 * and disarms it while the event loop sleeps), at what the watched thread is doing: the kernel
 * says which system call it is blocked in (/proc/self/task/TID/syscall) and how often it was
 * scheduled (its context switches). Silence is one uninterrupted wait in poll() on the X
 * connection while the server, when it is a local process, does nothing either (its own
 * context switches stand still, or it is stopped). Local work (drawing an SVG, reading theme
 * indexes), time spent waiting for the CPU, and waiting while the server serves another
 * client's grab are not silence: under load a toast is late, not lost. After `seconds` of
 * silence the thread writes one prepared line and ends the process (_exit: Xlib may be in the
 * middle of anything on the watched thread).
 *
 * A server that keeps working but never answers us (a client holding a grab for ever) is
 * given `busy_seconds`, then the third line. Where /proc cannot tell (another kernel, no
 * /proc), every sample counts as silence while armed: the old wall-clock bound.
 *
 * The state is a static inside a function, because Swift does not emit a header's file-scope
 * statics; call these from XDisplay.swift only. */

#include <errno.h> /* EINTR, the constant: errno itself is read in XToastSystem only */
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* GNU interfaces that <sys/uio.h> and <sys/socket.h> declare only with _GNU_SOURCE, which the
 * headers before this one were read without. */
extern ssize_t process_vm_readv(pid_t, const struct iovec *, unsigned long, const struct iovec *, unsigned long, unsigned long);
struct xtoast_peer_credentials {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

struct xtoast_watchdog {
    char lines[3][512];
    size_t lengths[3];
    unsigned seconds, busy_seconds;
    pid_t watched;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int started;
    /* Written by the watched thread, read by the watchdog's. */
    volatile int armed;
    volatile int connected;
    volatile int descriptor;
    volatile int connection;
    volatile unsigned long generation;
};

/* One per process: a weak global, which the linker keeps once, never a static inside an inline
 * function, of which every object file calling it has a copy of its own (shim.h says more). */
__attribute__((weak)) struct xtoast_watchdog xtoast_watchdog = {
    .descriptor = 2, .connection = -1, .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};
static inline struct xtoast_watchdog *xtoast_watchdog_state(void) { return &xtoast_watchdog; }

/* How often the watched thread was scheduled, and its state letter; -1 when unreadable. */
static inline long xtoast_watchdog_switches(const char *path, char *state) {
    FILE *file = fopen(path, "re");
    if (!file) return -1;
    char line[256];
    long total = 0;
    int found = 0;
    if (state) *state = '?';
    while (fgets(line, sizeof line, file)) {
        long count;
        char letter;
        if (state && sscanf(line, "State: %c", &letter) == 1) *state = letter;
        if (sscanf(line, "voluntary_ctxt_switches: %ld", &count) == 1 ||
            sscanf(line, "nonvoluntary_ctxt_switches: %ld", &count) == 1) {
            total += count;
            found++;
        }
    }
    fclose(file);
    return found == 2 ? total : -1;
}

/* 1 when the watched thread is blocked waiting on the server's socket, 0 when not, -1 when
 * the kernel does not say. Before the connection is made, any blocked call waits on it. */
static inline int xtoast_watchdog_waiting(struct xtoast_watchdog *dog, int *socket_out) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)dog->watched);
    FILE *file = fopen(path, "re");
    if (!file) return -1;
    char text[256] = {0};
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    if (length == 0) return -1;
    if (strncmp(text, "running", 7) == 0) return 0;
    long number;
    unsigned long first, second;
    if (sscanf(text, "%ld 0x%lx 0x%lx", &number, &first, &second) != 3) return -1;
    int connection = dog->connection;
#ifdef SYS_poll
    int is_poll = number == SYS_poll || number == SYS_ppoll;
#else
    int is_poll = number == SYS_ppoll;
#endif
    if (is_poll) {
        struct pollfd entries[8];
        size_t count = second < 8 ? second : 8;
        /* Read through the kernel: the array is on the other thread's stack, and a bad
         * address answers EFAULT instead of a crash. */
        struct iovec local = {entries, count * sizeof entries[0]}, remote = {(void *)first, count * sizeof entries[0]};
        if (count == 0 || process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len) return 0;
        for (size_t i = 0; i < count; i++) {
            if (connection >= 0 ? entries[i].fd == connection : entries[i].fd >= 0) {
                if (socket_out) *socket_out = entries[i].fd;
                return 1;
            }
        }
        return 0;
    }
    /* Connecting: connect() itself, or a read on the new socket. */
    if (connection < 0 && (number == SYS_connect || number == SYS_read || number == SYS_recvmsg || number == SYS_recvfrom)) {
        if (socket_out) *socket_out = (int)first;
        return 1;
    }
    return 0;
}

/* The process at the other end of a local socket, 0 when unknown (TCP, another namespace). */
static inline pid_t xtoast_watchdog_peer(int socket) {
    struct xtoast_peer_credentials credentials;
    socklen_t size = sizeof credentials;
    if (socket < 0 || getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return 0;
    return credentials.pid > 0 ? credentials.pid : 0;
}

static inline void xtoast_watchdog_give_up(struct xtoast_watchdog *dog, int line) {
    ssize_t written = write(dog->descriptor, dog->lines[line], dog->lengths[line]);
    (void)written;
    _exit(1);
}

static inline void *xtoast_watchdog_run(void *unused) {
    (void)unused;
    struct xtoast_watchdog *dog = xtoast_watchdog_state();
    /* Signals are the watched thread's business (a signalfd reads them). */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    char self[64];
    const unsigned tick_ms = 250;
    for (;;) {
        pthread_mutex_lock(&dog->lock);
        while (!dog->armed) pthread_cond_wait(&dog->wake, &dog->lock);
        pthread_mutex_unlock(&dog->lock);
        unsigned long generation = dog->generation;
        /* The thread that started it last (one per process in xtoast; a test opens several). */
        snprintf(self, sizeof self, "/proc/self/task/%d/status", (int)dog->watched);
        long last_switches = -1, last_server = -1;
        pid_t server = 0;
        unsigned silent_ms = 0, busy_ms = 0;
        while (dog->armed && dog->generation == generation) {
            struct timespec tick = {0, tick_ms * 1000000L};
            /* clock_nanosleep returns its error instead of setting errno, which has one home
             * (XToastSystem): an interrupted sleep sleeps the rest. */
            while (clock_nanosleep(CLOCK_MONOTONIC, 0, &tick, &tick) == EINTR) {}
            if (!dog->armed || dog->generation != generation) break;
            int socket = -1;
            int waiting = xtoast_watchdog_waiting(dog, &socket);
            long switches = xtoast_watchdog_switches(self, NULL);
            if (waiting < 0 || switches < 0) {
                /* The kernel does not say: wall time while armed, as before. */
                silent_ms += tick_ms;
            } else if (waiting && switches == last_switches) {
                if (!server) server = xtoast_watchdog_peer(socket);
                char state = '?';
                long server_switches = -1;
                if (server) {
                    char status[64];
                    snprintf(status, sizeof status, "/proc/%d/status", (int)server);
                    server_switches = xtoast_watchdog_switches(status, &state);
                }
                int stopped = state == 'T' || state == 't';
                if (server_switches >= 0 && last_server >= 0 && server_switches != last_server && !stopped) {
                    /* The server works, for others: not silence. */
                    silent_ms = 0;
                    busy_ms += tick_ms;
                } else {
                    silent_ms += tick_ms;
                }
                last_server = server_switches;
            } else {
                silent_ms = 0;
                busy_ms = 0;
                last_server = -1;
            }
            last_switches = switches;
            if (silent_ms >= dog->seconds * 1000u) xtoast_watchdog_give_up(dog, dog->connected ? 1 : 0);
            if (busy_ms >= dog->busy_seconds * 1000u) xtoast_watchdog_give_up(dog, 2);
        }
    }
    return NULL;
}

/* Prepares the lines (before connecting, after, and for a server busy with others), starts
 * the thread for the calling thread, and arms it. */
static inline void xtoast_watchdog_start(unsigned seconds, unsigned busy_seconds, const char *connecting, const char *connected,
                                         const char *busy) {
    struct xtoast_watchdog *dog = xtoast_watchdog_state();
    const char *lines[3] = {connecting, connected, busy};
    for (int i = 0; i < 3; i++) {
        size_t length = strlen(lines[i]);
        if (length > sizeof dog->lines[i]) length = sizeof dog->lines[i];
        memcpy(dog->lines[i], lines[i], length);
        dog->lengths[i] = length;
    }
    dog->seconds = seconds;
    dog->busy_seconds = busy_seconds;
    dog->connected = 0;
    dog->connection = -1;
    dog->watched = (pid_t)syscall(SYS_gettid);
    pthread_mutex_lock(&dog->lock);
    dog->armed = 1;
    dog->generation++;
    if (!dog->started) {
        pthread_t thread;
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setstacksize(&attributes, 64 << 10);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        dog->started = pthread_create(&thread, &attributes, xtoast_watchdog_run, NULL) == 0;
        pthread_attr_destroy(&attributes);
    }
    pthread_mutex_unlock(&dog->lock);
}

static inline void xtoast_watchdog_set_connected(int connection) {
    xtoast_watchdog_state()->connection = connection;
    xtoast_watchdog_state()->connected = 1;
}
static inline void xtoast_watchdog_write_to(int descriptor) { xtoast_watchdog_state()->descriptor = descriptor; }

static inline void xtoast_watchdog_arm(void) {
    struct xtoast_watchdog *dog = xtoast_watchdog_state();
    pthread_mutex_lock(&dog->lock);
    dog->armed = 1;
    dog->generation++;
    pthread_cond_signal(&dog->wake);
    pthread_mutex_unlock(&dog->lock);
}

static inline void xtoast_watchdog_disarm(void) { xtoast_watchdog_state()->armed = 0; }
