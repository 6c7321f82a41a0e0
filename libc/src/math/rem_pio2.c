/* rem_pio2.c: x reduced by the nearest multiple of pi/2, with enough precision that
 * r = x - n*pi/2 keeps about 2^-100 relative accuracy even when x is within 2^-61 of a
 * multiple of pi/2 (the closest any double gets).
 *
 * |x| < 2^20: pi/2 in four pieces, the first three of 33 bits so that n times them is
 * exact (Cody and Waite's method). Larger x: Payne and Hanek's method, multiplying the
 * 53-bit significand by a 224-bit window of the binary expansion of 2/pi that starts
 * where the bits stop mattering modulo 4. */
#include "internal_math.h"
#include "tables.h"

static int reduce_medium(double x, dd_t *r) {
  double kd = x * INV_PIO2;
  kd = (kd + 0x1.8p52) - 0x1.8p52;
  double a = x - kd * PIO2_1; /* exact */
  dd_t s = two_sum(a, -kd * PIO2_2);
  dd_t t = two_sum(s.hi, -kd * PIO2_3);
  t.lo += s.lo;
  dd_t d = two_prod(kd, PIO2_4);
  dd_t u = two_sum(t.hi, -d.hi);
  u.lo += t.lo - d.lo;
  *r = fast_two_sum(u.hi, u.lo);
  return (int)((int64_t)kd & 3);
}

/* 64 bits of the little-endian 32-bit-limb number w[0..n) starting at bit pos (which may
 * be negative: missing bits are zero). */
static uint64_t bits_at(const uint32_t *w, int n, int pos) {
  uint64_t v = 0;
  for (int i = 0; i < 64; i += 32) {
    int p = pos + i;
    int limb = p >= 0 ? p / 32 : -((-p + 31) / 32);
    int off = p - limb * 32;
    uint64_t lo = limb >= 0 && limb < n ? w[limb] : 0;
    uint64_t hi = limb + 1 >= 0 && limb + 1 < n ? w[limb + 1] : 0;
    uint64_t word = ((hi << 32 | lo) >> off) & 0xffffffffu;
    v |= word << i;
  }
  return v;
}

#define WINDOW 7 /* words of 2/pi */

static int reduce_large(double x, dd_t *r) {
  uint64_t b = dbits(x);
  int e = (int)(b >> 52 & 0x7ff) - 1075; /* |x| = m * 2^e */
  uint64_t m = (b & 0x000fffffffffffffull) | 0x0010000000000000ull;
  int j0 = e >= 2 ? (e - 2) / 32 : 0;
  /* prod = m * (the window as an integer, w[j0] most significant). */
  uint32_t prod[WINDOW + 2] = {0};
  uint32_t mw[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
  for (int i = 0; i < WINDOW; i++) {
    uint64_t word = __pnacl_two_over_pi[j0 + WINDOW - 1 - i];
    uint64_t carry = 0;
    for (int t = 0; t < 2; t++) {
      uint64_t cur = prod[i + t] + word * mw[t] + carry;
      prod[i + t] = (uint32_t)cur;
      carry = cur >> 32;
    }
    for (int t = i + 2; carry && t < WINDOW + 2; t++) {
      uint64_t cur = prod[t] + carry;
      prod[t] = (uint32_t)cur;
      carry = cur >> 32;
    }
  }
  /* x * 2/pi = prod * 2^-point (mod 4). */
  int point = 32 * (j0 + WINDOW) - e;
  int n = (int)(bits_at(prod, WINDOW + 2, point) & 3);
  uint64_t f2 = bits_at(prod, WINDOW + 2, point - 64);
  uint64_t f1 = bits_at(prod, WINDOW + 2, point - 128);
  uint64_t f0 = bits_at(prod, WINDOW + 2, point - 192);
  double sign = 1;
  if (f2 >> 63) { /* fraction >= 1/2: round n up, and take 1 - fraction */
    n = (n + 1) & 3;
    sign = -1;
    f0 = ~f0 + 1;
    f1 = ~f1 + (f0 == 0);
    f2 = ~f2 + (f0 == 0 && f1 == 0);
  }
  /* Normalise the 192-bit fraction and take 106 bits of it. */
  int lz = 0;
  while (f2 == 0 && lz < 128) {
    f2 = f1;
    f1 = f0;
    f0 = 0;
    lz += 64;
  }
  if (f2 == 0) {
    *r = (dd_t){0, 0};
    return n;
  }
  int s = __builtin_clzll(f2);
  if (s) {
    f2 = f2 << s | f1 >> (64 - s);
    f1 = f1 << s | f0 >> (64 - s);
    lz += s;
  }
  double hi = (double)(f2 >> 11) * pow2i(-53 - lz);
  double lo = (double)((f2 & 0x7ff) << 42 | f1 >> 22) * pow2i(-106 - lz);
  dd_t f = fast_two_sum(hi, lo);
  *r = dd_mul(f, (dd_t){sign * PIO2_HI, sign * PIO2_LO});
  return n;
}

int __pnacl_rem_pio2(double x, dd_t *r) {
  double ax = __builtin_fabs(x);
  if (ax <= 0x1.921fb54442d18p-1) { /* pi/4 */
    *r = (dd_t){x, 0};
    return 0;
  }
  if (ax < 0x1p20)
    return reduce_medium(x, r);
  int n = reduce_large(ax, r);
  if (x < 0) {
    *r = dd_neg(*r);
    n = (4 - n) & 3;
  }
  return n;
}
