#ifndef XTOAST_CX11_SHIM_H
#define XTOAST_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/Xinerama.h>
#include <X11/extensions/Xfixes.h>
#include <cairo/cairo-xlib.h>
#include <X11/Xlib-xcb.h>
#include <xcb/randr.h>
#include <xcb/shape.h>

#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <poll.h>
#include <time.h>

/* What Swift cannot express or import directly. */

/* Blocks the given signals for this thread and returns a signalfd that reads them, or -1. */
static inline int xtoast_signalfd(const int *signals, int count) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

/* Asks whether the server has RandR and SHAPE without waiting for the answers, so that they
 * come back with whatever is asked next (the atoms). */
static inline void xtoast_prefetch_extensions(xcb_connection_t *connection) {
    xcb_prefetch_extension_data(connection, &xcb_randr_id);
    xcb_prefetch_extension_data(connection, &xcb_shape_id);
}

/* The major opcode of RandR or SHAPE, 0 when the server lacks it (waits for the answer). */
static inline uint8_t xtoast_randr_opcode(xcb_connection_t *connection) {
    const xcb_query_extension_reply_t *reply = xcb_get_extension_data(connection, &xcb_randr_id);
    return reply && reply->present ? reply->major_opcode : 0;
}

static inline uint8_t xtoast_shape_opcode(xcb_connection_t *connection) {
    const xcb_query_extension_reply_t *reply = xcb_get_extension_data(connection, &xcb_shape_id);
    return reply && reply->present ? reply->major_opcode : 0;
}

#endif
