/* fmt_float.c: the f F e E g G a A conversions, correctly rounded at any precision.
 *
 * A finite double is M * 2^E with an integer M < 2^53. Its exact decimal expansion is
 * found with a big integer in base 10^9: M * 2^E when E >= 0, else M * 5^-E (whose
 * digits, shifted -E places right, are those of M / 2^-E). That gives every significant
 * digit (at most 767), so rounding at any position is exact: to nearest, ties to even,
 * as glibc does in the default rounding mode. */
#include <stdint.h>
#include <string.h>
#include "stdio_impl.h"

#define LIMB_BASE 1000000000u
#define MAX_LIMBS 90      /* 5^1074 * 2^53 < 10^(90*9) */
#define MAX_DIGITS 780    /* 2^1024 has 309 digits; 5^1074 * 2^53 has 767 */

/* The exact decimal digits of a finite v > 0: digits d[0..n) (d[0] != 0, d[n-1] != 0)
 * with v = 0.d[0]d[1]... * 10^*dexp. */
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

/* Rounds the digits d[0..n) (of 0.d * 10^dexp) to their first `keep` digits, to nearest
 * with ties to even. Returns the new digit count, trailing zeros dropped; 0 when the value
 * rounds to zero. A carry out of the first digit makes the value 10^dexp: d becomes "1"
 * and dexp grows by one. */
static size_t round_digits(char *d, size_t n, int *dexp, long keep) {
  if (keep >= (long)n)
    return n;
  if (keep < 0)
    return 0; /* below a tenth of the last kept place */
  size_t k = (size_t)keep;
  char first = d[k];
  int up;
  if (first > '5')
    up = 1;
  else if (first < '5')
    up = 0;
  else if (k + 1 < n)
    up = 1; /* digits after the 5 are not all zero (trailing zeros were stripped) */
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
    /* All kept digits were 9 (or none were kept): the value becomes 10^dexp. */
    d[0] = '1';
    *dexp += 1;
    return 1;
  }
  d[i - 1]++;
  return i;
}

static void write_digits(struct pnacl_out *o, const char *d, size_t n, long from, long count) {
  long i = from, end = from + count;
  while (i < end) {
    if (i < 0 || (size_t)i >= n) {
      long stop = i < 0 ? (end < 0 ? end : 0) : end;
      __pnacl_out_fill(o, '0', (size_t)(stop - i));
      i = stop;
    } else {
      long stop = end < (long)n ? end : (long)n;
      __pnacl_out_write(o, d + i, (size_t)(stop - i));
      i = stop;
    }
  }
}

static void format_special(struct pnacl_out *o, const struct pnacl_spec *sp, const char *sign,
                           size_t sign_len, int is_nan) {
  int upper = sp->conv >= 'A' && sp->conv <= 'Z';
  const char *body = is_nan ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
  __pnacl_pad_begin(o, sp, sign, sign_len, 3, 0);
  __pnacl_out_write(o, body, 3);
  __pnacl_pad_end(o, sp, sign_len + 3);
}

/* %a: hexadecimal, the leading digit 1 for normal numbers and 0 for subnormals (glibc's
 * form), rounded to nearest even at the requested precision. */
static void format_hex(struct pnacl_out *o, const struct pnacl_spec *sp, const char *sign,
                       size_t sign_len, uint64_t bits) {
  int upper = sp->conv == 'A';
  const char *xd = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  int biased = (int)(bits >> 52 & 0x7ff);
  uint64_t frac = bits & ((1ull << 52) - 1);
  int lead = biased != 0;
  int exp = biased == 0 ? (frac ? -1022 : 0) : biased - 1023;
  int nfrac = 13; /* hex digits of the fraction */
  if (sp->precision >= 0 && sp->precision < 13) {
    int drop = 4 * (13 - sp->precision);
    uint64_t mask = (1ull << drop) - 1;
    uint64_t rest = frac & mask, half = 1ull << (drop - 1);
    frac >>= drop;
    uint64_t lsb = drop == 52 ? (uint64_t)lead & 1 : frac & 1; /* the last kept digit's */
    if (rest > half || (rest == half && lsb)) {
      frac++;
      if (frac >> (52 - drop)) { /* carried into the leading digit */
        frac &= (1ull << (52 - drop)) - 1;
        lead++;
      }
    }
    nfrac = sp->precision;
  } else if (sp->precision < 0) {
    while (nfrac > 0 && !(frac & 15)) {
      frac >>= 4;
      nfrac--;
    }
  }
  char body[64];
  size_t n = 0;
  body[n++] = xd[lead];
  int pad_zeros = sp->precision > 13 ? sp->precision - 13 : 0;
  if (nfrac > 0 || sp->hash || pad_zeros)
    body[n++] = '.';
  for (int i = nfrac - 1; i >= 0; i--)
    body[n++] = xd[(frac >> (4 * i)) & 15];
  char tail[16];
  size_t tn = 0;
  tail[tn++] = upper ? 'P' : 'p';
  tail[tn++] = exp < 0 ? '-' : '+';
  unsigned ue = (unsigned)(exp < 0 ? -exp : exp);
  char ebuf[8];
  int en = 0;
  do
    ebuf[en++] = (char)('0' + ue % 10);
  while ((ue /= 10) != 0);
  while (en)
    tail[tn++] = ebuf[--en];
  char prefix[4];
  memcpy(prefix, sign, sign_len);
  prefix[sign_len] = '0';
  prefix[sign_len + 1] = upper ? 'X' : 'x';
  size_t body_len = n + (size_t)pad_zeros + tn;
  __pnacl_pad_begin(o, sp, prefix, sign_len + 2, body_len, 1);
  __pnacl_out_write(o, body, n);
  __pnacl_out_fill(o, '0', (size_t)pad_zeros);
  __pnacl_out_write(o, tail, tn);
  __pnacl_pad_end(o, sp, sign_len + 2 + body_len);
}

void __pnacl_format_double(struct pnacl_out *o, const struct pnacl_spec *sp, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  char sign[1];
  size_t sign_len = 0;
  if (bits >> 63)
    sign[sign_len++] = '-';
  else if (sp->plus)
    sign[sign_len++] = '+';
  else if (sp->space)
    sign[sign_len++] = ' ';
  if ((bits >> 52 & 0x7ff) == 0x7ff) {
    format_special(o, sp, sign, sign_len, (bits & ((1ull << 52) - 1)) != 0);
    return;
  }
  char conv = sp->conv;
  if (conv == 'a' || conv == 'A') {
    format_hex(o, sp, sign, sign_len, bits);
    return;
  }
  char d[MAX_DIGITS];
  int dexp;
  size_t n;
  if ((bits << 1) == 0) {
    d[0] = '0';
    n = 1;
    dexp = 1;
  } else {
    n = exact_digits(v, d, &dexp);
  }
  int is_zero = n == 1 && d[0] == '0';
  long precision = sp->precision < 0 ? 6 : sp->precision;
  int upper = conv == 'F' || conv == 'E' || conv == 'G';
  int strip = 0; /* %g without '#': drop trailing zeros of the fraction */
  if (conv == 'g' || conv == 'G') {
    long p = precision == 0 ? 1 : precision;
    int x;
    if (is_zero) {
      x = 0;
    } else {
      int rexp = dexp;
      char copy[MAX_DIGITS];
      memcpy(copy, d, n);
      round_digits(copy, n, &rexp, p);
      x = rexp - 1;
    }
    if (p > x && x >= -4) {
      conv = 'f';
      precision = p - 1 - x;
    } else {
      conv = 'e';
      precision = p - 1;
    }
    strip = !sp->hash;
  }
  if (conv == 'f' || conv == 'F') {
    if (!is_zero)
      n = round_digits(d, n, &dexp, dexp + precision);
    if (n == 0 && !is_zero) {
      d[0] = '0';
      n = 1;
      dexp = 1;
      is_zero = 1;
    }
    long frac = precision;
    if (strip) {
      /* Significant fraction digits: those of d after the point. */
      long sig = (long)n - dexp;
      if (is_zero)
        sig = 0;
      frac = sig < 0 ? 0 : (sig < frac ? sig : frac);
    }
    long int_len = dexp > 0 && !is_zero ? dexp : 1;
    int point = frac > 0 || sp->hash;
    size_t body_len = (size_t)int_len + (size_t)point + (size_t)frac;
    __pnacl_pad_begin(o, sp, sign, sign_len, body_len, 1);
    if (dexp > 0 && !is_zero)
      write_digits(o, d, n, 0, dexp);
    else
      __pnacl_out_write(o, "0", 1);
    if (point)
      __pnacl_out_write(o, ".", 1);
    if (is_zero)
      __pnacl_out_fill(o, '0', (size_t)frac);
    else
      write_digits(o, d, n, dexp, frac);
    __pnacl_pad_end(o, sp, sign_len + body_len);
    return;
  }
  /* 'e' */
  int exp10 = 0;
  if (!is_zero) {
    n = round_digits(d, n, &dexp, precision + 1);
    exp10 = dexp - 1;
  }
  long frac = precision;
  if (strip)
    frac = (long)n - 1 < frac ? (long)n - 1 : frac;
  if (is_zero && strip)
    frac = 0;
  int point = frac > 0 || sp->hash;
  char ebuf[8];
  size_t en = 0;
  ebuf[en++] = upper ? 'E' : 'e';
  ebuf[en++] = exp10 < 0 ? '-' : '+';
  unsigned ue = (unsigned)(exp10 < 0 ? -exp10 : exp10);
  if (ue >= 100)
    ebuf[en++] = (char)('0' + ue / 100);
  ebuf[en++] = (char)('0' + ue / 10 % 10);
  ebuf[en++] = (char)('0' + ue % 10);
  size_t body_len = 1 + (size_t)point + (size_t)frac + en;
  __pnacl_pad_begin(o, sp, sign, sign_len, body_len, 1);
  __pnacl_out_write(o, d, 1);
  if (point)
    __pnacl_out_write(o, ".", 1);
  write_digits(o, d, n, 1, frac);
  __pnacl_out_write(o, ebuf, en);
  __pnacl_pad_end(o, sp, sign_len + body_len);
}
