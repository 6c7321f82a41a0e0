/* Kernel: sorting with the C library's qsort and bsearch (through a comparison function). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    unsigned *v = malloc(n * sizeof *v);
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        v[i] = s >> 3;
    }
    qsort(v, n, sizeof *v, cmp);
    uint32_t found = 0;
    for (int i = 0; i < n; i += 7)
        found += bsearch(&v[i], v, n, sizeof *v, cmp) != NULL;
    uint32_t check = 0;
    for (int i = 0; i < n; i += 1000)
        check = check * 31 + v[i];
    printf("%u %u\n", (unsigned)check, (unsigned)found);
    free(v);
    return 0;
}
