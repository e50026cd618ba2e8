#ifndef XTOAST_CCAIRO_SHIM_H
#define XTOAST_CCAIRO_SHIM_H

#include <cairo/cairo.h>
#include <pango/pangocairo.h>

#include <limits.h>
#include <pthread.h>
#include <sys/resource.h>

/* PANGO_SCALE is a macro; Swift sees this instead. */
static inline int xtoast_pango_scale(void) { return PANGO_SCALE; }

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

#endif
