/* rounding.c: floor, ceil, trunc, round, rint, nearbyint, lround, llround, lrint, fmod
 * (and float versions), all exact, by integer operations on the representation. */
#include <limits.h>
#include <math.h>
#include "internal_math.h"

double trunc(double x) {
  uint64_t b = dbits(x);
  int e = (int)(b >> 52 & 0x7ff) - 1023;
  if (e >= 52)
    return x; /* an integer, an infinity or a NaN */
  if (e < 0)
    return from_bits(b & (1ull << 63));
  return from_bits(b & ~((1ull << (52 - e)) - 1));
}

double floor(double x) {
  double t = trunc(x);
  return t > x ? t - 1 : t;
}

double ceil(double x) {
  double t = trunc(x);
  return t < x ? t + 1 : t;
}

double round(double x) {
  double t = trunc(x);
  double d = x - t; /* exact */
  if (d >= 0.5)
    return t + 1;
  if (d <= -0.5)
    return t - 1;
  return t;
}

/* Rounds to nearest, ties to even: adding and subtracting 2^52 does exactly that for
 * |x| < 2^52 in the default rounding mode. */
double rint(double x) {
  double a = __builtin_fabs(x);
  if (!(a < 0x1p52))
    return x;
  double r = (a + 0x1p52) - 0x1p52;
  return copysign(r, x);
}

double nearbyint(double x) { return rint(x); }

long lround(double x) { return (long)round(x); }
long long llround(double x) { return (long long)round(x); }
long lrint(double x) { return (long)rint(x); }

float truncf(float x) { return (float)trunc(x); }
float floorf(float x) { return (float)floor(x); }
float ceilf(float x) { return (float)ceil(x); }
float roundf(float x) { return (float)round(x); }

/* Gives a significand (fraction bits m, biased exponent e) its leading bit at bit 52,
 * subnormals included. */
static void normalise(uint64_t *m, int *e) {
  if (*e == 0) {
    int s = __builtin_clzll(*m) - 11;
    *m <<= s;
    *e = 1 - s;
  } else {
    *m |= 1ull << 52;
  }
}

/* fmod: the exact remainder, by long division of the significands. */
double fmod(double x, double y) {
  uint64_t bx = dbits(x), by = dbits(y);
  uint64_t sign = bx & (1ull << 63);
  int ex = (int)(bx >> 52 & 0x7ff), ey = (int)(by >> 52 & 0x7ff);
  if (ex == 0x7ff || y != y || y == 0)
    return (x * y) / (x * y); /* NaN */
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (ax < ay)
    return x;
  if (ax == ay)
    return from_bits(sign);
  uint64_t mx = bx & 0x000fffffffffffffull, my = by & 0x000fffffffffffffull;
  normalise(&mx, &ex);
  normalise(&my, &ey);
  for (; ex > ey; ex--) {
    if (mx >= my)
      mx -= my;
    mx <<= 1;
  }
  if (mx >= my)
    mx -= my;
  if (mx == 0)
    return from_bits(sign);
  /* Renormalise, back to a subnormal if the exponent goes below 1. */
  int s = __builtin_clzll(mx) - 11;
  mx <<= s;
  ey -= s;
  if (ey < 1) {
    mx >>= 1 - ey;
    ey = 0;
  } else {
    mx &= 0x000fffffffffffffull;
  }
  return from_bits(sign | (uint64_t)ey << 52 | mx);
}

float fmodf(float x, float y) { return (float)fmod(x, y); }
