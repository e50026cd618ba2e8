/* firstpaint: time from exec to a tool's first painted pixels, seen from outside.
 *
 * Usage: firstpaint RUNS COMMAND [ARGS...]
 *
 * For each run it forks and execs COMMAND, watches the root window (SubstructureNotify) for
 * the top-level windows the command creates, puts an XDamage watch on each at once, and on
 * every damage or map reads the window's pixels: the first moment any pixel of a mapped window
 * is not zero (not the transparent or black background a map leaves) is the first painted
 * frame. (xtoast also creates an unmapped InputOnly ticket window; it never counts.) It trusts nothing
 * the tool reports about itself. Prints one line per run and a median/min/max summary, in ms.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: firstpaint RUNS COMMAND [ARGS...]\n"); return 64; }
    int runs = atoi(argv[1]);
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "firstpaint: cannot open display\n"); return 1; }
    XSetErrorHandler(ignore_errors);
    int damage_event, damage_error;
    if (!XDamageQueryExtension(d, &damage_event, &damage_error)) { fprintf(stderr, "firstpaint: no DAMAGE\n"); return 1; }
    Window root = DefaultRootWindow(d);
    XSelectInput(d, root, SubstructureNotifyMask);
    double *times = calloc(runs, sizeof *times);
    int done = 0;
    for (int run = 0; run < runs; run++) {
        XSync(d, True);
        double start = now_ms();
        pid_t pid = fork();
        if (pid == 0) {
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        enum { MAX_WINDOWS = 16 };
        Window targets[MAX_WINDOWS];
        Damage damages[MAX_WINDOWS];
        int count = 0;
        double paint = -1, deadline = start + 10000;
        while (paint < 0 && now_ms() < deadline) {
            while (paint < 0 && XPending(d)) {
                XEvent e;
                XNextEvent(d, &e);
                if (e.type == CreateNotify && count < MAX_WINDOWS && e.xcreatewindow.window != None) {
                    XWindowAttributes a;
                    if (!XGetWindowAttributes(d, e.xcreatewindow.window, &a) || a.class == InputOnly) continue;
                    targets[count] = e.xcreatewindow.window;
                    damages[count++] = XDamageCreate(d, e.xcreatewindow.window, XDamageReportNonEmpty);
                    XSync(d, False);
                } else if (e.type == damage_event + XDamageNotify || e.type == MapNotify) {
                    Window w = e.type == MapNotify ? e.xmap.window : ((XDamageNotifyEvent *)&e)->drawable;
                    /* A daemon (dunst) maps a window it made earlier: watch that one too. */
                    int known = 0;
                    for (int i = 0; i < count; i++) known |= targets[i] == w;
                    if (!known && e.type == MapNotify && count < MAX_WINDOWS) {
                        targets[count] = w;
                        damages[count++] = XDamageCreate(d, w, XDamageReportNonEmpty);
                        XSync(d, False);
                    }
                    for (int i = 0; i < count; i++) {
                        if (targets[i] != w) continue;
                        if (e.type != MapNotify) XDamageSubtract(d, damages[i], None, None);
                        XWindowAttributes a;
                        if (painted(d, w, COLOUR, &a)) paint = now_ms();
                    }
                }
            }
            struct pollfd fd = { ConnectionNumber(d), POLLIN, 0 };
            if (paint < 0) poll(&fd, 1, 50);
        }
        for (int i = 0; i < count; i++) XDamageDestroy(d, damages[i]);
        kill(pid, SIGKILL);  /* osd_cat ignores SIGTERM; nothing needs to clean up here */
        waitpid(pid, NULL, 0);
        if (paint < 0) { printf("run %d: no paint seen\n", run + 1); continue; }
        times[done++] = paint - start;
        printf("run %d: %.2f ms\n", run + 1, paint - start);
        fflush(stdout);
    }
    if (!done) return 1;
    qsort(times, done, sizeof *times, compare);
    printf("first paint: median %.2f ms, min %.2f, max %.2f (%d runs)\n", times[done / 2], times[0], times[done - 1], done);
    return 0;
}
