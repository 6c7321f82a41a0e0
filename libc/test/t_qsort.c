/* t_qsort.c: qsort against a reference stable sort and against glibc's (a stable merge
 * sort too when it can allocate): random arrays of records with many equal keys, of
 * several element sizes; plus bsearch. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pnl.h"

struct rec {
  int key;
  int payload;
  char pad[40];
};

static int cmp_rec(const void *a, const void *b) {
  int x = ((const struct rec *)a)->key, y = ((const struct rec *)b)->key;
  return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int cmp_byte(const void *a, const void *b) {
  return *(const unsigned char *)a - *(const unsigned char *)b;
}

/* Stable insertion sort: the reference. */
static void reference_sort(struct rec *a, size_t n) {
  for (size_t i = 1; i < n; i++) {
    struct rec t = a[i];
    size_t j = i;
    while (j > 0 && a[j - 1].key > t.key) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = t;
  }
}

int test_qsort(long n) {
  long bad = 0, sorted = 0;
  for (long round = 0; round < n; round++) {
    size_t len = rng_below(10) == 0 ? rng_below(3000) : rng_below(200);
    int keys = 1 + (int)rng_below(rng_below(2) ? 10 : 100000);
    struct rec *a = malloc((len + 1) * sizeof *a), *b = malloc((len + 1) * sizeof *a),
               *c = malloc((len + 1) * sizeof *a);
    for (size_t i = 0; i < len; i++) {
      memset(&a[i], 0, sizeof a[i]);
      a[i].key = (int)rng_below((uint64_t)keys) - keys / 2;
      a[i].payload = (int)i;
    }
    memcpy(b, a, len * sizeof *a);
    memcpy(c, a, len * sizeof *a);
    pnl_qsort(a, len, sizeof *a, cmp_rec);
    reference_sort(b, len);
    qsort(c, len, sizeof *c, cmp_rec);
    if (memcmp(a, b, len * sizeof *a) != 0)
      bad += report_failure("qsort", "records of %zu differ from the stable reference", len);
    if (memcmp(a, c, len * sizeof *a) != 0)
      bad += report_failure("qsort", "records of %zu differ from glibc", len);
    int *ia = malloc((len + 1) * sizeof(int)), *ib = malloc((len + 1) * sizeof(int));
    for (size_t i = 0; i < len; i++)
      ia[i] = ib[i] = (int)rng_next();
    pnl_qsort(ia, len, sizeof(int), cmp_int);
    qsort(ib, len, sizeof(int), cmp_int);
    if (memcmp(ia, ib, len * sizeof(int)) != 0)
      bad += report_failure("qsort", "ints of %zu differ from glibc", len);
    for (size_t k = 0; k < 8 && len; k++) {
      int key = ia[rng_below(len)];
      int *hit = pnl_bsearch(&key, ia, len, sizeof(int), cmp_int);
      if (!hit || *hit != key)
        bad += report_failure("bsearch", "did not find %d", key);
    }
    int missing = INT32_MIN;
    if (len && ia[0] != missing && pnl_bsearch(&missing, ia, len, sizeof(int), cmp_int))
      bad += report_failure("bsearch", "found a missing key");
    unsigned char *ba = (unsigned char *)ia;
    memcpy(ib, ia, len);
    pnl_qsort(ba, len, 1, cmp_byte);
    qsort(ib, len, 1, cmp_byte);
    if (memcmp(ba, ib, len) != 0)
      bad += report_failure("qsort", "bytes of %zu differ from glibc", len);
    free(a), free(b), free(c), free(ia), free(ib);
    sorted += 3;
  }
  printf("qsort: %ld arrays sorted, %ld failures\n", sorted, bad);
  return bad != 0;
}
