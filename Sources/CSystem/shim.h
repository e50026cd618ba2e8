/* What XToastSystem needs of the C library that the Swift Glibc module leaves out or cannot
 * import (GNU extensions, macros). Nothing else in xtoast includes it. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>
#include <malloc.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>

/* pipe2 with O_CLOEXEC: no other child inherits the ends. */
static inline int xtoast_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC); }

/* F_SETPIPE_SZ is Linux's (and GNU's): the buffer of a pipe, in bytes; -1 where it cannot be set. */
static inline int xtoast_set_pipe_size(int descriptor, int size) {
#ifdef F_SETPIPE_SZ
    return fcntl(descriptor, F_SETPIPE_SZ, size);
#else
    return fcntl(descriptor, 1031, size);
#endif
}

/* The wait status macros. */
static inline int xtoast_exited(int status) { return WIFEXITED(status); }
static inline int xtoast_exit_code(int status) { return WEXITSTATUS(status); }
static inline int xtoast_signalled(int status) { return WIFSIGNALED(status); }
static inline int xtoast_term_signal(int status) { return WTERMSIG(status); }

/* Gives the heap's free pages back to the system (glibc); 0 elsewhere. */
static inline int xtoast_give_back_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}

/* libcanberra's functions, as `dlopen` finds them (SoundPlayer): the library is loaded only
 * when a sound is asked for, so its header is not needed and its types stay opaque here. */
typedef int (*xtoast_ca_context_create)(void **context);
typedef int (*xtoast_ca_context_destroy)(void *context);
typedef int (*xtoast_ca_proplist_create)(void **proplist);
typedef int (*xtoast_ca_proplist_destroy)(void *proplist);
typedef int (*xtoast_ca_proplist_sets)(void *proplist, const char *key, const char *value);
typedef int (*xtoast_ca_context_play_full)(void *context, unsigned int id, void *proplist, void *callback, void *userdata);
typedef const char *(*xtoast_ca_strerror)(int code);
