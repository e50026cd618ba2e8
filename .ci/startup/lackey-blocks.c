/* Reads valgrind's lackey trace (--trace-mem=yes) on stdin and prints, once each, the 16-byte
 * blocks of data the program read or wrote between FIRST and END (hex, addresses as valgrind
 * ran the program), for .ci/startup-order. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    const unsigned long first = strtoul(argv[1], NULL, 16), end = strtoul(argv[2], NULL, 16);
    unsigned char *seen = calloc((end - first) / 16 + 1, 1);
    char line[256];
    if (!seen) return 1;
    while (fgets(line, sizeof line, stdin)) {
        if (line[0] != ' ' || (line[1] != 'L' && line[1] != 'S' && line[1] != 'M')) continue;
        const unsigned long address = strtoul(line + 3, NULL, 16);
        if (address >= first && address < end) seen[(address - first) / 16] = 1;
    }
    for (unsigned long i = 0; i <= (end - first) / 16; i++)
        if (seen[i]) printf("%lx\n", first + i * 16);
    return 0;
}
