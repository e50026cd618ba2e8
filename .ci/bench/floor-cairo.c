/* The floor for our kind of drawing: an override-redirect 32-bit ARGB window, and on the
 * first Expose a rounded translucent box with a Pango text in it, drawn with Cairo. What
 * xtoast does, without anything else (no queue, no monitors, no fades). Exits after argv[1]
 * seconds (default: when killed). */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <cairo/cairo-xlib.h>
#include <pango/pangocairo.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    Display *d = XOpenDisplay(NULL);
    if (!d) return 1;
    int screen = DefaultScreen(d);
    XVisualInfo vi;
    if (!XMatchVisualInfo(d, screen, 32, TrueColor, &vi)) return 1;
    Window root = RootWindow(d, screen);
    XSetWindowAttributes a = { .override_redirect = True, .colormap = XCreateColormap(d, root, vi.visual, AllocNone),
                               .border_pixel = 0, .background_pixel = 0 };
    /* Text first: the box's size comes from it. */
    PangoFontMap *map = pango_cairo_font_map_get_default();
    PangoContext *context = pango_font_map_create_context(map);
    pango_cairo_context_set_resolution(context, 72);
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *font = pango_font_description_from_string("Sans 14");
    pango_layout_set_font_description(layout, font);
    pango_layout_set_text(layout, "Tagged", -1);
    int tw, th;
    pango_layout_get_pixel_size(layout, &tw, &th);
    int w = tw + 20, h = th + 20 < 38 ? 38 : th + 20;
    Window win = XCreateWindow(d, root, (1920 - w) / 2, 1080 - 15 - h, w, h, 0, 32, InputOutput, vi.visual,
                               CWOverrideRedirect | CWColormap | CWBorderPixel | CWBackPixel, &a);
    XSelectInput(d, win, ExposureMask);
    XMapRaised(d, win);
    for (;;) {
        XEvent e;
        XNextEvent(d, &e);
        if (e.type != Expose) continue;
        cairo_surface_t *s = cairo_xlib_surface_create(d, win, vi.visual, w, h);
        cairo_t *cr = cairo_create(s);
        double r = 5;
        cairo_new_sub_path(cr);
        cairo_arc(cr, w - r, r, r, -M_PI / 2, 0);
        cairo_arc(cr, w - r, h - r, r, 0, M_PI / 2);
        cairo_arc(cr, r, h - r, r, M_PI / 2, M_PI);
        cairo_arc(cr, r, r, r, M_PI, 3 * M_PI / 2);
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.8);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_move_to(cr, (w - tw) / 2, (h - th) / 2);
        pango_cairo_show_layout(cr, layout);
        cairo_surface_flush(s);
        XFlush(d);
        break;
    }
    if (argc > 1) sleep((unsigned)atoi(argv[1])); else pause();
    return 0;
}
