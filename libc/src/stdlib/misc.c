/* misc.c: abs, div, bsearch, and rand (glibc's additive-feedback generator, so a program
 * prints the same pseudo-random numbers under pnacl as natively with glibc). */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }
intmax_t imaxabs(intmax_t x) { return x < 0 ? -x : x; }

div_t div(int num, int den) { return (div_t){num / den, num % den}; }
ldiv_t ldiv(long num, long den) { return (ldiv_t){num / den, num % den}; }
lldiv_t lldiv(long long num, long long den) { return (lldiv_t){num / den, num % den}; }
imaxdiv_t imaxdiv(intmax_t num, intmax_t den) { return (imaxdiv_t){num / den, num % den}; }

void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *)) {
  const char *lo = base;
  while (n > 0) {
    const char *mid = lo + (n / 2) * size;
    int c = cmp(key, mid);
    if (c == 0)
      return (void *)mid;
    if (c > 0) {
      lo = mid + size;
      n -= n / 2 + 1;
    } else {
      n /= 2;
    }
  }
  return 0;
}

/* The state: r[i] = r[i-31] + r[i-3] (mod 2^32) over a ring of 34 words; each output is
 * the new word shifted right by one. Seeding fills the first 31 words with a
 * Park-Miller sequence and discards 310 outputs. */
static uint32_t ring[34];
static int ring_pos;
static int seeded;

void srand(unsigned seed) {
  int32_t r = (int32_t)(seed ? seed : 1);
  ring[0] = (uint32_t)r;
  for (int i = 1; i < 31; i++) {
    int32_t hi = r / 127773, lo = r % 127773;
    int32_t word = 16807 * lo - 2836 * hi;
    if (word < 0)
      word += 2147483647;
    r = word;
    ring[i] = (uint32_t)r;
  }
  for (int i = 31; i < 34; i++)
    ring[i] = ring[i - 31];
  ring_pos = 0;
  seeded = 1;
  for (int i = 0; i < 310; i++)
    rand();
}

int rand(void) {
  if (!seeded)
    srand(1);
  /* ring_pos indexes the oldest word: r[i-34]. r[i-31] is 3 after it, r[i-3] 31 after. */
  uint32_t next = ring[(ring_pos + 3) % 34] + ring[(ring_pos + 31) % 34];
  ring[ring_pos] = next;
  ring_pos = (ring_pos + 1) % 34;
  return (int)(next >> 1);
}
