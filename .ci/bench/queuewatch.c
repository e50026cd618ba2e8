/* queuewatch: N processes started at once: how soon all have joined xtoast's queue, and whether
 * their toasts then show in that order. Seen from outside.
 *
 * Usage: queuewatch N COMMAND [ARGS...]
 *
 * Forks N copies of COMMAND back to back and follows them through the X server:
 * - joining: an xtoast process joins the queue with one request, a ChangeProperty that appends
 *   its ticket to the root's _XTOAST_QUEUE (untagged toasts; a tag rewrites the list instead).
 *   The RECORD extension reports those requests as the server runs them, one after another, so
 *   their order is the queue's order whatever happens to the list afterwards (the list itself is
 *   no record: dead entries may stay in it, and a new client can get a dead one's window ids);
 * - showing: the top-level InputOutput windows the copies create get an XDamage watch; a toast
 *   shows when its window's pixels are first not zero (not the transparent or black background a
 *   map leaves), as in firstpaint. It is then clicked away (XTEST: the pointer moved onto it,
 *   button 1 pressed and released), so COMMAND should show a toast that holds until clicked
 *   (xtoast: --duration sticky): none can come and go before the watcher has seen it.
 * Requests and windows are matched to processes by the pid the server knows for their client
 * (X-Resource), not by anything the copies write about themselves.
 *
 * When all N have exited it prints, times in ms since the first fork:
 *   joined K MS   K copies joined the queue, the last at MS
 *   shown K MS    K toasts painted, the last at MS
 *   order I       toasts shown after one that joined later, or without having joined (0: in order)
 */
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <X11/Xutil.h>
#include <X11/extensions/XRes.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/record.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"

/* The pid of the client that owns resource `id` (any XID of it, or its resource base), as the
 * server knows it; 0 when it is gone or the server cannot tell (a remote client). */
static pid_t owner(Display *d, XID id) {
    XResClientIdSpec spec = { .client = id, .mask = XRES_CLIENT_ID_PID_MASK };
    long count = 0;
    XResClientIdValue *values = NULL;
    pid_t pid = 0;
    if (XResQueryClientIds(d, 1, &spec, &count, &values) == Success) {
        for (long i = 0; i < count && pid <= 0; i++) pid = XResGetClientPid(&values[i]);
        XResClientIdsDestroy(count, values);
    }
    return pid > 0 ? pid : 0;
}

enum { MAX = 4096 };

/* What the RECORD callback needs, and what it finds. */
static struct {
    Display *display;  /* the main connection, for X-Resource (RECORD's own is busy) */
    Atom queue;
    double start;
    int recording;     /* the server has started sending data */
    pid_t joined[MAX]; /* the processes that joined, in order */
    int count;
    double last;
} joins;

static void on_request(XPointer unused, XRecordInterceptData *data) {
    (void)unused;
    if (data->category == XRecordStartOfData) joins.recording = 1;
    if (data->category == XRecordFromClient && data->data_len * 4 >= sizeof(xChangePropertyReq) && !data->client_swapped) {
        const xChangePropertyReq *request = (const xChangePropertyReq *)data->data;
        if (request->reqType == X_ChangeProperty && request->mode == PropModeAppend && request->property == joins.queue &&
            joins.count < MAX) {
            joins.joined[joins.count++] = owner(joins.display, data->id_base);
            joins.last = now_ms() - joins.start;
        }
    }
    XRecordFreeData(data);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: queuewatch N COMMAND [ARGS...]\n"); return 64; }
    int n = atoi(argv[1]);
    if (n < 1 || n > MAX / 4) { fprintf(stderr, "queuewatch: N from 1 to %d\n", MAX / 4); return 64; }
    Display *d = XOpenDisplay(NULL), *record = XOpenDisplay(NULL);
    if (!d || !record) { fprintf(stderr, "queuewatch: cannot open display\n"); return 1; }
    XSetErrorHandler(ignore_errors);
    int damage_event, damage_error, res_event, res_error, test_event, test_error, major, minor;
    if (!XDamageQueryExtension(d, &damage_event, &damage_error)) { fprintf(stderr, "queuewatch: no DAMAGE\n"); return 1; }
    if (!XResQueryExtension(d, &res_event, &res_error)) { fprintf(stderr, "queuewatch: no X-Resource\n"); return 1; }
    if (!XTestQueryExtension(d, &test_event, &test_error, &major, &minor)) { fprintf(stderr, "queuewatch: no XTEST\n"); return 1; }
    if (!XRecordQueryVersion(d, &major, &minor)) { fprintf(stderr, "queuewatch: no RECORD\n"); return 1; }
    joins.display = d;
    joins.queue = XInternAtom(d, "_XTOAST_QUEUE", False);
    XSelectInput(d, DefaultRootWindow(d), SubstructureNotifyMask);

    /* Record every client's ChangeProperty requests, on a connection of its own. */
    XRecordRange *range = XRecordAllocRange();
    range->core_requests.first = range->core_requests.last = X_ChangeProperty;
    XRecordClientSpec clients = XRecordAllClients;
    XRecordContext context = XRecordCreateContext(d, 0, &clients, 1, &range, 1);
    XSync(d, False);
    if (!context || !XRecordEnableContextAsync(record, context, on_request, NULL)) {
        fprintf(stderr, "queuewatch: cannot record\n");
        return 1;
    }
    XFlush(record);
    while (!joins.recording) {
        struct pollfd fd = { ConnectionNumber(record), POLLIN, 0 };
        poll(&fd, 1, 1000);
        XRecordProcessReplies(record);
    }

    /* The copies' exits arrive on a signalfd; the loop sleeps in poll() in between. */
    sigset_t child_exit;
    sigemptyset(&child_exit);
    sigaddset(&child_exit, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child_exit, NULL);
    int exit_fd = signalfd(-1, &child_exit, SFD_CLOEXEC);

    static pid_t copies[MAX];
    joins.start = now_ms();
    for (int i = 0; i < n; i++) {
        if ((copies[i] = fork()) == 0) {
            sigprocmask(SIG_UNBLOCK, &child_exit, NULL);
            execvp(argv[2], argv + 2);
            _exit(127);
        }
    }

    /* The copies' InputOutput windows, with their owners (asked at creation, while surely alive). */
    static Window toasts[MAX];
    static pid_t owners[MAX];
    static Damage damages[MAX];
    static int seen[MAX];
    int count = 0, shown = 0, out_of_order = 0, furthest = -1;
    double last_shown = 0;
    int running = n;
    double deadline = joins.start + 120000;
    while (running > 0 && now_ms() < deadline) {
        XRecordProcessReplies(record);
        while (XPending(d)) {
            XEvent e;
            XNextEvent(d, &e);
            if (e.type == CreateNotify && count < MAX) {
                XWindowAttributes a;
                if (!XGetWindowAttributes(d, e.xcreatewindow.window, &a) || a.class == InputOnly) continue;
                toasts[count] = e.xcreatewindow.window;
                owners[count] = owner(d, toasts[count]);
                damages[count++] = XDamageCreate(d, e.xcreatewindow.window, XDamageReportNonEmpty);
            } else if (e.type == damage_event + XDamageNotify || e.type == MapNotify) {
                Window w = e.type == MapNotify ? e.xmap.window : ((XDamageNotifyEvent *)&e)->drawable;
                for (int i = 0; i < count; i++) {
                    if (toasts[i] != w || seen[i]) continue;
                    if (e.type != MapNotify) XDamageSubtract(d, damages[i], None, None);
                    XWindowAttributes a;
                    if (!painted(d, w, COLOUR, &a)) continue;
                    seen[i] = 1;
                    shown++;
                    last_shown = now_ms() - joins.start;
                    /* Its place in the queue; a join recorded since the last look counts too. */
                    XRecordProcessReplies(record);
                    int place = -1;
                    for (int j = 0; j < joins.count && place < 0; j++)
                        if (owners[i] && joins.joined[j] == owners[i]) place = j;
                    if (place < furthest || place < 0) out_of_order++;
                    if (place > furthest) furthest = place;
                    XTestFakeMotionEvent(d, -1, a.x + a.width / 2, a.y + a.height / 2, CurrentTime);
                    XTestFakeButtonEvent(d, Button1, True, CurrentTime);
                    XTestFakeButtonEvent(d, Button1, False, CurrentTime);
                    XFlush(d);
                }
            }
        }
        struct pollfd fds[3] = { { ConnectionNumber(d), POLLIN, 0 }, { ConnectionNumber(record), POLLIN, 0 }, { exit_fd, POLLIN, 0 } };
        poll(fds, 3, 1000);
        if (fds[2].revents & POLLIN) {
            struct signalfd_siginfo info;
            if (read(exit_fd, &info, sizeof info) < 0) continue;
            pid_t pid;
            while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
                for (int i = 0; i < n; i++)
                    if (copies[i] == pid) copies[i] = 0, running--;
        }
    }
    if (running > 0) {  /* past the deadline: no figures */
        for (int i = 0; i < n; i++)
            if (copies[i]) kill(copies[i], SIGKILL);
        fprintf(stderr, "queuewatch: %d of %d still running after %.0f s\n", running, n, (deadline - joins.start) / 1e3);
        return 1;
    }
    XRecordDisableContext(d, context);
    XRecordFreeContext(d, context);
    XFree(range);
    printf("joined %d %.1f\n", joins.count, joins.last);
    printf("shown %d %.1f\n", shown, last_shown);
    printf("order %d\n", out_of_order);
    return 0;
}
