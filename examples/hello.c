/* `pnacl cc examples/hello.c -o hello.pexe && pnacl run hello.pexe Ada` */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    const char *who = argc > 1 ? argv[1] : "world";
    double x = 1.0;
    for (int i = 0; i < 10; i++) {
        x = x / 2 + 1 / x;
    }
    printf("hello, %s: sqrt(2) is about %.15f\n", who, x);
    return EXIT_SUCCESS;
}
