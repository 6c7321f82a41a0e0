/* exp.c: exp, exp2, pow (and float versions).
 *
 * exp(x): k = nearest integer to x*64/ln2, r = x - k*ln2/64 (|r| <= ln2/128, carried as
 * a double-double), exp(x) = 2^(k/64) * exp(r) with 2^(j/64) from a double-double table
 * and exp(r) - 1 from its Taylor series to r^7. The error before the final rounding is
 * about 2^-60 relative. pow(x, y) = exp(y * log(x)) with log(x) as a double-double
 * (log.c), so the product keeps its accuracy up to the overflow threshold. */
#include <errno.h>
#include <math.h>
#include "internal_math.h"
#include "tables.h"

#define OVERFLOW_X 709.79
#define UNDERFLOW_X -745.14

double __pnacl_exp_dd(dd_t x) {
  double xh = x.hi;
  if (!(xh < OVERFLOW_X)) {
    errno = ERANGE;
    return __builtin_inf();
  }
  if (xh < UNDERFLOW_X) {
    errno = ERANGE;
    return 0;
  }
  double kd = xh * INV_LN2_64;
  kd = (kd + 0x1.8p52) - 0x1.8p52; /* nearest integer */
  int k = (int)kd;
  double rh = xh - kd * LN2_64_HI; /* exact: LN2_64_HI has 36 bits, |k| < 2^17 */
  dd_t p = two_prod(kd, LN2_64_LO);
  dd_t r = two_sum(rh, -p.hi);
  r.lo += x.lo - p.lo;
  r = fast_two_sum(r.hi, r.lo);
  double z = r.hi;
  double poly =
      z * z *
      (0.5 + z * (1.0 / 6 + z * (1.0 / 24 + z * (1.0 / 120 + z * (1.0 / 720 + z / 5040)))));
  dd_t q = fast_two_sum(r.hi, r.lo + poly); /* exp(r) - 1 */
  const double *t = __pnacl_exp_table[k & 63];
  dd_t tq = two_prod(t[0], q.hi);
  tq.lo += t[0] * q.lo + t[1] * (1 + q.hi);
  dd_t s = two_sum(t[0], tq.hi);
  double low = s.lo + tq.lo;
  int e = k >> 6;
  double result;
  double scale = e >= -1022 - 60 ? pow2i(e < -1022 ? e + 1022 : 0) : 0;
  if (e < -1022 && e >= -1022 - 60 && s.hi * scale < 1) {
    /* A subnormal result: round once, to its grid. With y = result * 2^1022 < 1, adding
     * 1 puts the grid's spacing (2^-1074 * 2^1022) at the last place of the sum. */
    double yh = s.hi * scale, yl = low * scale;
    double hi = 1.0 + yh;
    double lo = ((1.0 - hi) + yh) + yl;
    result = ((hi + lo) - 1.0) * 0x1p-1022;
  } else {
    result = scale2(s.hi + low, e);
  }
  if (result == 0 || result == __builtin_inf() || result < 0x1p-1022)
    errno = ERANGE;
  return result;
}

double exp(double x) {
  if (x != x)
    return x + x;
  if (x == -__builtin_inf())
    return 0;
  return __pnacl_exp_dd((dd_t){x, 0});
}

double exp2(double x) {
  if (x != x)
    return x + x;
  if (x == -__builtin_inf())
    return 0;
  if (x > 1100)
    return __pnacl_exp_dd((dd_t){x, 0}); /* overflows */
  if (x < -1100)
    x = -1100;
  return __pnacl_exp_dd(dd_mul_d((dd_t){LN2_DD_HI, LN2_DD_LO}, x));
}

float expf(float x) { return (float)exp(x); }

/* 0 when y is not an integer, 1 when it is odd, 2 when it is even. */
static int integer_kind(double y) {
  double a = __builtin_fabs(y);
  if (a >= 0x1p53)
    return 2;
  if (a < 1)
    return y == 0 ? 2 : 0;
  double t = (a + 0x1p52) - 0x1p52; /* a rounded to an integer */
  if (t != a)
    return 0;
  return ((uint64_t)t & 1) ? 1 : 2;
}

double pow(double x, double y) {
  if (y == 0 || x == 1)
    return 1;
  if (x != x || y != y)
    return x + y;
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  int kind = integer_kind(y);
  int negate = x < 0 && kind == 1;
  double inf = __builtin_inf();
  if (ay == inf) {
    if (ax == 1)
      return 1;
    return (ax > 1) == (y > 0) ? inf : 0;
  }
  if (ax == 0) {
    if (y < 0)
      errno = ERANGE;
    double r = y < 0 ? inf : 0;
    return negate || (kind == 1 && __builtin_signbit(x)) ? -r : r;
  }
  if (ax == inf) {
    double r = y < 0 ? 0 : inf;
    return negate ? -r : r;
  }
  if (x < 0 && kind == 0) {
    errno = EDOM;
    return __builtin_nan("");
  }
  dd_t l = __pnacl_log_dd(ax);
  double estimate = y * l.hi;
  dd_t p;
  if (!(estimate < 1e4 && estimate > -1e4)) {
    p = (dd_t){estimate, 0}; /* far beyond overflow or underflow */
  } else {
    /* |log(x)| >= 2^-54, so with y scaled down the product's halves cannot overflow. */
    double ys = ay > 0x1p900 ? y * 0x1p-100 : y;
    dd_t ls = ay > 0x1p900 ? (dd_t){l.hi * 0x1p100, l.lo * 0x1p100} : l;
    p = two_prod(ys, ls.hi);
    p.lo += ys * ls.lo;
    p = fast_two_sum(p.hi, p.lo);
  }
  double r = __pnacl_exp_dd(p);
  return negate ? -r : r;
}

float powf(float x, float y) { return (float)pow(x, y); }
