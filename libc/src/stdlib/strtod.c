/* strtod.c: strtod, strtof, strtold, atof, correctly rounded (to nearest, ties to even).
 *
 * Decimal input: short inputs whose digits and power of ten are exact doubles take one
 * correctly rounded multiplication or division. Everything else goes through a decimal
 * number of up to MAX_DIGITS digits (plus a flag for nonzero digits dropped beyond them),
 * scaled by powers of two until it lies in [1/2, 1), then shifted left by the mantissa
 * width and rounded. Halfway points between doubles have at most 767 significant digits,
 * so the flag settles every tie. Hexadecimal input is rounded directly from its bits. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIGITS 800

struct decimal {
  unsigned char d[MAX_DIGITS]; /* digit values, most significant first */
  int nd;                      /* number of digits in d */
  int dp;                      /* the value is 0.d[0]d[1]... * 10^dp */
  int trunc;                   /* nonzero digits were dropped after d[MAX_DIGITS-1] */
};

static void trim(struct decimal *a) {
  while (a->nd > 0 && a->d[a->nd - 1] == 0)
    a->nd--;
  if (a->nd == 0)
    a->dp = 0;
}

/* a /= 2^k, 1 <= k <= 60. */
static void shift_right(struct decimal *a, unsigned k) {
  int r = 0, w = 0;
  uint64_t n = 0;
  for (; n >> k == 0; r++) {
    if (r >= a->nd) {
      if (n == 0) {
        a->nd = 0;
        return;
      }
      while (n >> k == 0) {
        n *= 10;
        r++;
      }
      break;
    }
    n = n * 10 + a->d[r];
  }
  a->dp -= r - 1;
  uint64_t mask = ((uint64_t)1 << k) - 1;
  for (; r < a->nd; r++) {
    a->d[w++] = (unsigned char)(n >> k);
    n = (n & mask) * 10 + a->d[r];
  }
  while (n > 0) {
    unsigned char dig = (unsigned char)(n >> k);
    n = (n & mask) * 10;
    if (w < MAX_DIGITS)
      a->d[w++] = dig;
    else if (dig > 0)
      a->trunc = 1;
  }
  a->nd = w;
  trim(a);
}

/* a *= 2^k, 1 <= k <= 60. */
static void shift_left(struct decimal *a, unsigned k) {
  unsigned char tmp[MAX_DIGITS + 24];
  int w = (int)sizeof tmp;
  uint64_t n = 0;
  for (int r = a->nd - 1; r >= 0; r--) {
    n += (uint64_t)a->d[r] << k;
    uint64_t q = n / 10;
    tmp[--w] = (unsigned char)(n - 10 * q);
    n = q;
  }
  while (n > 0) {
    uint64_t q = n / 10;
    tmp[--w] = (unsigned char)(n - 10 * q);
    n = q;
  }
  int nd = (int)sizeof tmp - w;
  a->dp += nd - a->nd;
  if (nd > MAX_DIGITS) {
    for (int i = MAX_DIGITS; i < nd; i++)
      if (tmp[w + i])
        a->trunc = 1;
    nd = MAX_DIGITS;
  }
  memcpy(a->d, tmp + w, (size_t)nd);
  a->nd = nd;
  trim(a);
}

/* Bits to shift to move dp down by at least... a table indexed by dp (as Go's strconv
 * does): shifting by powtab[i] reduces a number with dp = i to dp <= 0 quickly. */
static const unsigned char powtab[] = {1, 3, 6, 9, 13, 16, 19, 23, 26};

/* The integer part of a, rounded to nearest even; *inexact when a had a fraction. */
static uint64_t rounded_integer(const struct decimal *a, int *inexact) {
  if (a->dp > 20)
    return UINT64_MAX;
  uint64_t n = 0;
  int i = 0;
  for (; i < a->dp && i < a->nd; i++)
    n = n * 10 + a->d[i];
  for (; i < a->dp; i++)
    n *= 10;
  if (a->dp < 0) {
    *inexact = 1; /* below 1/10: rounds to zero */
    return 0;
  }
  int dp = a->dp;
  *inexact = a->trunc || dp < a->nd;
  int up = 0;
  if (dp < a->nd) {
    if (a->d[dp] == 5 && dp + 1 == a->nd)
      up = a->trunc || (dp > 0 && (a->d[dp - 1] & 1));
    else
      up = a->d[dp] >= 5;
  }
  return n + (uint64_t)up;
}

/* Rounds a (> 0) to a binary float with mant_bits fraction bits and an exponent bias;
 * returns its bits (without sign). *range is set on overflow or inexact underflow. */
static uint64_t decimal_to_bits(struct decimal *a, int mant_bits, int exp_bits, int *range) {
  int bias = (1 << (exp_bits - 1)) - 1;
  int max_exp = (1 << exp_bits) - 1;
  uint64_t inf = (uint64_t)max_exp << mant_bits;
  int exp = 0;
  if (a->nd == 0)
    return 0;
  if (a->dp > 310)
    goto overflow;
  if (a->dp < -330) {
    *range = 1;
    return 0;
  }
  while (a->dp > 0) {
    unsigned n = a->dp >= (int)sizeof powtab ? 27 : powtab[a->dp];
    shift_right(a, n);
    exp += (int)n;
  }
  while (a->dp < 0 || (a->dp == 0 && a->d[0] < 5)) {
    unsigned n = -a->dp >= (int)sizeof powtab ? 27 : powtab[-a->dp];
    shift_left(a, n);
    exp -= (int)n;
  }
  /* a is in [1/2, 1): value = a * 2^exp = (2a) * 2^(exp-1). */
  exp--;
  int min_exp = 1 - bias;
  int tiny = exp < min_exp; /* below the smallest normal before rounding */
  if (tiny) {
    int n = min_exp - exp;
    while (n > 60) {
      shift_right(a, 60);
      n -= 60;
    }
    shift_right(a, (unsigned)n);
    exp += min_exp - exp;
  }
  if (exp + bias >= max_exp)
    goto overflow;
  shift_left(a, (unsigned)mant_bits + 1);
  int inexact = 1;
  uint64_t mant = rounded_integer(a, &inexact);
  if (mant == (uint64_t)2 << mant_bits) {
    mant >>= 1;
    exp++;
    if (exp + bias >= max_exp)
      goto overflow;
  }
  int biased = exp + bias;
  if (!(mant >> mant_bits))
    biased = 0; /* subnormal */
  if (tiny && inexact)
    *range = 1; /* underflow, as glibc reports it: tiny before rounding, and inexact */
  return ((uint64_t)biased << mant_bits) | (mant & (((uint64_t)1 << mant_bits) - 1));
overflow:
  *range = 1;
  return inf;
}

/* An exponent part: `letter` (either case), an optional sign, digits. When there is one,
 * adds its value (clamped far beyond any double's range) to *exp and returns the end;
 * otherwise returns p. */
static const char *parse_exponent(const char *p, char letter, long *exp) {
  if ((*p | 32) != letter)
    return p;
  const char *q = p + 1;
  int neg = 0;
  if (*q == '+' || *q == '-')
    neg = *q++ == '-';
  if (!isdigit((unsigned char)*q))
    return p;
  long e = 0;
  for (; isdigit((unsigned char)*q); q++)
    if (e < 100000)
      e = e * 10 + (*q - '0');
  *exp += neg ? -e : e;
  return q;
}

/* Hexadecimal significand digits (after "0x") with an optional binary exponent. Returns
 * the bits, or sets *end to p when there are no digits. */
static uint64_t hex_to_bits(const char *p, const char **end, int mant_bits, int exp_bits,
                            int *range) {
  uint64_t m = 0;
  int sticky = 0, any = 0;
  long exp = 0; /* binary exponent of m's last bit */
  int seen_point = 0;
  for (;; p++) {
    int c = *p, v;
    if (c == '.' && !seen_point) {
      seen_point = 1;
      continue;
    }
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if ((c | 32) >= 'a' && (c | 32) <= 'f')
      v = (c | 32) - 'a' + 10;
    else
      break;
    any = 1;
    if (m >> 60) {
      sticky |= v != 0;
      if (!seen_point)
        exp += 4;
    } else {
      m = m << 4 | (uint64_t)v;
      if (seen_point)
        exp -= 4;
    }
  }
  if (!any) {
    *end = 0;
    return 0;
  }
  p = parse_exponent(p, 'p', &exp);
  *end = p;
  if (m == 0)
    return 0;
  int bias = (1 << (exp_bits - 1)) - 1;
  int max_exp = (1 << exp_bits) - 1;
  /* Normalise m so its top bit is bit 63. */
  while (!(m >> 63)) {
    m <<= 1;
    exp--;
  }
  long e2 = exp + 63; /* value = 1.xxx * 2^e2 */
  /* Bits of m below the last representable place are dropped, with rounding. */
  long drop = 63 - mant_bits;
  if (e2 < 1 - bias)
    drop += (1 - bias) - e2;
  uint64_t kept;
  int inexact;
  if (drop > 64) {
    kept = 0; /* below half of the smallest subnormal */
    inexact = 1;
  } else {
    uint64_t rest = drop == 64 ? m : m & (((uint64_t)1 << drop) - 1);
    uint64_t half = (uint64_t)1 << (drop - 1);
    kept = drop == 64 ? 0 : m >> drop;
    inexact = rest != 0 || sticky;
    if (rest > half || (rest == half && (sticky || (kept & 1))))
      kept++;
  }
  uint64_t frac_mask = ((uint64_t)1 << mant_bits) - 1;
  if (e2 < 1 - bias) {
    /* Subnormal, or rounded up to the smallest normal. */
    int biased = kept >> mant_bits ? 1 : 0;
    if (inexact)
      *range = 1;
    return ((uint64_t)biased << mant_bits) | (kept & frac_mask);
  }
  if (kept >> (mant_bits + 1)) {
    kept >>= 1;
    e2++;
  }
  if (e2 + bias >= max_exp) {
    *range = 1;
    return (uint64_t)max_exp << mant_bits;
  }
  return ((uint64_t)(e2 + bias) << mant_bits) | (kept & frac_mask);
}

static int match_word(const char *p, const char *word) {
  size_t i = 0;
  for (; word[i]; i++)
    if (((unsigned char)p[i] | 32) != (unsigned char)word[i])
      return 0;
  return (int)i;
}

/* Parses s into the bits of a float with the given layout. */
static uint64_t parse_float(const char *s, char **end, int mant_bits, int exp_bits) {
  const char *p = s;
  uint64_t sign_bit = (uint64_t)1 << (mant_bits + exp_bits);
  uint64_t inf = (((uint64_t)1 << exp_bits) - 1) << mant_bits;
  uint64_t sign = 0, bits = 0;
  int range = 0;
  if (end)
    *end = (char *)s;
  while (isspace((unsigned char)*p))
    p++;
  if (*p == '+' || *p == '-')
    sign = *p++ == '-' ? sign_bit : 0;
  int n;
  if ((n = match_word(p, "inf"))) {
    p += n;
    if ((n = match_word(p, "inity")))
      p += n;
    if (end)
      *end = (char *)p;
    return sign | inf;
  }
  if ((n = match_word(p, "nan"))) {
    p += n;
    if (*p == '(') {
      const char *q = p + 1;
      while (isalnum((unsigned char)*q) || *q == '_')
        q++;
      if (*q == ')')
        p = q + 1;
    }
    if (end)
      *end = (char *)p;
    return sign | inf | ((uint64_t)1 << (mant_bits - 1));
  }
  if (p[0] == '0' && (p[1] | 32) == 'x') {
    const char *hex_end;
    bits = hex_to_bits(p + 2, &hex_end, mant_bits, exp_bits, &range);
    if (hex_end) {
      if (end)
        *end = (char *)hex_end;
      if (range)
        errno = ERANGE;
      return sign | bits;
    }
    /* "0x" without digits: just the 0. */
    if (end)
      *end = (char *)p + 1;
    return sign;
  }
  static struct decimal a; /* large; the library is single-threaded */
  a.nd = a.dp = a.trunc = 0;
  int any = 0, seen_point = 0;
  for (;; p++) {
    if (*p == '.' && !seen_point) {
      seen_point = 1;
      continue;
    }
    if (!isdigit((unsigned char)*p))
      break;
    any = 1;
    int v = *p - '0';
    if (v == 0 && a.nd == 0) {
      if (seen_point)
        a.dp--;
      continue;
    }
    if (!seen_point)
      a.dp++;
    if (a.nd < MAX_DIGITS)
      a.d[a.nd++] = (unsigned char)v;
    else if (v)
      a.trunc = 1;
  }
  if (!any)
    return 0;
  long e10 = 0;
  p = parse_exponent(p, 'e', &e10);
  a.dp += (int)e10;
  if (end)
    *end = (char *)p;
  trim(&a);
  if (a.nd == 0)
    return sign;
  /* Fast path: few digits and a small power of ten, both exact doubles. */
  if (mant_bits == 52 && !a.trunc && a.nd <= 15) {
    int e10 = a.dp - a.nd;
    if (e10 >= -22 && e10 <= 22) {
      static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
      int64_t m = 0;
      for (int i = 0; i < a.nd; i++)
        m = m * 10 + a.d[i];
      double v = (double)m;
      v = e10 < 0 ? v / pow10[-e10] : v * pow10[e10];
      memcpy(&bits, &v, sizeof bits);
      return sign | bits;
    }
  }
  bits = decimal_to_bits(&a, mant_bits, exp_bits, &range);
  if (range)
    errno = ERANGE;
  return sign | bits;
}

double strtod(const char *__restrict s, char **__restrict end) {
  uint64_t bits = parse_float(s, end, 52, 11);
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

float strtof(const char *__restrict s, char **__restrict end) {
  uint32_t bits = (uint32_t)parse_float(s, end, 23, 8);
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

long double strtold(const char *__restrict s, char **__restrict end) { return strtod(s, end); }

double atof(const char *s) { return strtod(s, 0); }
