/* Kernel: formatting numbers (snprintf of doubles and integers), the C library's printf
 * engine and its binary-to-decimal conversion. Prints a checksum of what it formatted. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 200000;
    char buf[128];
    unsigned long sum = 0;
    double x = 1.0;
    for (int i = 0; i < n; i++) {
        x = x * 1.000123 + 0.5 / (i + 1);
        int len = snprintf(buf, sizeof buf, "%.17g %e %f %d %x|", x, x / 3, x * 7, i, (unsigned)i * 2654435761u);
        for (int k = 0; k < len; k++)
            sum = sum * 31 + (unsigned char)buf[k];
    }
    printf("%lu %s\n", sum, buf);
    return 0;
}
