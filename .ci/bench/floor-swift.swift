// The Cairo+Pango floor (floor-cairo.c) written in Swift and linked as xtoast's release build
// is (the runtime in, statically; lld and packed relocations where the Makefile uses them): what
// the language and its runtime cost before any of xtoast's own work. Exits after argv[1]
// seconds (default: when killed).
import CCairo
import CX11
import Glibc

guard let d = XOpenDisplay(nil) else { exit(1) }
let screen = XDefaultScreen(d)
var vi = XVisualInfo()
guard XMatchVisualInfo(d, screen, 32, TrueColor, &vi) != 0 else { exit(1) }
let root = XRootWindow(d, screen)
var a = XSetWindowAttributes()
a.override_redirect = 1
a.colormap = XCreateColormap(d, root, vi.visual, AllocNone)
a.border_pixel = 0
a.background_pixel = 0
// Text first: the box's size comes from it.
let map = pango_cairo_font_map_get_default()
let context = pango_font_map_create_context(map)
pango_cairo_context_set_resolution(context, 72)
let layout = pango_layout_new(context)
let font = pango_font_description_from_string("Sans 14")
pango_layout_set_font_description(layout, font)
pango_layout_set_text(layout, "Tagged", -1)
var tw: Int32 = 0
var th: Int32 = 0
pango_layout_get_pixel_size(layout, &tw, &th)
let w = tw + 20
let h = max(th + 20, 38)
let win = XCreateWindow(
    d, root, (1920 - w) / 2, 1080 - 15 - h, UInt32(w), UInt32(h), 0, 32, UInt32(InputOutput), vi.visual,
    UInt(CWOverrideRedirect | CWColormap | CWBorderPixel | CWBackPixel), &a)
XSelectInput(d, win, ExposureMask)
XMapRaised(d, win)
while true {
    var e = XEvent()
    XNextEvent(d, &e)
    if e.type != Expose { continue }
    let s = cairo_xlib_surface_create(d, win, vi.visual, w, h)
    let cr = cairo_create(s)
    let r = 5.0
    cairo_new_sub_path(cr)
    cairo_arc(cr, Double(w) - r, r, r, -Double.pi / 2, 0)
    cairo_arc(cr, Double(w) - r, Double(h) - r, r, 0, Double.pi / 2)
    cairo_arc(cr, r, Double(h) - r, r, Double.pi / 2, Double.pi)
    cairo_arc(cr, r, r, r, Double.pi, 3 * Double.pi / 2)
    cairo_close_path(cr)
    cairo_set_source_rgba(cr, 0, 0, 0, 0.8)
    cairo_fill(cr)
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_move_to(cr, Double(w - tw) / 2, Double(h - th) / 2)
    pango_cairo_show_layout(cr, layout)
    cairo_surface_flush(s)
    XFlush(d)
    break
}
if CommandLine.arguments.count > 1 { sleep(UInt32(CommandLine.arguments[1]) ?? 0) } else { pause() }
