/* Kernel: parsing numbers (strtod, strtol, atoi), the C library's decimal-to-binary
 * conversion. Prints a checksum of the values parsed. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 300000;
    char buf[64];
    double total = 0;
    long long ltotal = 0;
    for (int i = 0; i < n; i++) {
        snprintf(buf, sizeof buf, "%d.%06de%d %ld", i, (i * 7919) % 1000000, i % 41 - 20, (long)(i % 100000) * 12345);
        char *end;
        total += strtod(buf, &end);
        ltotal += strtol(end, NULL, 10) % 1000;
    }
    printf("%.17g %lld\n", total, ltotal);
    return 0;
}
