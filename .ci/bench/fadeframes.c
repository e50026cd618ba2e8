/* fadeframes: the frames a tool delivers while it fades, seen from outside, and its CPU time.
 *
 * Usage: fadeframes COMMAND [ARGS...]
 *
 * Forks and execs COMMAND once and watches it as firstpaint does: the root window
 * (SubstructureNotify) for the top-level InputOutput windows it creates, an XDamage watch on
 * each. From the first painted frame on (the first drawing after which any pixel of the window,
 * alpha included, is not zero), every damage notification on that window is a frame: the time
 * it arrives is recorded and the damage subtracted at once, so that the next drawing is reported
 * again. XDamageReportNonEmpty sends one notification per frame however many requests draw it,
 * as long as the server runs the frame's requests together (they come in one flush). The damage
 * the map itself causes (the server painting the background) is no frame: it is taken out under
 * a server grab when the window is mapped.
 * A fade that starts at alpha 0 is first seen in the frame that puts a pixel above 0: give the
 * command a curve that does so in its first frame (xtoast: --easing linear).
 * A frame may also only change the window's _NET_WM_WINDOW_OPACITY (a compositor blends by it,
 * and xtoast fades that way): each change of it on the drawn window is a frame too, and a damage
 * and an opacity change within 2 ms of each other are one frame.
 *
 * When the command has exited it prints, times in ms since the exec:
 *   rate HZ     the refresh rate of the CRTC showing most of the window, from its RandR mode,
 *               as a client pacing its frames computes it (0: unknown, e.g. Xvfb's own mode)
 *   frame MS    one line per frame
 *   cpu MS      user+sys time of the command, from wait4
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/Xrandr.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"

/* The length that [a, a + la) and [b, b + lb) share, 0 if none. */
static long shared(long a, long la, long b, long lb) {
    long low = a > b ? a : b, high = a + la < b + lb ? a + la : b + lb;
    return high > low ? high - low : 0;
}

/* The refresh rate of the CRTC that shows most of `where`: the mode's dot clock over its total
 * pixels per frame (twice the lines when double-scanned, half when interlaced); 0 when no CRTC
 * shows it or the mode has no timings. */
static double refresh_rate(Display *d, XRectangle where) {
    XRRScreenResources *resources = XRRGetScreenResourcesCurrent(d, DefaultRootWindow(d));
    if (!resources) return 0;
    double rate = 0;
    long best = 0;
    for (int c = 0; c < resources->ncrtc; c++) {
        XRRCrtcInfo *crtc = XRRGetCrtcInfo(d, resources, resources->crtcs[c]);
        if (!crtc) continue;
        long area = shared(crtc->x, crtc->width, where.x, where.width) * shared(crtc->y, crtc->height, where.y, where.height);
        XRRModeInfo *mode = NULL;
        for (int m = 0; m < resources->nmode; m++)
            if (resources->modes[m].id == crtc->mode) mode = &resources->modes[m];
        if (area > best && mode && mode->dotClock && mode->hTotal && mode->vTotal) {
            double lines = mode->vTotal;
            if (mode->modeFlags & RR_DoubleScan) lines *= 2;
            if (mode->modeFlags & RR_Interlace) lines /= 2;
            rate = mode->dotClock / (mode->hTotal * lines);
            best = area;
        }
        XRRFreeCrtcInfo(crtc);
    }
    XRRFreeScreenResources(resources);
    return rate;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: fadeframes COMMAND [ARGS...]\n"); return 64; }
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "fadeframes: cannot open display\n"); return 1; }
    XSetErrorHandler(ignore_errors);
    int damage_event, damage_error;
    if (!XDamageQueryExtension(d, &damage_event, &damage_error)) { fprintf(stderr, "fadeframes: no DAMAGE\n"); return 1; }
    XSelectInput(d, DefaultRootWindow(d), SubstructureNotifyMask);
    Atom opacity = XInternAtom(d, "_NET_WM_WINDOW_OPACITY", False);
    XSync(d, False);

    /* The command's exit arrives as a readable signalfd, so that the loop sleeps in poll() until
     * an X event or the exit (or a second has passed, for the deadline): the watcher makes no
     * wake-ups of its own during a fade to skew the timing. */
    sigset_t child_exit;
    sigemptyset(&child_exit);
    sigaddset(&child_exit, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child_exit, NULL);
    int exit_fd = signalfd(-1, &child_exit, SFD_CLOEXEC);

    double start = now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        sigprocmask(SIG_UNBLOCK, &child_exit, NULL);
        execvp(argv[1], argv + 1);
        _exit(127);
    }

    enum { MAX_WINDOWS = 16, MAX_FRAMES = 1 << 16 };
    Window targets[MAX_WINDOWS];
    Damage damages[MAX_WINDOWS];
    int count = 0;
    Window drawn = None;  /* the first window painted: its damages are the frames */
    XWindowAttributes where = { 0 };  /* the drawn window's, for its refresh rate */
    static double frames[MAX_FRAMES];
    int frame_count = 0;
    int exited = 0, last_pass = 0;
    double deadline = start + 120000;
    while (!last_pass) {
        /* After the exit, one more pass reads what the server sent before it. */
        if (exited) { XSync(d, False); last_pass = 1; }
        while (XPending(d)) {
            XEvent e;
            XNextEvent(d, &e);
            double arrived = now_ms();
            if (e.type == CreateNotify && count < MAX_WINDOWS && e.xcreatewindow.window != None) {
                XWindowAttributes a;
                if (!XGetWindowAttributes(d, e.xcreatewindow.window, &a) || a.class == InputOnly) continue;
                targets[count] = e.xcreatewindow.window;
                damages[count++] = XDamageCreate(d, e.xcreatewindow.window, XDamageReportNonEmpty);
                XSelectInput(d, e.xcreatewindow.window, PropertyChangeMask);
                continue;
            }
            if (e.type == PropertyNotify && e.xproperty.atom == opacity && e.xproperty.window == drawn) {
                double at = arrived - start;
                if (frame_count < MAX_FRAMES && (frame_count == 0 || at - frames[frame_count - 1] > 2)) frames[frame_count++] = at;
                continue;
            }
            if (e.type != MapNotify && e.type != damage_event + XDamageNotify) continue;
            Window w = e.type == MapNotify ? e.xmap.window : ((XDamageNotifyEvent *)&e)->drawable;
            int target = -1;
            for (int i = 0; i < count; i++)
                if (targets[i] == w) target = i;
            if (target < 0) continue;
            if (e.type == MapNotify) {
                /* Mapping paints the window's background, in the same request, before the client
                 * hears of it (Expose): that damage is no frame. Under a server grab, take in and
                 * subtract whatever the window has had so far; if its pixels already show
                 * something, the client's first frame came before the grab: it counts now. */
                XGrabServer(d);
                XSync(d, False);
                XEvent taken;  /* a damage event's drawable is where XAnyEvent has its window */
                while (XCheckTypedWindowEvent(d, w, damage_event + XDamageNotify, &taken)) continue;
                XDamageSubtract(d, damages[target], None, None);
                if (drawn == None && painted(d, w, ANY_BITS, &where)) {
                    drawn = w;
                    frames[frame_count++] = now_ms() - start;  /* the first: room for it */
                }
                XUngrabServer(d);
                XFlush(d);
                continue;
            }
            /* Subtract at once, so that the next drawing is reported again. */
            XDamageSubtract(d, damages[target], None, None);
            XFlush(d);
            if (drawn == None && painted(d, w, ANY_BITS, &where)) drawn = w;
            if (w == drawn && frame_count < MAX_FRAMES && (frame_count == 0 || arrived - start - frames[frame_count - 1] > 2))
                frames[frame_count++] = arrived - start;
        }
        if (last_pass) break;
        struct pollfd fds[2] = { { ConnectionNumber(d), POLLIN, 0 }, { exit_fd, POLLIN, 0 } };
        poll(fds, 2, 1000);
        if (fds[1].revents & POLLIN) exited = 1;
        if (now_ms() > deadline) { kill(pid, SIGKILL); exited = 1; }
    }
    struct rusage usage;
    wait4(pid, NULL, 0, &usage);

    XRectangle area = { where.x, where.y, where.width, where.height };
    printf("rate %.3f\n", drawn != None ? refresh_rate(d, area) : 0.0);
    for (int i = 0; i < frame_count; i++) printf("frame %.3f\n", frames[i]);
    printf("cpu %.3f\n", (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
                             (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3);
    return 0;
}
