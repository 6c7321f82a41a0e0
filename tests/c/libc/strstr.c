/* strstr against a plain search, over haystacks and needles drawn from small alphabets
 * (so that partial matches are common), from empty to longer than the haystack, and the
 * repetitive cases that make a naive search quadratic (pnacl's strstr then switches to
 * newlib's two-way search). Prints a digest of every position found and the number of
 * disagreements with the plain search, which must be 0. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t state = 12345;
static uint32_t next(void) {
  state = state * 1103515245u + 12345u;
  return state >> 8;
}

static const char *plain(const char *h, const char *n) {
  size_t nl = strlen(n);
  for (; ; h++) {
    if (strncmp(h, n, nl) == 0)
      return h;
    if (*h == '\0')
      return NULL;
  }
}

static char hay[5000], needle[400];

static long check(long *bad) {
  const char *want = plain(hay, needle), *got = strstr(hay, needle);
  if (want != got)
    ++*bad;
  return got ? (long)(got - hay) : -1;
}

int main(void) {
  long bad = 0;
  uint32_t digest = 0;
  for (int round = 0; round < 20000; round++) {
    int alphabet = 1 + (int)(next() % 4);
    size_t hl = next() % (round % 10 == 0 ? 4000 : 200);
    size_t nl = next() % (round % 7 == 0 ? 300 : 12);
    for (size_t k = 0; k < hl; k++)
      hay[k] = (char)('a' + next() % (uint32_t)alphabet);
    hay[hl] = '\0';
    if (hl > 0 && nl > 0 && nl <= hl && next() % 2) {
      /* A needle that occurs: a piece of the haystack. */
      size_t at = next() % (hl - nl + 1);
      memcpy(needle, hay + at, nl);
    } else {
      for (size_t k = 0; k < nl; k++)
        needle[k] = (char)('a' + next() % (uint32_t)alphabet);
    }
    needle[nl] = '\0';
    digest = digest * 31u + (uint32_t)check(&bad);
  }
  /* The quadratic cases: aaaa...a against aaa...ab, and the same needle at the end. */
  for (int n = 1; n < 300; n += 37) {
    memset(hay, 'a', 4000);
    hay[4000] = '\0';
    memset(needle, 'a', (size_t)n);
    needle[n] = 'b';
    needle[n + 1] = '\0';
    digest = digest * 31u + (uint32_t)check(&bad);
    hay[3999] = 'b';
    digest = digest * 31u + (uint32_t)check(&bad);
  }
  printf("digest %u, disagreements %ld\n", (unsigned)digest, bad);
  return bad != 0;
}
