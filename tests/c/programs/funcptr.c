/* Function pointers: tables, callbacks, qsort with a comparator, pointers returned. */
#include <stdio.h>
#include <stdlib.h>

typedef long (*binop)(long, long);
static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long mul(long a, long b) { return a * b; }
static binop pick(char c) { return c == '+' ? add : c == '-' ? sub : mul; }

static int by_value(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void each(int *v, int n, void (*f)(int *)) { for (int i = 0; i < n; i++) f(&v[i]); }
static void bump(int *x) { *x = *x * 3 + 1; }

int main(void) {
    const char *ops = "+-*+*";
    long acc = 1;
    for (const char *p = ops; *p; p++) acc = pick(*p)(acc, 7);
    printf("%ld\n", acc);
    int v[10] = { 5, -3, 9, 0, 12, -8, 7, 7, 1, 4 };
    each(v, 10, bump);
    qsort(v, 10, sizeof v[0], by_value);
    for (int i = 0; i < 10; i++) printf("%d ", v[i]);
    printf("\n");
    return 0;
}
