/* spectral-norm: the Computer Language Benchmarks Game's eigenvalue by power method.
 * Written for pnacl's tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double eval_a(int i, int j) {
    return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
}

static void times(const double *v, double *out, int n, int transpose) {
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++)
            sum += (transpose ? eval_a(j, i) : eval_a(i, j)) * v[j];
        out[i] = sum;
    }
}

static void times_at_times(const double *v, double *out, double *tmp, int n) {
    times(v, tmp, n, 0);
    times(tmp, out, n, 1);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double *u = malloc(n * sizeof(double));
    double *v = malloc(n * sizeof(double));
    double *tmp = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
        u[i] = 1;
    for (int i = 0; i < 10; i++) {
        times_at_times(u, v, tmp, n);
        times_at_times(v, u, tmp, n);
    }
    double vbv = 0, vv = 0;
    for (int i = 0; i < n; i++) {
        vbv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    printf("%0.9f\n", sqrt(vbv / vv));
    return 0;
}
