/* Kernel: formatting numbers (snprintf of doubles between 1 and a million, and integers),
 * the C library's printf engine and its binary-to-decimal conversion. Prints a checksum
 * of what it formatted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 200000;
    char buf[128];
    uint32_t sum = 0;
    double x = 1.0;
    for (int i = 0; i < n; i++) {
        x = x * 1.000123 + 0.5 / (i + 1);
        if (x > 1e6)
            x = x / 999983.0 + 1.0 / 7;
        int len = snprintf(buf, sizeof buf, "%.17g %e %f %d %x|", x, x / 3, x * 7, i, (unsigned)i * 2654435761u);
        for (int k = 0; k < len; k++)
            sum = sum * 31 + (unsigned char)buf[k];
    }
    printf("%u %s\n", (unsigned)sum, buf);
    return 0;
}
