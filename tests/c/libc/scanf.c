/* The scanf family: sscanf, vsscanf, fscanf, vfscanf, scanf, vscanf (the test gives the
 * input on standard input), with integer, floating, string, set, count and suppressed
 * conversions, widths and lengths, and the end of input. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int vs(const char *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsscanf(s, fmt, ap);
    va_end(ap);
    return n;
}

static int vf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(f, fmt, ap);
    va_end(ap);
    return n;
}

static int vin(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscanf(fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int a, b, c, n;
    unsigned u;
    long l;
    long long ll;
    unsigned long long ull;
    short h;
    signed char hh;
    double d, e;
    float f;
    char s[32], t[32];
    char ch[4] = {0};

    n = sscanf("  -42 0x1F 017 4294967295", "%d %i %i %u", &a, &b, &c, &u);
    printf("%d: %d %d %d %u\n", n, a, b, c, u);
    n = sscanf("ff 777 -9223372036854775807 18446744073709551615", "%x %o %lld %llu", &a, &b, &ll, &ull);
    printf("%d: %d %d %lld %llu\n", n, a, b, ll, ull);
    n = sscanf("123456 -300 300", "%ld %hd %hhd", &l, &h, &hh);
    printf("%d: %ld %d %d\n", n, l, h, hh);
    n = sscanf("3.25 -1e-3 6.02214076e23 .5", "%lf %lf %f %le", &d, &e, &f, &d);
    printf("%d: %.17g %.17g %.9g\n", n, d, e, (double)f);
    n = sscanf("0.1 2.5E+300 1e-310 -1e-400", "%lf %lf %lf %lf", &d, &e, &d, &e);
    printf("%d: %.17g %.17g\n", n, d, e);
    n = sscanf("inf -infinity nan", "%lf %lf %lf", &d, &e, &d);
    printf("%d: %f %f\n", n, e, d < 0 ? -d : d);
    n = sscanf("hello world", "%s %s", s, t);
    printf("%d: [%s] [%s]\n", n, s, t);
    n = sscanf("abcdefgh", "%3s%2s", s, t);
    printf("%d: [%s] [%s]\n", n, s, t);
    n = sscanf("key=value;rest", "%[^=]=%[a-z];%n", s, t, &a);
    printf("%d: [%s] [%s] consumed %d\n", n, s, t, a);
    n = sscanf("xyz", "%3c", ch);
    printf("%d: [%s]\n", n, ch);
    n = sscanf("10 20 30", "%*d %d %n%d", &a, &b, &c);
    printf("%d: %d %d %d\n", n, a, b, c);
    n = sscanf("100%", "%d%%", &a);
    printf("%d: %d\n", n, a);
    n = sscanf("12abc", "%d%d", &a, &b);
    printf("%d: %d\n", n, a);
    n = sscanf("", "%d", &a);
    printf("empty: %d\n", n);
    n = sscanf("   ", "%d", &a);
    printf("blank: %d\n", n);
    n = sscanf("x", "%d", &a);
    printf("mismatch: %d\n", n);
    n = vs("7 8.5 word", "%d %lf %s", &a, &d, s);
    printf("vsscanf %d: %d %g %s\n", n, a, d, s);

    FILE *tmp = tmpfile();
    fprintf(tmp, "3 1.5 alpha\n4 2.5 beta\n5 3.5 gamma\n");
    rewind(tmp);
    double total = 0;
    while ((n = fscanf(tmp, "%d %lf %31s", &a, &d, s)) == 3)
        total += a * d;
    printf("fscanf total %g, last %d\n", total, n);
    rewind(tmp);
    n = vf(tmp, "%d %lf", &a, &d);
    printf("vfscanf %d: %d %g\n", n, a, d);
    fclose(tmp);

    n = scanf("%d %s", &a, s);
    printf("scanf %d: %d %s\n", n, a, s);
    n = vin("%lf", &d);
    printf("vscanf %d: %g\n", n, d);
    int sum = 0;
    while (scanf("%d", &a) == 1)
        sum += a;
    printf("rest sum %d, eof %d\n", sum, feof(stdin));
    return 0;
}
