#ifndef XTOAST_CCAIRO_SHIM_H
#define XTOAST_CCAIRO_SHIM_H

#include <cairo/cairo.h>
#include <pango/pangocairo.h>

/* PANGO_SCALE and PANGO_PIXELS are macros; Swift sees these instead. */
static inline int xtoast_pango_scale(void) { return PANGO_SCALE; }
static inline int xtoast_pango_pixels_ceil(int units) { return (units + PANGO_SCALE - 1) / PANGO_SCALE; }

#endif
