/* The floor: the least an X program can do to show a message box. An override-redirect
 * window with a background, mapped, and a rectangle drawn on the first Expose; it exits after
 * argv[1] seconds (default: when killed). */
#include <X11/Xlib.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    Display *d = XOpenDisplay(NULL);
    if (!d) return 1;
    int screen = DefaultScreen(d);
    XSetWindowAttributes a = { .override_redirect = True, .background_pixel = BlackPixel(d, screen) };
    Window w = XCreateWindow(d, RootWindow(d, screen), 860, 1025, 200, 40, 0, CopyFromParent, InputOutput, CopyFromParent,
                             CWOverrideRedirect | CWBackPixel, &a);
    XSelectInput(d, w, ExposureMask);
    XMapRaised(d, w);
    GC gc = XCreateGC(d, w, 0, NULL);
    XSetForeground(d, gc, WhitePixel(d, screen));
    for (;;) {
        XEvent e;
        XNextEvent(d, &e);
        if (e.type == Expose) {
            XFillRectangle(d, w, gc, 10, 10, 180, 20);
            XFlush(d);
            break;
        }
    }
    if (argc > 1) sleep((unsigned)atoi(argv[1])); else pause();
    return 0;
}
