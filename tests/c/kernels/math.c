/* Kernel: the math library's transcendental functions (sin, cos, tan, exp, log, pow,
 * atan2, sqrt, floor, fmod). Prints a sum of the results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    double acc = 0;
    for (int i = 1; i <= n; i++) {
        double x = i * 0.000731 - 300.0;
        acc += sin(x) + cos(x * 0.5) + tan(x * 0.001);
        acc += exp(x * 0.002) + log(i * 0.37) + pow(1.0001, i % 5000);
        acc += atan2(x, i * 0.1) + sqrt(i) + floor(x) + fmod(x, 7.5);
    }
    printf("%.10e\n", acc);
    return 0;
}
