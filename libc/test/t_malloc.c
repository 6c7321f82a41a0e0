/* t_malloc.c: a malloc stress test. Random malloc, calloc, realloc, memalign and free of
 * sizes from 0 to a few megabytes, with every live block filled with a pattern of its
 * own that is checked before it is freed or resized (any overlap between blocks breaks a
 * pattern), alignment checks, and calloc's zeroing. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pnl.h"

#define SLOTS 4096

struct block {
  unsigned char *p;
  size_t size;
  unsigned char tag;
};

static struct block blocks[SLOTS];

static size_t random_size(void) {
  uint64_t r = rng_below(1000);
  if (r < 700)
    return rng_below(129);
  if (r < 950)
    return rng_below(4096);
  if (r < 995)
    return rng_below(200000);
  return rng_below(3 << 20);
}

static void fill(struct block *b) {
  for (size_t i = 0; i < b->size; i++)
    b->p[i] = (unsigned char)(b->tag + i * 7);
}

static int intact(const struct block *b, size_t upto) {
  for (size_t i = 0; i < upto; i++)
    if (b->p[i] != (unsigned char)(b->tag + i * 7))
      return 0;
  return 1;
}

int test_malloc(long n) {
  long ops = 0, bytes = 0, bad = 0;
  size_t align_needed = 16; /* the library's GRAIN on a 64-bit host */
  for (long i = 0; i < n; i++) {
    struct block *b = &blocks[rng_below(SLOTS)];
    uint64_t op = rng_below(10);
    ops++;
    if (b->p && !intact(b, b->size)) {
      bad += report_failure("malloc", "block of %zu bytes at %p was overwritten", b->size,
                            (void *)b->p);
    }
    if (b->p && op < 4) {
      pnl_free(b->p);
      b->p = NULL;
      continue;
    }
    if (b->p && op < 7) {
      size_t size = random_size();
      unsigned char *q = pnl_realloc(b->p, size);
      if (!q && size) {
        bad += report_failure("malloc", "realloc to %zu failed", size);
        continue;
      }
      size_t keep = size < b->size ? size : b->size;
      b->p = q;
      if (!intact(b, keep))
        bad += report_failure("malloc", "realloc lost the contents (%zu bytes)", keep);
      b->size = size;
      if (!q)
        continue; /* realloc(p, 0) freed it */
      fill(b);
      bytes += (long)size;
      continue;
    }
    if (b->p) {
      pnl_free(b->p);
      b->p = NULL;
    }
    size_t size = random_size();
    b->tag = (unsigned char)rng_next();
    if (op == 7) {
      size_t count = 1 + rng_below(8);
      b->p = pnl_calloc(count, size / count + 1);
      b->size = count * (size / count + 1);
      for (size_t k = 0; b->p && k < b->size; k++)
        if (b->p[k]) {
          bad += report_failure("malloc", "calloc memory is not zero at %zu of %zu", k, b->size);
          break;
        }
    } else if (op == 8) {
      size_t align = (size_t)1 << (4 + rng_below(10));
      b->p = pnl_memalign(align, size);
      b->size = size;
      if (b->p && (uintptr_t)b->p % align)
        bad += report_failure("malloc", "memalign(%zu) returned %p", align, (void *)b->p);
    } else {
      b->p = pnl_malloc(size);
      b->size = size;
    }
    if (!b->p) {
      bad += report_failure("malloc", "allocation of %zu bytes failed", size);
      continue;
    }
    if ((uintptr_t)b->p % align_needed)
      bad += report_failure("malloc", "%p is not %zu-aligned", (void *)b->p, align_needed);
    fill(b);
    bytes += (long)size;
  }
  for (int i = 0; i < SLOTS; i++) {
    if (blocks[i].p && !intact(&blocks[i], blocks[i].size))
      bad += report_failure("malloc", "block %d was overwritten", i);
    pnl_free(blocks[i].p);
  }
  /* Edge cases. */
  void *z = pnl_malloc(0);
  if (!z)
    bad += report_failure("malloc", "malloc(0) returned NULL");
  pnl_free(z);
  pnl_free(NULL);
  if (pnl_calloc((size_t)1 << 40, (size_t)1 << 40) != NULL)
    bad += report_failure("malloc", "calloc overflow was not detected");
  if (pnl_malloc((size_t)-1 - 8) != NULL)
    bad += report_failure("malloc", "malloc(SIZE_MAX - 8) succeeded");
  printf("malloc: %ld operations, %ld bytes filled, %ld failures\n", ops, bytes, bad);
  return bad != 0;
}
