/* trig.c: sin, cos, tan (and float versions). The argument is reduced by pi/2
 * (rem_pio2.c); the kernels take r (|r| <= pi/4) as a double-double and return one.
 * Their Taylor series run to r^19 (sin) and r^20 (cos); the leading correction terms
 * (r^3/6, r^2/2 and r^4/24) are computed in double-double, so that the error before the
 * final rounding is a few hundredths of an ulp. tan divides the two in double-double. */
#include <errno.h>
#include <math.h>
#include "internal_math.h"

static const dd_t SIXTH = {0x1.5555555555555p-3, 0x1.5555555555555p-57};
static const dd_t TWENTY_FOURTH = {0x1.5555555555555p-5, 0x1.5555555555555p-59};

/* r^2 as a double-double. */
static dd_t square(dd_t r) {
  dd_t z = two_prod(r.hi, r.hi);
  z.lo += 2 * r.hi * r.lo;
  return fast_two_sum(z.hi, z.lo);
}

static dd_t kernel_sin(dd_t r) {
  dd_t z = square(r);
  dd_t r3 = dd_mul(z, r);
  dd_t t = dd_mul(r3, SIXTH);
  double x = r.hi, zz = z.hi;
  /* r^5 (1/5! - r^2/7! + ... + r^14/19!) */
  double tail =
      x * zz * zz *
      (1.0 / 120 +
       zz * (-1.0 / 5040 +
             zz * (1.0 / 362880 +
                   zz * (-1.0 / 39916800 +
                         zz * (1.0 / 6227020800 +
                               zz * (-1.0 / 1307674368000 +
                                     zz * (1.0 / 355687428096000 -
                                           zz / 121645100408832000)))))));
  dd_t s = two_sum(r.hi, -t.hi);
  s.lo += r.lo - t.lo + tail;
  return fast_two_sum(s.hi, s.lo);
}

static dd_t kernel_cos(dd_t r) {
  dd_t z = square(r);
  dd_t t4 = dd_mul(dd_mul(z, z), TWENTY_FOURTH);
  double zz = z.hi;
  /* r^6 (-1/6! + r^2/8! - ... + r^14/20!) */
  double tail =
      zz * zz * zz *
      (-1.0 / 720 +
       zz * (1.0 / 40320 +
             zz * (-1.0 / 3628800 +
                   zz * (1.0 / 479001600 +
                         zz * (-1.0 / 87178291200 +
                               zz * (1.0 / 20922789888000 +
                                     zz * (-1.0 / 6402373705728000 +
                                           zz / 2432902008176640000.0)))))));
  dd_t c = two_sum(1.0, -0.5 * z.hi);
  c.lo += -0.5 * z.lo + t4.hi + (t4.lo + tail);
  return fast_two_sum(c.hi, c.lo);
}

/* NaN for NaN and infinite arguments (EDOM for the latter); 0 when x is finite. */
static int trig_special(double x, double *out) {
  if (x - x == 0)
    return 0;
  if (x == x)
    errno = EDOM;
  *out = x - x;
  return 1;
}

double sin(double x) {
  double special;
  if (trig_special(x, &special))
    return special;
  if (__builtin_fabs(x) < 0x1p-26)
    return x; /* sin x = x - x^3/6 rounds to x; this also keeps the sign of zero */
  dd_t r;
  int n = __pnacl_rem_pio2(x, &r);
  dd_t v = n & 1 ? kernel_cos(r) : kernel_sin(r);
  return n & 2 ? -v.hi : v.hi;
}

double cos(double x) {
  double special;
  if (trig_special(x, &special))
    return special;
  dd_t r;
  int n = __pnacl_rem_pio2(x, &r);
  dd_t v = n & 1 ? kernel_sin(r) : kernel_cos(r);
  return (n + 1) & 2 ? -v.hi : v.hi;
}

double tan(double x) {
  double special;
  if (trig_special(x, &special))
    return special;
  if (__builtin_fabs(x) < 0x1p-27)
    return x; /* tan x = x + x^3/3 rounds to x */
  dd_t r;
  int n = __pnacl_rem_pio2(x, &r);
  dd_t s = kernel_sin(r), c = kernel_cos(r);
  return n & 1 ? -dd_div(c, s).hi : dd_div(s, c).hi;
}

float sinf(float x) { return (float)sin(x); }
float cosf(float x) { return (float)cos(x); }
float tanf(float x) { return (float)tan(x); }
