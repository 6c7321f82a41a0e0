/* Kernel: the C library's allocator under churn: blocks of many sizes allocated, resized
 * and freed in a pseudo-random order, a working set of a few thousand live blocks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 4096

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2000000;
    static char *slot[LIVE];
    static size_t size[LIVE];
    unsigned s = 7;
    uint32_t check = 0;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        unsigned k = (s >> 8) % LIVE;
        size_t want = ((s >> 20) % 8 == 0) ? 1000 + (s >> 16) % 20000 : 8 + (s >> 12) % 200;
        if (!slot[k]) {
            slot[k] = malloc(want);
            size[k] = want;
            memset(slot[k], (int)i, want < 16 ? want : 16);
        } else if ((s >> 4) % 3 == 0) {
            slot[k] = realloc(slot[k], want);
            size[k] = want;
        } else {
            check += (unsigned char)slot[k][0];
            free(slot[k]);
            slot[k] = NULL;
        }
    }
    for (int k = 0; k < LIVE; k++)
        free(slot[k]);
    printf("%u\n", (unsigned)check);
    return 0;
}
