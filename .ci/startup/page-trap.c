/* Preloaded by .ci/startup-order into a release toast: which pages of one range of the binary
 * (PAGE_TRAP_RANGE, "first-end" as link addresses in hex) the toast runs, in a real run rather
 * than under valgrind. The range is made inaccessible before the program's own constructors run;
 * the first touch of each page faults, is written to PAGE_TRAP_OUT as the page's link address,
 * and the page is opened again. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t base, first, end;
static int out = -1;

static void touched(int signal, siginfo_t *info, void *context) {
    const uintptr_t address = (uintptr_t)info->si_addr;
    if (address < first || address >= end) {  /* a real crash: let it happen */
        struct sigaction fallback = {.sa_handler = SIG_DFL};
        sigaction(signal, &fallback, NULL);
        return;
    }
    const uintptr_t page = address & ~(uintptr_t)4095;
    char line[32];
    const int length = snprintf(line, sizeof line, "%lx\n", (unsigned long)(page - base));
    (void)!write(out, line, (size_t)length);
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC);
}

static int main_program(struct dl_phdr_info *info, size_t size, void *data) {
    base = info->dlpi_addr;  /* the first entry is the program itself */
    return 1;
}

__attribute__((constructor)) static void trap(void) {
    const char *range = getenv("PAGE_TRAP_RANGE"), *path = getenv("PAGE_TRAP_OUT");
    unsigned long lo, hi;
    if (!range || !path || sscanf(range, "%lx-%lx", &lo, &hi) != 2) return;
    dl_iterate_phdr(main_program, NULL);
    first = (base + lo + 4095) & ~(uintptr_t)4095;
    end = (base + hi) & ~(uintptr_t)4095;
    out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    struct sigaction action = {.sa_sigaction = touched, .sa_flags = SA_SIGINFO | SA_NODEFER};
    sigaction(SIGSEGV, &action, NULL);
    if (out >= 0 && end > first) mprotect((void *)first, end - first, PROT_NONE);
}
