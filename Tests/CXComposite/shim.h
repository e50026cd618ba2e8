#ifndef XTOAST_TESTS_CXCOMPOSITE_SHIM_H
#define XTOAST_TESTS_CXCOMPOSITE_SHIM_H

// For the X tests only: whether a compositor has redirected the screen yet (xtoast never links
// libXcomposite; it learns of a compositor from the _NET_WM_CM_S0 selection).
#include <X11/extensions/Xcomposite.h>

#endif
