/* Standard output and standard error interleaved, written unbuffered line by line (as the
 * SDK's newlib wrote to a pipe), then a long run of standard output: the order of the
 * lines on one pipe must be the order they were written in, whatever the host gathers. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    char line[64];
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    for (int i = 0; i < 5; i++) {
        int k = snprintf(line, sizeof line, "out %d\n", i);
        write(1, line, k);
        k = snprintf(line, sizeof line, "err %d\n", i);
        write(2, line, k);
    }
    for (int i = 0; i < n; i++) {
        int k = snprintf(line, sizeof line, "line %d of standard output\n", i);
        write(1, line, k);
    }
    write(2, "done\n", 5);
    return 3;
}
