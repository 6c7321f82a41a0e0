/* t_strtol.c: strtol, strtoul, strtoll, strtoull, atoi, atol, atoll against glibc: value,
 * end pointer and ERANGE/EINVAL over random strings in random bases. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pnl.h"

static long cases, mismatches;

static void random_integer_string(char *buf, int base) {
  char *p = buf;
  int spaces = (int)rng_below(3);
  for (int i = 0; i < spaces; i++)
    *p++ = " \t\n\v\f\r"[rng_below(6)];
  if (rng_below(2))
    *p++ = "+-"[rng_below(2)];
  if (rng_below(4) == 0) {
    *p++ = '0';
    if (rng_below(2))
      *p++ = "xX"[rng_below(2)];
  }
  int n = rng_below(8) == 0 ? 20 + (int)rng_below(30) : (int)rng_below(22);
  const char *digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFXYZ";
  int limit = base == 0 ? 16 : base;
  for (int i = 0; i < n; i++) {
    if (rng_below(6) == 0)
      *p++ = digits[rng_below(46)];
    else
      *p++ = digits[rng_below((uint64_t)limit)];
  }
  if (rng_below(3) == 0)
    *p++ = " .z!"[rng_below(4)];
  *p = 0;
}

#define CHECK(fn, pfn, fmt)                                                                \
  do {                                                                                     \
    char *wend, *gend;                                                                     \
    errno = 0;                                                                             \
    pnl_errno = 0;                                                                         \
    __typeof__(fn(s, &wend, base)) w = fn(s, &wend, base);                                 \
    int werr = errno;                                                                      \
    __typeof__(w) g = pfn(s, &gend, base);                                                 \
    int gerr = pnl_errno;                                                                  \
    cases++;                                                                               \
    int valid_base = base == 0 || (base >= 2 && base <= 36); /* else *end is unspecified */ \
    if (w != g || (valid_base && wend != gend) || werr != gerr) {                          \
      mismatches++;                                                                        \
      report_failure(#fn, "\"%s\" base %d: glibc " fmt " end+%td errno %d, pnacl " fmt     \
                     " end+%td errno %d", s, base, w, wend - s, werr, g, gend - s, gerr);  \
    }                                                                                      \
  } while (0)

int test_strtol(long n) {
  static const char *const fixed[] = {"0x", "0x1g", "-0x10", "0b101", "  -", "+ 1", "",
                                      "9223372036854775807", "9223372036854775808",
                                      "-9223372036854775808", "-9223372036854775809",
                                      "18446744073709551615", "18446744073709551616",
                                      "-18446744073709551615", "-18446744073709551616", "077",
                                      "zz", "ZZZZZZZZZZZZZZ", "0X7fffffffffffffff"};
  static const int bases[] = {0, 2, 8, 10, 16, 36, 1, 37, -1};
  char s[128];
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
      int base = bases[b];
      strcpy(s, fixed[i]);
      CHECK(strtol, pnl_strtol, "%ld");
      CHECK(strtoul, pnl_strtoul, "%lu");
      CHECK(strtoll, pnl_strtoll, "%lld");
      CHECK(strtoull, pnl_strtoull, "%llu");
    }
  for (long i = 0; i < n; i++) {
    int base = rng_below(3) == 0 ? (int)rng_below(37) : (int)"\0\x0a\x10\x08"[rng_below(4)];
    if (base == 1)
      base = 0;
    random_integer_string(s, base);
    CHECK(strtol, pnl_strtol, "%ld");
    CHECK(strtoul, pnl_strtoul, "%lu");
    CHECK(strtoll, pnl_strtoll, "%lld");
    CHECK(strtoull, pnl_strtoull, "%llu");
    if (base == 10) {
      cases++;
      /* atoi/atol are strtol in base 10 (their overflow is undefined; skip it). */
      errno = 0;
      long v = strtol(s, 0, 10);
      if (!errno && (pnl_atol(s) != atol(s) || pnl_atoll(s) != atoll(s) ||
                     (v == (int)v && pnl_atoi(s) != atoi(s)))) {
        mismatches++;
        report_failure("atoi", "\"%s\"", s);
      }
    }
  }
  printf("strtol: %ld cases, %ld mismatches\n", cases, mismatches);
  return mismatches != 0;
}
