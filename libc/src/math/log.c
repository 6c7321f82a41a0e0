/* log.c: log, log10, log2 (and float versions), all from one double-double logarithm.
 *
 * x = 2^k * m with m in [1, 2). A table indexed by the top 7 bits of m gives invc ~ 1/c
 * for the centre c of m's interval, and log(c); then log(x) = k*log(2) + log(c) +
 * log1p(r) with r = m*invc - 1 (exact as a double-double, |r| < 2^-7). For m above
 * sqrt(2) the table treats the interval as m/2 (its log(c) is less log(2) and k grows by
 * one), and the intervals next to 1 have c = 1, so nothing cancels near x = 1. The sum
 * is carried in double-double; its relative error is below 2^-64, so the final rounding
 * is all but always correct. */
#include <errno.h>
#include <math.h>
#include "dd.h"
#include "internal_math.h"
#include "tables.h"

dd_t __pnacl_log_dd(double x) {
  uint64_t b = dbits(x);
  int k = 0;
  if (b < 0x0010000000000000ull) { /* subnormal */
    b = dbits(x * 0x1p54);
    k = -54;
  }
  k += (int)(b >> 52) - 1023;
  int idx = (int)(b >> (52 - LOG_TABLE_BITS) & ((1 << LOG_TABLE_BITS) - 1));
  double m = from_bits((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  if (idx >= LOG_HALF_FROM)
    k++;
  const double *row = __pnacl_log_table[idx];
  dd_t p = two_prod(m, row[0]);
  dd_t r = fast_two_sum(p.hi - 1.0, p.lo);
  /* log1p(r) = r - r^2/2 + r^3/3 - ... : r^2/2 in double-double, the rest in double. */
  dd_t r2 = two_prod(r.hi, r.hi);
  r2.lo += 2 * r.hi * r.lo;
  double z = r.hi;
  double tail =
      z * z * z *
      (1.0 / 3 -
       z * (1.0 / 4 -
            z * (1.0 / 5 -
                 z * (1.0 / 6 -
                      z * (1.0 / 7 - z * (1.0 / 8 - z * (1.0 / 9 - z * (0.1 - z / 11))))))));
  double kd = k;
  dd_t a = two_sum(kd * LN2_HI, row[1]);
  a.lo += row[2] + kd * LN2_LO;
  dd_t s = two_sum(a.hi, r.hi);
  s.lo += a.lo + r.lo;
  dd_t t = two_sum(s.hi, -0.5 * r2.hi);
  t.lo += s.lo - 0.5 * r2.lo + tail;
  return fast_two_sum(t.hi, t.lo);
}

/* The special cases every logarithm shares; returns 1 and sets *out when x is one. */
static int log_special(double x, double *out) {
  if (x > 0 && x < __builtin_inf())
    return 0;
  if (x == 0) {
    errno = ERANGE;
    *out = -__builtin_inf();
  } else if (x < 0) {
    errno = EDOM;
    *out = __builtin_nan("");
  } else {
    *out = x + x; /* +inf or NaN */
  }
  return 1;
}

double log(double x) {
  double special;
  if (log_special(x, &special))
    return special;
  return __pnacl_log_dd(x).hi;
}

double log10(double x) {
  double special;
  if (log_special(x, &special))
    return special;
  return dd_mul(__pnacl_log_dd(x), (dd_t){INV_LN10_HI, INV_LN10_LO}).hi;
}

double log2(double x) {
  double special;
  if (log_special(x, &special))
    return special;
  return dd_mul(__pnacl_log_dd(x), (dd_t){INV_LN2_HI, INV_LN2_LO}).hi;
}

float logf(float x) { return (float)log(x); }
float log10f(float x) { return (float)log10(x); }
