/* cost: the CPU time and peak memory of a command's whole life, from wait4.
 *
 * Usage: cost COMMAND [ARGS...]
 *
 * Runs COMMAND with this program's standard input and its output sent to /dev/null, and prints
 *   pid PID           as soon as it is started, so that the caller can watch /proc/PID meanwhile
 *   cpu MS rss KB     once it has exited: user+sys time of it and its threads, and ru_maxrss
 * The peak RSS is why this is a small C program and not the bench's Python: at exec the kernel
 * keeps the larger of the old image's peak and the new one's, so a child forked from the
 * interpreter would report the interpreter's pages. Forked from this program, the floor is this
 * program's own peak (`cost true` shows it, about 1 MB).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: cost COMMAND [ARGS...]\n"); return 64; }
    pid_t pid = fork();
    if (pid < 0) { perror("cost: fork"); return 1; }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    printf("pid %d\n", (int)pid);
    fflush(stdout);
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("cost: wait4"); return 1; }
    printf("cpu %.3f rss %ld\n",
           (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3,
           usage.ru_maxrss);
    return WIFEXITED(status) && WEXITSTATUS(status) == 127;  /* 1 when COMMAND could not run */
}
