/* dd.h: double-double arithmetic (a value is hi + lo with |lo| <= ulp(hi)/2), the tool the
 * math functions use to carry about 106 bits through the steps where a double would lose
 * accuracy. Everything relies on round-to-nearest double arithmetic without contraction
 * into fused multiply-adds (the library is built with -ffp-contract=off). */
#ifndef _PNACL_SRC_MATH_DD_H
#define _PNACL_SRC_MATH_DD_H

#include <stdint.h>
#include <string.h>

typedef struct {
  double hi, lo;
} dd_t;

static inline uint64_t dbits(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

static inline double from_bits(uint64_t b) {
  double x;
  memcpy(&x, &b, sizeof x);
  return x;
}

/* a + b exactly. */
static inline dd_t two_sum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  return (dd_t){s, (a - (s - bb)) + (b - bb)};
}

/* a + b exactly, when |a| >= |b| or a == 0. */
static inline dd_t fast_two_sum(double a, double b) {
  double s = a + b;
  return (dd_t){s, b - (s - a)};
}

/* Veltkamp's split of a (|a| < 2^995) into two halves of 26 bits. */
static inline void split26(double a, double *hi, double *lo) {
  double t = 134217729.0 * a; /* 2^27 + 1 */
  *hi = t - (t - a);
  *lo = a - *hi;
}

/* a * b exactly (Dekker), when neither the product nor the halves overflow or underflow. */
static inline dd_t two_prod(double a, double b) {
  double p = a * b, ah, al, bh, bl;
  split26(a, &ah, &al);
  split26(b, &bh, &bl);
  return (dd_t){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

static inline dd_t dd_add(dd_t a, dd_t b) {
  dd_t s = two_sum(a.hi, b.hi);
  s.lo += a.lo + b.lo;
  return fast_two_sum(s.hi, s.lo);
}

static inline dd_t dd_neg(dd_t a) { return (dd_t){-a.hi, -a.lo}; }

static inline dd_t dd_mul(dd_t a, dd_t b) {
  dd_t p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo);
}

static inline dd_t dd_mul_d(dd_t a, double b) {
  dd_t p = two_prod(a.hi, b);
  p.lo += a.lo * b;
  return fast_two_sum(p.hi, p.lo);
}

static inline dd_t dd_div(dd_t a, dd_t b) {
  double q1 = a.hi / b.hi;
  dd_t r = dd_add(a, dd_neg(dd_mul_d(b, q1)));
  double q2 = r.hi / b.hi;
  r = dd_add(r, dd_neg(dd_mul_d(b, q2)));
  double q3 = r.hi / b.hi;
  dd_t q = fast_two_sum(q1, q2);
  q.lo += q3;
  return fast_two_sum(q.hi, q.lo);
}

/* sqrt of a >= 0, as a double-double. */
static inline dd_t dd_sqrt(dd_t a) {
  if (a.hi <= 0)
    return (dd_t){0, 0};
  double y = __builtin_sqrt(a.hi);
  dd_t p = two_prod(y, y);
  double e = ((a.hi - p.hi) - p.lo) + a.lo;
  return fast_two_sum(y, e / (2 * y));
}

/* 2^e as a double, for -1022 <= e <= 1023. */
static inline double pow2i(int e) { return from_bits((uint64_t)(e + 1023) << 52); }

/* x * 2^e with a single rounding (also into the subnormal range). */
static inline double scale2(double x, int e) {
  if (e > 1023) {
    x *= 0x1p1023;
    e -= 1023;
    if (e > 1023) {
      x *= 0x1p1023;
      e -= 1023;
      if (e > 1023)
        e = 1023;
    }
  } else if (e < -1022) {
    /* Scale into the last binade above the subnormals first (exact), then once more. */
    x *= 0x1p-969; /* 2^-1022 * 2^53 */
    e += 969;
    if (e < -1022) {
      x *= 0x1p-969;
      e += 969;
      if (e < -1022)
        e = -1022;
    }
  }
  return x * pow2i(e);
}

#endif
