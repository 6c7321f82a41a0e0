/* basic.c: sqrt and fabs (the llvm.sqrt / llvm.fabs intrinsics PNaCl allows),
 * copysign, fmin, fmax, frexp, ldexp, scalbn, modf, hypot (and float versions). */
#include <math.h>
#include "internal_math.h"

/* The names are parenthesised so that math.h's function-like macros leave them alone. */
double(sqrt)(double x) { return __builtin_sqrt(x); }
float(sqrtf)(float x) { return __builtin_sqrtf(x); }
double(fabs)(double x) { return __builtin_fabs(x); }
float(fabsf)(float x) { return __builtin_fabsf(x); }

double copysign(double x, double y) {
  return from_bits((dbits(x) & ~(1ull << 63)) | (dbits(y) & (1ull << 63)));
}

float copysignf(float x, float y) { return (float)copysign(x, y); }

double fmin(double x, double y) {
  if (x != x)
    return y;
  if (y != y)
    return x;
  if (x == y) /* fmin(-0, +0) is -0 */
    return __builtin_signbit(x) ? x : y;
  return x < y ? x : y;
}

double fmax(double x, double y) {
  if (x != x)
    return y;
  if (y != y)
    return x;
  if (x == y)
    return __builtin_signbit(x) ? y : x;
  return x > y ? x : y;
}

double frexp(double x, int *e) {
  uint64_t b = dbits(x);
  int biased = (int)(b >> 52 & 0x7ff);
  if (biased == 0) {
    if (x == 0) {
      *e = 0;
      return x;
    }
    x *= 0x1p64;
    b = dbits(x);
    biased = (int)(b >> 52 & 0x7ff) - 64;
  } else if (biased == 0x7ff) {
    *e = 0;
    return x;
  }
  *e = biased - 1022;
  return from_bits((b & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
}

float frexpf(float x, int *e) { return (float)frexp(x, e); }

double scalbn(double x, int n) {
  if (n > 3000)
    n = 3000;
  else if (n < -3000)
    n = -3000;
  return scale2(x, n);
}

double ldexp(double x, int n) { return scalbn(x, n); }
float ldexpf(float x, int n) { return (float)scalbn(x, n); }

double modf(double x, double *ip) {
  double t = trunc(x);
  *ip = t;
  if (t == x) /* integers and infinities: the fraction is a signed zero */
    return copysign(0.0, x);
  return x - t;
}

float modff(float x, float *ip) {
  double i;
  float f = (float)modf(x, &i);
  *ip = (float)i;
  return f;
}

/* A signalling NaN: quiet bit clear. */
static int is_signaling(double x) {
  return x != x && !(dbits(x) & 0x0008000000000000ull);
}

double hypot(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y), inf = __builtin_inf();
  if (is_signaling(x) || is_signaling(y))
    return x + y; /* hypot(inf, sNaN) is NaN, unlike hypot(inf, qNaN) */
  if (ax == inf || ay == inf)
    return inf;
  if (ax != ax || ay != ay)
    return ax + ay;
  if (ax < ay) {
    double t = ax;
    ax = ay;
    ay = t;
  }
  if (ay == 0 || ax / ay > 0x1p60)
    return ax + ay;
  /* Bring both into the middle of the range so that no square under- or overflows. */
  int scale = 0;
  if (ax > 0x1p500) {
    ax *= 0x1p-600;
    ay *= 0x1p-600;
    scale = 600;
  } else if (ay < 0x1p-500) {
    ax *= 0x1p600;
    ay *= 0x1p600;
    scale = -600;
  }
  dd_t s = dd_add(two_prod(ax, ax), two_prod(ay, ay));
  dd_t r = dd_sqrt(s);
  return scale2(r.hi, scale);
}
