/* atan.c: atan, atan2, asin, acos (and float versions).
 *
 * The core takes a ratio q = num/den in [0, 1] as a double-double, picks c = i/64 nearest
 * to it, and uses atan(q) = atan(c) + atan(t), t = (q - c) / (1 + q*c), |t| <= 2^-7,
 * with atan(c) from a double-double table and atan(t) from its series to t^11. Ratios
 * above 1 use atan(q) = pi/2 - atan(1/q). */
#include <errno.h>
#include <math.h>
#include "internal_math.h"
#include "tables.h"

static dd_t atan_unit(dd_t q) {
  int i = (int)(q.hi * 64 + 0.5);
  double c = i * (1.0 / 64);
  dd_t num = two_sum(q.hi, -c);
  num.lo += q.lo;
  dd_t qc = two_prod(q.hi, c);
  qc.lo += q.lo * c;
  dd_t den = two_sum(1.0, qc.hi);
  den.lo += qc.lo;
  dd_t t = dd_div(fast_two_sum(num.hi, num.lo), fast_two_sum(den.hi, den.lo));
  double x = t.hi, z = x * x;
  double tail =
      x * z * (-1.0 / 3 + z * (1.0 / 5 + z * (-1.0 / 7 + z * (1.0 / 9 - z / 11))));
  dd_t a = fast_two_sum(t.hi, t.lo + tail);
  dd_t s = two_sum(__pnacl_atan_table[i][0], a.hi);
  s.lo += __pnacl_atan_table[i][1] + a.lo;
  return fast_two_sum(s.hi, s.lo);
}

static const dd_t PIO2 = {PIO2_HI, PIO2_LO};
static const dd_t PI = {PI_HI, PI_LO};

dd_t __pnacl_atan_ratio(dd_t num, dd_t den) {
  if (num.hi <= den.hi)
    return atan_unit(dd_div(num, den));
  return dd_add(PIO2, dd_neg(atan_unit(dd_div(den, num))));
}

static int exponent_of(double x) { return (int)(dbits(x) >> 52 & 0x7ff); }

double atan2(double y, double x) {
  if (x != x || y != y)
    return x + y;
  int neg_y = __builtin_signbit(y) != 0, neg_x = __builtin_signbit(x) != 0;
  double ay = __builtin_fabs(y), ax = __builtin_fabs(x), inf = __builtin_inf();
  dd_t angle;
  if (ay == 0) {
    angle = neg_x ? PI : (dd_t){0, 0};
    neg_x = 0;
  } else if (ax == inf) {
    angle = ay == inf ? (dd_t){PIO4_HI, PIO4_LO} : (dd_t){0, 0};
  } else if (ax == 0 || ay == inf) {
    angle = PIO2;
    neg_x = 0;
  } else {
    int ey = exponent_of(ay), ex = exponent_of(ax);
    if (ey - ex > 60) {
      angle = dd_add(PIO2, (dd_t){-ax / ay, 0});
    } else if (ex - ey > 60) {
      /* atan(q) = q to within q^3/3, far below an ulp: one correctly rounded division. */
      double q = ay / ax;
      if (!neg_x)
        return neg_y ? -q : q;
      angle = (dd_t){q, 0};
    } else {
      /* Bring both into the middle of the range so that no step under- or overflows. */
      if (ex > 1600 || ey > 1600) {
        ax *= 0x1p-600;
        ay *= 0x1p-600;
      } else if (ex < 400 || ey < 400) {
        ax *= 0x1p600;
        ay *= 0x1p600;
      }
      angle = __pnacl_atan_ratio((dd_t){ay, 0}, (dd_t){ax, 0});
    }
  }
  if (neg_x)
    angle = dd_add(PI, dd_neg(angle));
  return neg_y ? -angle.hi : angle.hi;
}

double atan(double x) {
  if (x != x)
    return x + x;
  double ax = __builtin_fabs(x);
  double r;
  if (ax > 0x1p60)
    r = PIO2_HI;
  else if (ax < 0x1p-30)
    return x;
  else
    r = __pnacl_atan_ratio((dd_t){ax, 0}, (dd_t){1, 0}).hi;
  return x < 0 ? -r : r;
}

/* sqrt((1 - x)(1 + x)) for |x| <= 1, as a double-double. */
static dd_t cos_of_asin(double ax) {
  dd_t onep = two_sum(1.0, ax);
  double onem = 1.0 - ax; /* exact for ax >= 1/2; otherwise carried below */
  double onem_err = (1.0 - onem) - ax;
  dd_t p = dd_mul(onep, (dd_t){onem, onem_err});
  return dd_sqrt(p);
}

/* NaN (EDOM unless x is a NaN) outside [-1, 1]; 0 when x is inside. */
static int outside_unit(double x, double *out) {
  if (__builtin_fabs(x) <= 1)
    return 0;
  if (x == x)
    errno = EDOM;
  *out = (x - x) / (x - x);
  return 1;
}

double asin(double x) {
  double ax = __builtin_fabs(x), nan;
  if (outside_unit(x, &nan))
    return nan;
  if (ax < 0x1p-30)
    return x;
  double r = __pnacl_atan_ratio((dd_t){ax, 0}, cos_of_asin(ax)).hi;
  return x < 0 ? -r : r;
}

double acos(double x) {
  double ax = __builtin_fabs(x), nan;
  if (outside_unit(x, &nan))
    return nan;
  dd_t a = __pnacl_atan_ratio(cos_of_asin(ax), (dd_t){ax, 0});
  if (x < 0)
    a = dd_add(PI, dd_neg(a));
  return a.hi;
}

float atanf(float x) { return (float)atan(x); }
float atan2f(float y, float x) { return (float)atan2(y, x); }
