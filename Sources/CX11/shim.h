#ifndef XTOAST_CX11_SHIM_H
#define XTOAST_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/Xinerama.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/scrnsaver.h>
#include <X11/extensions/sync.h>
#include <X11/extensions/Xrender.h>
#include <cairo/cairo-xlib.h>
#include <X11/Xlib-xcb.h>
#include <xcb/randr.h>
#include <xcb/shape.h>
#include <xcb/xcbext.h>
#include <sys/uio.h>
#include <stdlib.h>

#include <signal.h>
#include <string.h>
#include <unistd.h>
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

/* XInput 2 raw motion, for --click-through (PointerWatch.swift), spoken directly through XCB:
 * libXi linked in would load at every start; opened with dlopen it takes eight round trips to
 * set itself up. This takes two (the extension's opcode, its version), and lets Xlib queue
 * XInput's events by giving it a converter for them. */
__attribute__((weak)) xcb_extension_t xtoast_xinput_key = {"XInputExtension", 0};
static inline xcb_extension_t *xtoast_xinput_extension(void) { return &xtoast_xinput_key; }

/* XInput's major opcode, 0 when the server lacks it (one round trip). */
static inline uint8_t xtoast_xinput_opcode(xcb_connection_t *connection) {
    const xcb_query_extension_reply_t *reply = xcb_get_extension_data(connection, xtoast_xinput_extension());
    return reply && reply->present ? reply->major_opcode : 0;
}

/* XIQueryVersion: tells the server we speak XInput 2.2 and returns what it will speak to us as
 * major * 100 + minor, 0 on failure (one round trip). */
static inline int xtoast_xi_query_version(xcb_connection_t *connection) {
    struct { uint8_t major_opcode, minor_opcode; uint16_t length, major, minor; } request = {0, 47, 0, 2, 2};
    struct iovec parts[4] = {{0}, {0}, {&request, sizeof request}, {0, 0}};
    xcb_protocol_request_t protocol = {2, xtoast_xinput_extension(), 47, 0};
    unsigned int sequence = xcb_send_request(connection, XCB_REQUEST_CHECKED, parts + 2, &protocol);
    xcb_generic_error_t *error = NULL;
    uint8_t *reply = (uint8_t *)xcb_wait_for_reply(connection, sequence, &error);
    free(error);
    if (!reply) return 0;
    uint16_t major, minor;
    memcpy(&major, reply + 8, 2);
    memcpy(&minor, reply + 10, 2);
    free(reply);
    return major * 100 + minor;
}

/* XISelectEvents on `window` for all master devices: raw motion, or nothing (no round trip). */
static inline void xtoast_xi_select_raw_motion(xcb_connection_t *connection, uint32_t window, int on) {
    struct {
        uint8_t major_opcode, minor_opcode; uint16_t length; uint32_t window; uint16_t masks, pad;
        uint16_t device, mask_length; uint8_t mask[4];
    } request = {0, 46, 0, window, 1, 0, 1 /* XIAllMasterDevices */, 1, {0}};
    /* A byte array: event type 17 (XI_RawMotion) is bit 1 of byte 2. */
    if (on) request.mask[17 / 8] = 1 << (17 % 8);
    struct iovec parts[4] = {{0}, {0}, {&request, sizeof request}, {0, 0}};
    xcb_protocol_request_t protocol = {2, xtoast_xinput_extension(), 46, 1};
    xcb_send_request(connection, 0, parts + 2, &protocol);
}

/* MIT-SCREEN-SAVER's state, asked through XCB so that the question travels with the start-up
 * batch (libXss's XScreenSaverQueryInfo waits for its answer).
 *
 * State in these headers is a weak global, which the linker keeps once, never a static inside
 * an inline function: every object file that calls one gets a copy of the function and of its
 * static (an optimised build inlines Swift callers across files), and XCB knows an extension
 * by its key. The release build once had two screen saver keys, so the answer prefetched as the
 * connection opened was not found and the server was asked again, a round trip before the
 * toast; and three watchdogs, one of which killed every toast held past 5 s. */
__attribute__((weak)) xcb_extension_t xtoast_screensaver_key = {"MIT-SCREEN-SAVER", 0};
static inline xcb_extension_t *xtoast_screensaver_extension(void) { return &xtoast_screensaver_key; }

static inline void xtoast_screensaver_prefetch(xcb_connection_t *connection) {
    xcb_prefetch_extension_data(connection, xtoast_screensaver_extension());
}

/* ScreenSaverQueryInfo on `drawable` without waiting; 0 when the server lacks the extension
 * (waits for the prefetched answer about it). */
static inline unsigned int xtoast_screensaver_ask(xcb_connection_t *connection, uint32_t drawable) {
    const xcb_query_extension_reply_t *reply = xcb_get_extension_data(connection, xtoast_screensaver_extension());
    if (!reply || !reply->present) return 0;
    struct { uint8_t major_opcode, minor_opcode; uint16_t length; uint32_t drawable; } request = {0, 1, 0, drawable};
    struct iovec parts[4] = {{0}, {0}, {&request, sizeof request}, {0, 0}};
    xcb_protocol_request_t protocol = {2, xtoast_screensaver_extension(), 1, 0};
    return xcb_send_request(connection, XCB_REQUEST_CHECKED, parts + 2, &protocol);
}

/* The state in the answer to `xtoast_screensaver_ask`: 0 off, 1 on, 3 disabled; -1 on error. */
static inline int xtoast_screensaver_state(xcb_connection_t *connection, unsigned int sequence) {
    xcb_generic_error_t *error = NULL;
    uint8_t *reply = (uint8_t *)xcb_wait_for_reply(connection, sequence, &error);
    free(error);
    if (!reply) return -1;
    int state = reply[1];
    free(reply);
    return state;
}

/* Throws away the answer to a question nobody will read. */
static inline void xtoast_discard(xcb_connection_t *connection, unsigned int sequence) {
    xcb_discard_reply(connection, sequence);
}

/* Xlib drops a GenericEvent of an extension it has no converter for. Ours keeps what tells a
 * raw motion event: the extension and the event type; the rest (the valuators) is not needed. */
extern Bool (*XESetWireToEventCookie(Display *, int, Bool (*)(Display *, XGenericEventCookie *, void *)))(
    Display *, XGenericEventCookie *, void *);

static inline Bool xtoast_xi_wire_to_cookie(Display *display, XGenericEventCookie *cookie, void *wire) {
    const uint8_t *bytes = (const uint8_t *)wire;
    uint16_t type;
    memcpy(&type, bytes + 8, 2);
    cookie->type = bytes[0] & 0x7f;
    cookie->serial = 0;
    cookie->send_event = (bytes[0] & 0x80) != 0;
    cookie->display = display;
    cookie->extension = bytes[1];
    cookie->evtype = type;
    cookie->cookie = 0;
    cookie->data = NULL;
    return True;
}

static inline void xtoast_xi_queue_events(Display *display, int opcode) {
    XESetWireToEventCookie(display, opcode, xtoast_xi_wire_to_cookie);
}

/* An input context for keys typed into a reply entry (XCreateIC is variadic): no preedit or
 * status of its own, the keys of `window`. NULL when the input method cannot give one. */
static inline XIC xtoast_create_ic(XIM method, Window window) {
    return XCreateIC(method, XNInputStyle, XIMPreeditNothing | XIMStatusNothing, XNClientWindow, window, XNFocusWindow,
                     window, (char *)NULL);
}

#include "watchdog.h"

#endif

