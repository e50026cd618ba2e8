/* What the bench's watchers (firstpaint, fadeframes, queuewatch) share: a clock, an error
 * handler for windows that vanish while looked at, and the test for a painted window. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <time.h>

static inline double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int ignore_errors(Display *d, XErrorEvent *e) { (void)d; (void)e; return 0; }

/* Whether the mapped window `w` shows anything: a pixel with a bit of `mask` set. COLOUR
 * ignores alpha (a map leaves transparent or black pixels); ANY_BITS counts it too, so that
 * the faint first frame of a fade (premultiplied, nearly black) is seen. Fills in the window's
 * attributes when it is viewable (a top-level override-redirect window's parent is the root). */
#define COLOUR 0xffffffUL
#define ANY_BITS (~0UL)
static inline int painted(Display *d, Window w, unsigned long mask, XWindowAttributes *attributes) {
    XWindowAttributes a;
    if (!XGetWindowAttributes(d, w, &a) || a.map_state != IsViewable) return 0;
    *attributes = a;
    XImage *image = XGetImage(d, w, 0, 0, a.width, a.height, AllPlanes, ZPixmap);
    if (!image) return 0;
    int found = 0;
    for (int y = 0; y < a.height && !found; y++)
        for (int x = 0; x < a.width && !found; x++)
            if (XGetPixel(image, x, y) & mask) found = 1;
    XDestroyImage(image);
    return found;
}
