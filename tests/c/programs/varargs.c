/* Variadic functions with every argument kind, va_list passed on, va_copy. */
#include <stdarg.h>
#include <stdio.h>

struct pair { int a; double b; };

static long long sum_ints(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static double mix(const char *fmt, ...) {
    va_list ap, copy;
    va_start(ap, fmt);
    va_copy(copy, ap);
    double total = 0;
    for (const char *p = fmt; *p; p++) {
        switch (*p) {
        case 'i': total += va_arg(ap, int); break;
        case 'l': total += (double)va_arg(ap, long long); break;
        case 'd': total += va_arg(ap, double); break;
        case 's': total += (double)va_arg(ap, const char *)[0]; break;
        case 'p': { struct pair q = va_arg(ap, struct pair); total += q.a + q.b; break; }
        case 'c': total += (char)va_arg(ap, int); break;
        }
    }
    /* The copy walks the same arguments again. */
    double first = fmt[0] == 'i' ? va_arg(copy, int) : 0;
    va_end(copy);
    va_end(ap);
    return total + first;
}

static int forward(char *buf, int size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    printf("%lld\n", sum_ints(0));
    printf("%lld\n", sum_ints(5, 1, 2, 3, 4, -5));
    struct pair q = { 7, 0.5 };
    printf("%.3f\n", mix("ildspc", 3, 10000000000LL, 2.25, "A", q, 'z'));
    char buf[64];
    int n = forward(buf, sizeof buf, "%s=%d %5.2f|%-4x|%c", "key", -42, 3.14159, 255, 'Q');
    printf("%d [%s]\n", n, buf);
    return 0;
}
