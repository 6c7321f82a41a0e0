/* dtoa.c: _dtoa_r's fixed-precision modes (2 and 3, and their aliases 4 to 9), which
 * printf's %e, %f and %g use. newlib's is David Gay's, which works digit by digit on big
 * integers: the printf kernel (tests/c/kernels/printf.c) spent half its time there and
 * ran 1.14x as long as with the library before newlib. Here, as in that library, the
 * double's exact decimal expansion is made once with a big integer in base 10^9, then
 * rounded to nearest with ties to even, which is what newlib's and glibc's give. The
 * shortest-round-trip modes (0 and 1), zero, infinities and NaNs stay newlib's (its
 * _dtoa_r, compiled as __newlib_dtoa_r: see libc/newlib/generate.py).
 *
 * The result is the calling thread's until its next call, as newlib's is, with room for
 * the zeros printf appends in place (the trailing zeros the result leaves out). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <reent.h>

char *__newlib_dtoa_r(struct _reent *ptr, double d, int mode, int ndigits, int *decpt, int *sign, char **rve);

#define LIMB_BASE 1000000000u
#define MAX_LIMBS 90   /* 5^1074 * 2^53 < 10^(90*9) */
#define MAX_DIGITS 810 /* 90 limbs of 9 digits */

/* The exact decimal digits of a finite v > 0: d[0..n) (d[0] != 0, d[n-1] != 0) with
 * v = 0.d[0]d[1]... * 10^*dexp. A double is M * 2^E with an integer M < 2^53: the digits
 * are those of M * 2^E when E >= 0, else of M * 5^-E, shifted -E places right. */
static size_t exact_digits(double v, char *d, int *dexp) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int biased = (int)(bits >> 52 & 0x7ff);
  uint64_t m = bits & ((1ull << 52) - 1);
  int e;
  if (biased == 0) {
    e = -1074;
  } else {
    m |= 1ull << 52;
    e = biased - 1075;
  }
  uint32_t limb[MAX_LIMBS];
  size_t nl = 0;
  for (uint64_t t = m; t; t /= LIMB_BASE)
    limb[nl++] = (uint32_t)(t % LIMB_BASE);
  /* Multiply by 2^e (e > 0) or by 5^-e (e < 0), in steps that keep each limb product
   * below 2^63. */
  int left = e < 0 ? -e : e;
  while (left > 0) {
    uint32_t factor;
    if (e > 0) {
      int s = left < 29 ? left : 29;
      factor = 1u << s;
      left -= s;
    } else {
      int s = left < 13 ? left : 13;
      factor = 1;
      for (int i = 0; i < s; i++)
        factor *= 5;
      left -= s;
    }
    uint64_t carry = 0;
    for (size_t i = 0; i < nl; i++) {
      uint64_t x = (uint64_t)limb[i] * factor + carry;
      limb[i] = (uint32_t)(x % LIMB_BASE);
      carry = x / LIMB_BASE;
    }
    while (carry) {
      limb[nl++] = (uint32_t)(carry % LIMB_BASE);
      carry /= LIMB_BASE;
    }
  }
  /* Limbs to characters, most significant first. */
  size_t n = 0;
  for (size_t i = nl; i-- > 0;) {
    char group[9];
    uint32_t x = limb[i];
    for (int k = 8; k >= 0; k--) {
      group[k] = (char)('0' + x % 10);
      x /= 10;
    }
    int k = 0;
    if (n == 0)
      while (k < 8 && group[k] == '0')
        k++;
    for (; k < 9; k++)
      d[n++] = group[k];
  }
  /* The integer has n digits and is v * 10^(-e) when e < 0. */
  *dexp = (int)n + (e < 0 ? e : 0);
  while (n > 1 && d[n - 1] == '0')
    n--;
  return n;
}

/* Rounds d[0..n) (of 0.d * 10^dexp) to its first `keep` digits, to nearest with ties to
 * even. Returns the new digit count, trailing zeros dropped; 0 when the value rounds to
 * zero (a tie too, zero being even). A carry out of the first digit makes the value
 * 10^dexp: d becomes "1" and dexp grows by one. */
static size_t round_digits(char *d, size_t n, int *dexp, long keep) {
  if (keep >= (long)n)
    return n;
  if (keep < 0)
    return 0;
  size_t k = (size_t)keep;
  int up;
  if (d[k] != '5')
    up = d[k] > '5';
  else if (k + 1 < n)
    up = 1; /* digits after the 5, and they are not all zeros (those were stripped) */
  else
    up = k > 0 && ((d[k - 1] - '0') & 1);
  if (!up) {
    while (k > 0 && d[k - 1] == '0')
      k--;
    return k;
  }
  size_t i = k;
  while (i > 0 && d[i - 1] == '9')
    i--;
  if (i == 0) {
    d[0] = '1';
    *dexp += 1;
    return 1;
  }
  d[i - 1]++;
  return i;
}

/* The last result of the calling thread, freed by its next call. */
static _Thread_local char *last;

char *_dtoa_r(struct _reent *ptr, double v, int mode, int ndigits, int *decpt, int *sign, char **rve) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int finite_nonzero = (bits >> 52 & 0x7ff) != 0x7ff && (bits << 1) != 0;
  if (mode < 2 || mode > 9 || !finite_nonzero)
    return __newlib_dtoa_r(ptr, v, mode, ndigits, decpt, sign, rve);
  *sign = (int)(bits >> 63);
  char d[MAX_DIGITS];
  int dexp;
  size_t n = exact_digits(*sign ? -v : v, d, &dexp);
  int fixed = mode & 1; /* modes 3, 5, 7, 9: ndigits past the decimal point */
  long keep = fixed ? (long)dexp + ndigits : (ndigits < 1 ? 1 : ndigits);
  n = round_digits(d, n, &dexp, keep);
  /* A value that rounds to zero has no digits, and its point where the last place would
   * have been (as newlib's "fcvt style"). */
  *decpt = n ? dexp : -ndigits;
  /* Room for printf's zeros: up to ndigits digits (past the point, for %f). */
  long long room = (long long)(ndigits > 0 ? ndigits : 0) + (fixed && *decpt > 0 ? *decpt : 0);
  if (room < (long long)n)
    room = (long long)n;
  if (room > (1 << 24))
    return __newlib_dtoa_r(ptr, v, mode, ndigits, decpt, sign, rve);
  char *out = malloc((size_t)room + 1);
  if (!out)
    return __newlib_dtoa_r(ptr, v, mode, ndigits, decpt, sign, rve);
  free(last);
  last = out;
  memcpy(out, d, n);
  out[n] = '\0';
  if (rve)
    *rve = out + n;
  return out;
}
