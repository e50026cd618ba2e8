/* The standard library's machine code, cut into the pages a toast runs and the rest before
 * anything runs it.
 *
 * The Swift runtime is linked in statically, and its standard library is one object file with
 * one 1.6 MB text section, which no linker can reorder. A toast runs about 110 of its 390 pages,
 * spread all over it. On every page fault in a file mapping the kernel also maps the pages
 * around it that are already in the page cache ("fault-around", 64 KB by default), but never
 * past the end of the mapping's VMA; so the whole section ended up resident: 1 MB of a toast's
 * peak, more than a third of what xtoast cost above the C floor (`make bench`).
 *
 * Two neighbouring VMAs merge unless their flags differ, so each run of pages a toast runs is
 * marked MADV_DONTDUMP (text is never in a core dump anyway: it is in the binary) and becomes a
 * VMA of its own, apart from the cold pages around it. The runs are made by `make
 * startup-order` from the functions a toast runs (stdlib-pages.h), as page numbers from the
 * section's start, which the release link aligns to a page (startup.ld): they hold for any link
 * with the toolchain whose section has the recorded size, and are left alone for any other.
 * About 40 madvise calls: 0.2 ms, against 0.9 ms to cut every page apart.
 *
 * Two more mappings are made the same way: our functions a toast runs (laid out together by
 * startup.order, up to xtoast_hot_text_end), so that the cold code after them is not mapped
 * around their last pages; and the runtime's crash-handler section (`swift5_backtrace`, 64 KB of
 * zeros a toast never reads), so that the pages mapped around the constants next to it are
 * never these.
 *
 * The section's bounds are symbols startup.ld defines; any other link (a debug build, the
 * tests, a linker without the script) leaves them undefined, and this does nothing. */
#include <stdint.h>
#include <sys/mman.h>

#include "stdlib-pages.h"

extern char __xtoast_stdlib_text_start[] __attribute__((weak));
extern char __xtoast_stdlib_text_end[] __attribute__((weak));
/* The linker's bounds of the runtime's crash-handler section (startup.ld puts it on its own). */
extern char __start_swift5_backtrace[] __attribute__((weak));
extern char __stop_swift5_backtrace[] __attribute__((weak));

static const struct {
    uint16_t first, count;
} hot_runs[] = {XTOAST_STDLIB_HOT_RUNS};

enum { page_size = 4096 };  /* the alignment startup.ld gives the section */

static uintptr_t page_down(uintptr_t address) { return address & ~(uintptr_t)(page_size - 1); }
static uintptr_t page_up(uintptr_t address) { return page_down(address + page_size - 1); }

/* The pages from `first` to `end` become a mapping of their own (a failure only costs memory). */
static void own_mapping(uintptr_t first, uintptr_t end) {
    if (end > first) (void)madvise((void *)first, end - first, MADV_DONTDUMP);
}

/* The runtime's crash-handler section, a mapping of its own: 64 KB of zeros that a toast never
 * reads, but that the kernel mapped around the constants next to it. */
static void split_crash_handler_data(void) {
    const uintptr_t start = (uintptr_t)__start_swift5_backtrace, end = (uintptr_t)__stop_swift5_backtrace;
    if (start && end) own_mapping(page_up(start), page_down(end));
}

/* Named last among the functions in startup.order, so the release link puts it right after the
 * functions a toast runs, which follow the standard library's section. */
__attribute__((section(".text.xtoast_hot_text_end"), used, noinline, visibility("hidden"))) void xtoast_hot_text_end(void) {}

/* Our functions a toast runs, a mapping of their own (joined to the standard library's last
 * run): the kernel no longer maps the cold code after them around their last pages. */
static void split_hot_text(uintptr_t stdlib_end) {
    const uintptr_t first = page_up(stdlib_end), end = page_up((uintptr_t)xtoast_hot_text_end);
    if (end - first < (16u << 20)) own_mapping(first, end);
}

/* Priority 101, the first an application may use: before the runtime's own constructors. */
__attribute__((constructor(101))) static void xtoast_split_stdlib_text(void) {
    const uintptr_t start = (uintptr_t)__xtoast_stdlib_text_start, end = (uintptr_t)__xtoast_stdlib_text_end;
    if (!start || !end || start % page_size || end - start != XTOAST_STDLIB_TEXT_SIZE) return;
    split_crash_handler_data();
    split_hot_text(end);
    for (unsigned i = 0; i < sizeof hot_runs / sizeof hot_runs[0]; i++) {
        const uintptr_t run = start + (uintptr_t)hot_runs[i].first * page_size;
        const uintptr_t run_end = run + (uintptr_t)hot_runs[i].count * page_size;
        if (run_end <= page_up(end)) own_mapping(run, run_end);
    }
}
