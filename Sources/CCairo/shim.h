#ifndef XTOAST_CCAIRO_SHIM_H
#define XTOAST_CCAIRO_SHIM_H

#include <cairo/cairo.h>
#include <pango/pangocairo.h>

/* PANGO_SCALE is a macro; Swift sees this instead. */
static inline int xtoast_pango_scale(void) { return PANGO_SCALE; }

#endif
