/* t_strtod.c: strtod and strtof against glibc (both correctly rounded): the parsed bits,
 * the end pointer and ERANGE, over doubles printed in many ways, random decimal strings
 * (short, long, with huge exponents), exact midpoints between adjacent doubles and their
 * neighbours, hexadecimal floats, and special spellings. */
#define _GNU_SOURCE
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pnl.h"

static long cases, mismatches;

static void check_double(const char *s) {
  char *wend, *gend;
  errno = 0;
  pnl_errno = 0;
  double want = strtod(s, &wend);
  int werr = errno;
  double got = pnl_strtod(s, &gend);
  int gerr = pnl_errno;
  uint64_t wb, gb;
  memcpy(&wb, &want, 8);
  memcpy(&gb, &got, 8);
  int same = wb == gb || (want != want && got != got && (wb >> 63) == (gb >> 63));
  cases++;
  if (!same || wend != gend || (werr == ERANGE) != (gerr == ERANGE)) {
    mismatches++;
    report_failure("strtod", "\"%.120s\": glibc %a end+%td errno %d, pnacl %a end+%td errno %d", s,
                   want, wend - s, werr, got, gend - s, gerr);
  }
}

static void check_float(const char *s) {
  char *wend, *gend;
  float want = strtof(s, &wend);
  float got = pnl_strtof(s, &gend);
  uint32_t wb, gb;
  memcpy(&wb, &want, 4);
  memcpy(&gb, &got, 4);
  cases++;
  if ((wb != gb && !(want != want && got != got)) || wend != gend) {
    mismatches++;
    report_failure("strtof", "\"%.120s\": glibc %a end+%td, pnacl %a end+%td", s, (double)want,
                   wend - s, (double)got, gend - s);
  }
}

static double random_bits_double(void) {
  uint64_t b = rng_next();
  double d;
  memcpy(&d, &b, 8);
  return d;
}

static void printed_doubles(void) {
  char buf[2048];
  double d = random_bits_double();
  if (d != d)
    d = 1.0;
  switch (rng_below(6)) {
  case 0:
    snprintf(buf, sizeof buf, "%.17g", d);
    break;
  case 1:
    snprintf(buf, sizeof buf, "%.*g", 1 + (int)rng_below(25), d);
    break;
  case 2:
    snprintf(buf, sizeof buf, "%.*e", (int)rng_below(30), d);
    break;
  case 3:
    snprintf(buf, sizeof buf, "%a", d);
    break;
  case 4:
    snprintf(buf, sizeof buf, "%.*f", (int)rng_below(20), fabs(d) < 1e30 ? d : 1 / d);
    break;
  default:
    snprintf(buf, sizeof buf, "%.*e", 30 + (int)rng_below(800), d);
  }
  check_double(buf);
}

static void random_decimal(void) {
  char buf[2048];
  char *p = buf;
  int spaces = (int)rng_below(3);
  for (int i = 0; i < spaces; i++)
    *p++ = " \t\n"[rng_below(3)];
  if (rng_below(3) == 0)
    *p++ = rng_below(2) ? '-' : '+';
  int ndigits = rng_below(10) == 0 ? 100 + (int)rng_below(900) : 1 + (int)rng_below(40);
  int point = rng_below(3) == 0 ? -1 : (int)rng_below((uint64_t)ndigits + 1);
  int zeros = rng_below(4) == 0 ? (int)rng_below(30) : 0;
  for (int i = 0; i < zeros; i++)
    *p++ = '0';
  for (int i = 0; i < ndigits; i++) {
    if (i == point)
      *p++ = '.';
    *p++ = (char)('0' + (rng_below(5) == 0 ? 9 * rng_below(2) : rng_below(10)));
  }
  if (rng_below(3)) {
    *p++ = rng_below(2) ? 'e' : 'E';
    if (rng_below(2))
      *p++ = rng_below(2) ? '-' : '+';
    p += sprintf(p, "%d", (int)rng_below(rng_below(2) ? 400 : 40));
  }
  if (rng_below(4) == 0)
    p += sprintf(p, "%s", rng_below(2) ? "x" : "e+");
  *p = 0;
  check_double(buf);
  if (rng_below(4) == 0)
    check_float(buf);
}

/* The exact midpoint between a double and the next one up (exact in long double), and
 * strings just below and above it. */
static void midpoints(void) {
  double d = fabs(random_bits_double());
  if (!(d < DBL_MAX))
    d = 1.0;
  if (rng_below(3) == 0)
    d = ldexp((double)rng_below(1 << 20), -1074); /* subnormal */
  long double mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
  char buf[2048];
  int n = snprintf(buf, sizeof buf - 16, "%.*Le", 800, mid);
  /* Strip the zeros of the exact expansion before the exponent. */
  char *e = strchr(buf, 'e');
  char exp_part[16];
  strcpy(exp_part, e);
  char *q = e;
  while (q[-1] == '0')
    q--;
  *q = 0;
  (void)n;
  char s[2100];
  snprintf(s, sizeof s, "%s%s", buf, exp_part);
  check_double(s);
  snprintf(s, sizeof s, "%s0000000001%s", buf, exp_part);
  check_double(s);
  /* Just below: lower the last digit. */
  size_t len = strlen(buf);
  if (buf[len - 1] > '0' && buf[len - 1] <= '9') {
    buf[len - 1]--;
    snprintf(s, sizeof s, "%s99999%s", buf, exp_part);
    check_double(s);
  }
  /* Float midpoints. */
  float f = (float)d;
  if (f > 0 && f < FLT_MAX) {
    double fmid = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
    snprintf(s, sizeof s, "%.*e", 120, fmid);
    check_float(s);
    snprintf(s, sizeof s, "%.9g", (double)f);
    check_float(s);
  }
}

static const char *const specials[] = {
    "inf", "-Infinity", "INFINITE", "nan", "-nan", "NaN(123abc)", "nan(", "nan()x", "0x",
    "0x1p", "0xg", "1e", "1e+", ".", "-.5", "  +0.0e-0", "0x1.fffffffffffff8p1023",
    "0x1.fffffffffffff7ffp1023", "1e-400", "2.4703282292062328e-324",
    "2.4703282292062327e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
    "4.9406564584124654e-324", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "0x0.0000000000001p-1022", "0x1.000000000000008p0",
    "0x1.0000000000000080000001p0", "0x.8p1", "0X1P-1074", "0x1p-1075", "0x1.1p-1075",
    "00000000000000000000000000000000000000001", "1" "00000000000000000000000000000000e-32",
    "0.000000000000000000000000000000000000000000000000000000000000001e+63", "+", "-",
    "   ", "", "1,5", "1.5.5", "0e999999999", "1e999999999", "1e-999999999", "-0",
    "123456789012345678901234567890", "9007199254740993", "9007199254740992.5",
    "0.1", "0.2", "0.3", "3.14159265358979323846264338327950288", "1e23", "8.5e-323",
    "2.2250738585072011e-308", "2.2250738585072012e-308", "0x1.8p1", "0x1.8P-1",
};

int test_strtod(long n) {
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
    check_double(specials[i]);
    check_float(specials[i]);
  }
  for (long i = 0; i < n; i++) {
    uint64_t k = rng_below(3);
    if (k == 0)
      printed_doubles();
    else if (k == 1)
      random_decimal();
    else
      midpoints();
  }
  printf("strtod: %ld cases, %ld mismatches\n", cases, mismatches);
  return mismatches != 0;
}
