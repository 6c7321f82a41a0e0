/* t_string.c: the mem* and str* functions and ctype against glibc over random buffers
 * drawn from small alphabets (so that matches and partial matches are common), with
 * random offsets and lengths; strerror's texts. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pnl.h"

static long cases, bad;

static int sign(int x) { return (x > 0) - (x < 0); }

static void random_text(char *s, size_t len, int alphabet) {
  for (size_t i = 0; i < len; i++)
    s[i] = (char)("abcAB\xe9\x80 "[rng_below((uint64_t)alphabet)]);
  s[len] = 0;
}

#define EXPECT(cond, ...)                                                                  \
  do {                                                                                     \
    cases++;                                                                               \
    if (!(cond))                                                                           \
      bad += report_failure("string", __VA_ARGS__);                                        \
  } while (0)

static void one_round(void) {
  char a[300], b[300], c[600], d[600];
  int alphabet = 1 + (int)rng_below(8);
  size_t la = rng_below(100), lb = rng_below(rng_below(2) ? 5 : 100);
  random_text(a, la, alphabet);
  random_text(b, lb, alphabet);
  if (rng_below(3) == 0 && la) { /* b a piece of a */
    size_t off = rng_below(la), n = rng_below(la - off + 1);
    memcpy(b, a + off, n);
    b[n] = 0;
    lb = n;
  }
  size_t n = rng_below(120);
  EXPECT(pnl_strlen(a) == strlen(a), "strlen");
  EXPECT(sign(pnl_strcmp(a, b)) == sign(strcmp(a, b)), "strcmp \"%s\" \"%s\"", a, b);
  EXPECT(sign(pnl_strncmp(a, b, n)) == sign(strncmp(a, b, n)), "strncmp %zu", n);
  EXPECT(sign(pnl_strcasecmp(a, b)) == sign(strcasecmp(a, b)), "strcasecmp \"%s\" \"%s\"", a, b);
  EXPECT(sign(pnl_strncasecmp(a, b, n)) == sign(strncasecmp(a, b, n)), "strncasecmp");
  size_t mn = la < lb ? la : lb;
  EXPECT(sign(pnl_memcmp(a, b, mn)) == sign(memcmp(a, b, mn)), "memcmp");
  int ch = rng_below(5) == 0 ? 0 : (unsigned char)"abcAB\xe9\x80 z"[rng_below(9)];
  EXPECT(pnl_strchr(a, ch) == strchr(a, ch), "strchr %d", ch);
  EXPECT(pnl_strrchr(a, ch) == strrchr(a, ch), "strrchr %d", ch);
  EXPECT(pnl_memchr(a, ch, la) == memchr(a, ch, la), "memchr");
  EXPECT(pnl_strstr(a, b) == strstr(a, b), "strstr \"%s\" \"%s\"", a, b);
  EXPECT(pnl_strspn(a, b) == strspn(a, b), "strspn");
  EXPECT(pnl_strcspn(a, b) == strcspn(a, b), "strcspn");
  EXPECT(pnl_strpbrk(a, b) == strpbrk(a, b), "strpbrk");
  memset(c, 'x', sizeof c);
  memset(d, 'x', sizeof d);
  EXPECT(pnl_strcpy(c, a) == c && (strcpy(d, a), !memcmp(c, d, sizeof c)), "strcpy");
  EXPECT(pnl_strcat(c, b) == c && (strcat(d, b), !memcmp(c, d, sizeof c)), "strcat");
  EXPECT(pnl_strncat(c, a, n) == c && (strncat(d, a, n), !memcmp(c, d, sizeof c)), "strncat");
  memset(c, 'x', sizeof c);
  memset(d, 'x', sizeof d);
  EXPECT(pnl_strncpy(c, a, n) == c && (strncpy(d, a, n), !memcmp(c, d, sizeof c)), "strncpy");
  char *dup = pnl_strdup(a);
  EXPECT(dup && !strcmp(dup, a), "strdup");
  pnl_free(dup);
  /* memmove with overlap, memcpy and memset at random offsets. */
  for (size_t i = 0; i < sizeof c; i++)
    c[i] = d[i] = (char)rng_next();
  size_t from = rng_below(300), to = rng_below(300), len = rng_below(300);
  EXPECT(pnl_memmove(c + to, c + from, len) == c + to &&
             (memmove(d + to, d + from, len), !memcmp(c, d, sizeof c)),
         "memmove %zu -> %zu, %zu", from, to, len);
  EXPECT(pnl_memcpy(c + 300, d + from, len) == c + 300 &&
             !memcmp(c + 300, d + from, len),
         "memcpy");
  int v = (int)rng_next();
  EXPECT(pnl_memset(c + from, v, len) == c + from && (memset(d + from, v, len), 1) &&
             !memcmp(c + from, d + from, len),
         "memset");
  /* strtok over a copy of each. */
  char ta[300], tb[300];
  strcpy(ta, a);
  strcpy(tb, a);
  const char *delim = rng_below(2) ? " a" : "bA\xe9";
  char *x = pnl_strtok(ta, delim), *y = strtok(tb, delim);
  for (int k = 0; k < 100; k++) {
    EXPECT((x == NULL) == (y == NULL) && (!x || x - ta == y - tb), "strtok");
    if (!x || !y)
      break;
    x = pnl_strtok(NULL, delim);
    y = strtok(NULL, delim);
  }
}

int test_string(long n) {
  for (long i = 0; i < n; i++)
    one_round();
  for (int c = -1; c < 256; c++) {
    EXPECT(!!pnl_isalnum(c) == !!isalnum(c) && !!pnl_isalpha(c) == !!isalpha(c) &&
               !!pnl_isblank(c) == !!isblank(c) && !!pnl_iscntrl(c) == !!iscntrl(c) &&
               !!pnl_isdigit(c) == !!isdigit(c) && !!pnl_isgraph(c) == !!isgraph(c) &&
               !!pnl_islower(c) == !!islower(c) && !!pnl_isprint(c) == !!isprint(c) &&
               !!pnl_ispunct(c) == !!ispunct(c) && !!pnl_isspace(c) == !!isspace(c) &&
               !!pnl_isupper(c) == !!isupper(c) && !!pnl_isxdigit(c) == !!isxdigit(c) &&
               pnl_tolower(c) == tolower(c) && pnl_toupper(c) == toupper(c),
           "ctype of %d", c);
  }
  static const int errs[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                             16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31,
                             32, 33, 34, 35, 36, 37, 38, 39, 40, 75, 84, 110, 122, 125,
                             200, 9999, -5};
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
    char want[128];
    snprintf(want, sizeof want, "%s", strerror(errs[i]));
    EXPECT(!strcmp(pnl_strerror(errs[i]), want), "strerror(%d): glibc \"%s\", pnacl \"%s\"",
           errs[i], want, pnl_strerror(errs[i]));
  }
  printf("string: %ld checks, %ld failures\n", cases, bad);
  return bad != 0;
}
