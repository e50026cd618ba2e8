/* calmwatch: how long a command keeps notification windows on the screen. Seen from outside.
 *
 * Usage: calmwatch QUIET_MS COMMAND [ARGS...]
 *
 * Watches the root (SubstructureNotify) for top-level override-redirect InputOutput windows
 * being mapped and unmapped (xtoast's toasts and dunst's window are such; the unmapped InputOnly
 * ticket of a toast process never counts). It first waits, up to 10 s, until none is mapped
 * (what an earlier run left must be gone), then forks and execs COMMAND and follows the windows
 * until none has been mapped for QUIET_MS after the last one went, or 120 s have passed. Nothing
 * the tools say about themselves is used.
 *
 * COMMAND's standard output passes through. Then it prints, times in ms of CLOCK_MONOTONIC (the
 * clock of Python's time.monotonic, so that COMMAND can say when it began in the same terms):
 *   mapped MS     the first map
 *   calm MS       the last unmap, after which nothing was mapped again
 *   windows N     distinct windows mapped
 *   maps N        maps in all
 *   busy          (instead of calm) a window was still mapped at the end
 *   unseen        (instead of both) no window was mapped at all
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "watch.h"

enum { MAX = 1024 };

static Window seen[MAX];     /* every window that was mapped */
static int seen_count;
static Window mapped[MAX];   /* the ones mapped now */
static int mapped_count;

/* Whether `w` is a notification window: a top-level override-redirect InputOutput window. */
static int counts(Display *d, Window w) {
    XWindowAttributes a;
    return XGetWindowAttributes(d, w, &a) && a.class == InputOutput && a.override_redirect;
}

static int find(const Window *list, int count, Window w) {
    for (int i = 0; i < count; i++)
        if (list[i] == w) return i;
    return -1;
}

/* Follows one event; whether it changed what is mapped. */
static int follow(Display *d, XEvent *e, int *maps) {
    if (e->type == MapNotify && e->xmap.event == DefaultRootWindow(d) && e->xmap.override_redirect &&
        find(mapped, mapped_count, e->xmap.window) < 0 && mapped_count < MAX && counts(d, e->xmap.window)) {
        mapped[mapped_count++] = e->xmap.window;
        if (find(seen, seen_count, e->xmap.window) < 0 && seen_count < MAX) seen[seen_count++] = e->xmap.window;
        (*maps)++;
        return 1;
    }
    Window gone = e->type == UnmapNotify ? e->xunmap.window : e->type == DestroyNotify ? e->xdestroywindow.window : None;
    int i = gone != None ? find(mapped, mapped_count, gone) : -1;
    if (i < 0) return 0;
    mapped[i] = mapped[--mapped_count];
    return 1;
}

/* The windows mapped now, from the server's own list. */
static void read_mapped(Display *d) {
    Window root_return, parent, *children = NULL;
    unsigned int count = 0;
    mapped_count = 0;
    if (!XQueryTree(d, DefaultRootWindow(d), &root_return, &parent, &children, &count)) return;
    for (unsigned int i = 0; i < count && mapped_count < MAX; i++) {
        XWindowAttributes a;
        if (XGetWindowAttributes(d, children[i], &a) && a.class == InputOutput && a.override_redirect && a.map_state == IsViewable)
            mapped[mapped_count++] = children[i];
    }
    if (children) XFree(children);
}

static void wait_events(Display *d, double until) {
    double left = until - now_ms();
    if (XPending(d) || left <= 0) return;
    struct pollfd fd = { ConnectionNumber(d), POLLIN, 0 };
    poll(&fd, 1, left < 50 ? (int)left + 1 : 50);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: calmwatch QUIET_MS COMMAND [ARGS...]\n"); return 64; }
    double quiet = atof(argv[1]);
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "calmwatch: cannot open display\n"); return 1; }
    XSetErrorHandler(ignore_errors);
    XSelectInput(d, DefaultRootWindow(d), SubstructureNotifyMask);
    XSync(d, True);
    int maps = 0;
    /* A quiet screen first. */
    read_mapped(d);
    for (double deadline = now_ms() + 10000; mapped_count > 0 && now_ms() < deadline;) {
        while (XPending(d)) {
            XEvent e;
            XNextEvent(d, &e);
            follow(d, &e, &maps);
        }
        if (mapped_count > 0) wait_events(d, deadline);
    }
    if (mapped_count > 0) { fprintf(stderr, "calmwatch: the screen never got quiet\n"); return 1; }
    maps = seen_count = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        _exit(127);
    }
    double first = -1, last = -1, deadline = now_ms() + 120000;
    int exited = 0;
    /* Until the command has exited and nothing has been mapped for QUIET_MS after something was. */
    while (now_ms() < deadline && !(exited && first >= 0 && mapped_count == 0 && now_ms() >= last + quiet)) {
        while (XPending(d)) {
            XEvent e;
            XNextEvent(d, &e);
            if (!follow(d, &e, &maps)) continue;
            if (mapped_count > 0 && first < 0) first = now_ms();
            if (mapped_count == 0) last = now_ms();
        }
        if (!exited && waitpid(pid, NULL, WNOHANG) == pid) exited = 1;
        wait_events(d, mapped_count == 0 && last >= 0 ? last + quiet : deadline);
    }
    if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    if (first < 0) printf("unseen\n");
    else if (mapped_count == 0) printf("mapped %.3f\ncalm %.3f\n", first, last);
    else printf("mapped %.3f\nbusy\n", first);
    printf("windows %d\nmaps %d\n", seen_count, maps);
    return 0;
}
