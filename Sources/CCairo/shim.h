#ifndef XTOAST_CCAIRO_SHIM_H
#define XTOAST_CCAIRO_SHIM_H

#include <cairo/cairo.h>
#include <pango/pangocairo.h>

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/resource.h>

/* zlib, for compressed SVG (.svgz) read with a bound on what it expands to (SVGIcon.swift); it
 * is loaded already, by libpng and FreeType. inflateInit2 is a macro: 16 + 15 reads gzip. */
#include <zlib.h>
static inline int xtoast_inflate_init_gzip(z_stream *stream) {
    return inflateInit2_(stream, 16 + MAX_WBITS, ZLIB_VERSION, (int)sizeof(z_stream));
}

/* PANGO_SCALE is a macro; Swift sees this instead. */
static inline int xtoast_pango_scale(void) { return PANGO_SCALE; }

/* librsvg, loaded with dlopen only when an SVG icon is drawn (SVGIcon.swift): linked in, it
 * would load libxml2, gdk-pixbuf and gio at every start. Its few functions are declared here as
 * pointer types, so no -dev package is needed to build. The handle is a GObject. */
typedef struct { double x, y, width, height; } xtoast_rsvg_rectangle;
typedef void *(*xtoast_rsvg_new_from_data)(const guint8 *data, gsize length, GError **error);
typedef gboolean (*xtoast_rsvg_render_document)(void *handle, cairo_t *cr, const xtoast_rsvg_rectangle *viewport,
                                                GError **error);

/* gdk-pixbuf, loaded with dlopen only when a JPEG, GIF, BMP, WebP, TIFF or ICO icon is drawn
 * (RasterIcon.swift), for the same reason; its loader and pixbuf are GObjects. */
typedef void *(*xtoast_pixbuf_loader_new_with_type)(const char *type, GError **error);
typedef void (*xtoast_pixbuf_loader_set_size)(void *loader, int width, int height);
typedef gboolean (*xtoast_pixbuf_loader_write)(void *loader, const guchar *bytes, gsize count, GError **error);
typedef gboolean (*xtoast_pixbuf_loader_close)(void *loader, GError **error);
typedef void *(*xtoast_pixbuf_loader_get_pixbuf)(void *loader);
/* gdk_pixbuf_get_width, _height, _rowstride, _n_channels, _bits_per_sample, _has_alpha. */
typedef int (*xtoast_pixbuf_get_number)(const void *pixbuf);
typedef const guint8 *(*xtoast_pixbuf_read_pixels)(const void *pixbuf);
/* The loader's "size-prepared" signal: the image's own size, before anything is decoded. */
typedef void (*xtoast_pixbuf_size_prepared)(void *loader, int width, int height, void *data);
static inline gulong xtoast_connect_size_prepared(void *loader, xtoast_pixbuf_size_prepared handler, void *data) {
    return g_signal_connect_data(loader, "size-prepared", G_CALLBACK(handler), data, NULL, 0);
}

/* A GNU extension that Swift's Glibc module does not show. */
extern int pthread_setattr_default_np(const pthread_attr_t *attr);

/* The soft stack limit in bytes (ULLONG_MAX: unlimited), raised to `minimum` first when it is
 * lower and the hard limit allows. glibc sized the stacks of threads to come (Pango's font
 * loader) from the limit at start-up: they get `minimum` too after a raise. */
static inline unsigned long long xtoast_raise_stack_limit(unsigned long long minimum) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_STACK, &limit) != 0) return ULLONG_MAX;
    if (limit.rlim_cur == RLIM_INFINITY) return ULLONG_MAX;
    if (limit.rlim_cur >= minimum) return limit.rlim_cur;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < minimum) return limit.rlim_cur;
    unsigned long long before = limit.rlim_cur;
    limit.rlim_cur = minimum;
    if (setrlimit(RLIMIT_STACK, &limit) != 0) return before;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) == 0) {
        pthread_attr_setstacksize(&attributes, minimum);
        pthread_setattr_default_np(&attributes);
        pthread_attr_destroy(&attributes);
    }
    return minimum;
}

/* The program's entry point (main.swift's top-level code). */
extern int main(int argc, char **argv);

/* Runs main again from the start, on the same thread but on a stack of `size` bytes mapped
 * here (the stack limit bounds only the stack the kernel grows), for a stack limit too small to
 * draw with. The same thread, because main's top-level code belongs to the main actor, which
 * checks the thread it runs on. Returns 0 in that second run, -1 when the stack cannot be
 * made; else it never returns (the second run ends the process with exit). */
struct xtoast_main_call {
    int argc;
    char **argv;
    int running;
    ucontext_t first, second;
};

/* One per process: a weak global, never a static inside an inline function (see CX11/shim.h). */
__attribute__((weak)) struct xtoast_main_call xtoast_main_call = {0};
static inline struct xtoast_main_call *xtoast_main_call_state(void) { return &xtoast_main_call; }

static inline void xtoast_main_again(void) {
    struct xtoast_main_call *call = xtoast_main_call_state();
    exit(main(call->argc, call->argv));
}

static inline int xtoast_run_main_with_stack(size_t size, int argc, char **argv) {
    struct xtoast_main_call *call = xtoast_main_call_state();
    if (call->running) return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *stack = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    /* A guard page below it: an overflow is SIGSEGV, not another mapping overwritten. */
    mprotect(stack, page, PROT_NONE);
    if (getcontext(&call->second) != 0) return -1;
    call->second.uc_stack.ss_sp = stack + page;
    call->second.uc_stack.ss_size = size;
    call->second.uc_link = NULL;
    makecontext(&call->second, xtoast_main_again, 0);
    /* Threads started later (Pango's font loader) would get the small limit's stack too. */
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) == 0) {
        pthread_attr_setstacksize(&attributes, size);
        pthread_setattr_default_np(&attributes);
        pthread_attr_destroy(&attributes);
    }
    call->argc = argc;
    call->argv = argv;
    call->running = 1;
    swapcontext(&call->first, &call->second);
    return -1;
}

#endif
