/* Kernel: the C library's string and memory functions on short and long strings
 * (strlen, strcmp, strchr, strstr, memcpy, memset, memcmp, strcpy, strcat). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    char *big = malloc(4096), *copy = malloc(4096);
    for (int i = 0; i < 4095; i++)
        big[i] = 'a' + (i * 7) % 26;
    big[4095] = 0;
    uint32_t acc = 0;
    char small[64];
    for (int i = 0; i < n; i++) {
        big[(i * 13) % 4000] = 'A' + i % 26;
        acc += strlen(big + (i % 100));
        memcpy(copy, big, 4096);
        acc += memcmp(copy, big, 4096) == 0;
        acc += strchr(big, 'A' + i % 26) - big;
        acc += strstr(big, "xeloszg") != NULL;
        snprintf(small, sizeof small, "key%05d", i);
        strcpy(copy, small);
        strcat(copy, "-suffix");
        acc += strcmp(copy, small) > 0;
        memset(copy, i & 255, 2048);
        acc += (unsigned char)copy[1000];
    }
    printf("%u\n", (unsigned)acc);
    free(big);
    free(copy);
    return 0;
}
