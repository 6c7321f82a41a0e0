/* printf's %e, %f and %g (and %#g, %E, %G) against the C library of the reference build:
 * doubles from every binade (random bits, subnormals included), exact ties at the place
 * rounded to (0.5, 2.5, 0.125, 1e23's neighbours, ...), precisions 0 to 20 and a few very
 * large ones, and values that round to zero or carry into a new digit (9.995, 0.0005).
 * pnacl's C library makes these digits from the exact decimal expansion
 * (libc/platform/dtoa.c); they must be glibc's, correctly rounded with ties to even.
 * Prints a digest of each group, and the special cases themselves. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

static uint32_t digest;
static char buf[6000];

static void add(const char *fmt, int prec, double v) {
  int n = snprintf(buf, sizeof buf, fmt, prec, v);
  for (int i = 0; i < n && i < (int)sizeof buf - 1; i++)
    digest = (digest ^ (unsigned char)buf[i]) * 16777619u;
  digest = (digest ^ (uint32_t)n) * 16777619u;
}

int main(void) {
  static const char *formats[] = {"%.*e", "%.*f", "%.*g", "%#.*g", "%.*E", "%.*G"};
  for (int f = 0; f < 6; f++) {
    digest = 2166136261u;
    for (int i = 0; i < 4000; i++) {
      double v = from_bits(next());
      if (isnan(v) || isinf(v))
        continue;
      /* %f of huge values is long; keep most of them moderate. */
      if (f == 1 && fabs(v) > 1e30 && (i & 7))
        v = ldexp(frexp(v, &(int){0}), (int)(next() % 200) - 100);
      int prec = (int)(next() % 21);
      add(formats[f], prec, v);
    }
    /* Subnormals, and values near the ends of the range. */
    for (int i = 0; i < 300; i++) {
      /* (one call of next() per statement: the order of a call's arguments is unspecified) */
      int prec = (int)(next() % 21);
      add(formats[f], prec, from_bits(next() & 0x000fffffffffffffull));
      prec = (int)(next() % 21);
      add(formats[f], prec, from_bits(0x7fe0000000000000ull | (next() & 0x000fffffffffffffull)));
    }
    printf("%s: %08x\n", formats[f], digest);
  }

  static const double ties[] = {0.5, 1.5, 2.5, 3.5, -0.5, -2.5, 0.125, 0.375, 1.25, 2.675, 1e23, 9.995, 9.9995,
                                0.0005, 0.00049999999999999999, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                                123456789012345678.0, 0.1, 0.3, 1.0 / 3, 2.0 / 3, 999999.5, 0.05, 0.15, 0.25, 0.35};
  for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++) {
    double v = ties[i];
    printf("%.0f %.1f %.2f %.3f | %.0e %.1e %.2e | %g %.3g %#.3g %.17g\n", v, v, v, v, v, v, v, v, v, v, v);
  }
  /* Very large precisions: the exact expansion, with printf's zeros after it. */
  printf("%.60f\n%.400e\n%.30g\n", 1e-30, 5e-324, 0.1);
  printf("%.1074f\n", 4.9406564584124654e-324);
  printf("%.20f %.20e %.0f\n", 1e300, 1e300, 1e300);
  printf("[%10.3f] [%-12.2e] [%+.4g] [% .0f] [%010.2f] [%#.0e] [%#.0f]\n", 3.14159, 2.5, 0.0001234, 2.5, -1.5, 2.0, 3.0);
  printf("%f %e %g %f %e %g\n", 0.0, -0.0, 0.0, INFINITY, -INFINITY, NAN);
  return 0;
}
