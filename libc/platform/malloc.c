/* malloc.c: pnacl's allocator, in place of newlib's (dlmalloc 2.6.4 over _sbrk, which
 * merges free chunks on every free): binarytrees 16 ran 2.9 times as long with newlib's,
 * tests/c/kernels/malloc.c 2.2 times (scripts/bench cc, libc/README.md).
 *
 * A size-class allocator over IRT mmap.
 *
 * Every block starts with a one-word header (padded to the alignment GRAIN). Small blocks
 * (at most MAX_SMALL bytes with the header) come in size classes: multiples of GRAIN up to
 * 16 grains, then four classes per power of two (so at most 25% is lost to rounding). A
 * freed small block goes on its class's free list and is reused by the next request of
 * that class: malloc and free are a few instructions each. New small blocks are carved
 * from chunks mapped from the IRT, each larger than the last. Large blocks are mapped
 * directly and unmapped when freed.
 *
 * Header word: class << 2 for a small block; the mapped length | 1 for a large one;
 * (offset << 2) | 2 in front of a block that memalign moved forward by `offset`.
 *
 * Once the program has started a second thread, every call holds one lock.
 *
 * newlib's interface is all here: malloc and the others, the reentrant _malloc_r and the
 * others newlib's own code calls, and malloc.h's statistics. */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <reent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define GRAIN (2 * sizeof(void *) > 8 ? 2 * sizeof(void *) : 8)
#define LINEAR_CLASSES 15 /* 2..16 grains */
#define LOG2_LINEAR_END (GRAIN == 8 ? 7 : 8) /* log2(16 * GRAIN) */
#define MAX_SMALL ((size_t)64 << 10)
#define LOG2_MAX_SMALL 16
#define CLASSES (LINEAR_CLASSES + 4 * (LOG2_MAX_SMALL - LOG2_LINEAR_END))
#define PAGE ((size_t)64 << 10)
#define FIRST_CHUNK ((size_t)256 << 10)
#define MAX_CHUNK ((size_t)8 << 20)

#define LARGE_FLAG 1
#define OFFSET_FLAG 2

struct free_block {
  struct free_block *next;
};

static struct free_block *free_lists[CLASSES];
static size_t mapped; /* bytes mapped for small blocks, for mallinfo */
static char *bump, *bump_end;
static size_t next_chunk = FIRST_CHUNK;

static size_t *header_of(void *p) { return (size_t *)((char *)p - GRAIN); }

/* x > 0. __builtin_clzll is llvm.ctlz.i64, which PNaCl allows. */
static unsigned log2_floor(size_t x) { return 63u - (unsigned)__builtin_clzll(x); }

/* The class of a block of `total` bytes (header included), 16 grains < total <= MAX_SMALL
 * in the geometric part. */
static unsigned class_of(size_t total) {
  if (total <= 16 * GRAIN)
    return total <= 2 * GRAIN ? 0 : (unsigned)((total + GRAIN - 1) / GRAIN - 2);
  size_t t = total - 1;
  unsigned b = log2_floor(t);
  unsigned quarter = (unsigned)(t >> (b - 2)) & 3;
  return LINEAR_CLASSES + 4 * (b - LOG2_LINEAR_END) + quarter;
}

static size_t class_size(unsigned c) {
  if (c < LINEAR_CLASSES)
    return (c + 2) * GRAIN;
  unsigned k = c - LINEAR_CLASSES;
  unsigned b = LOG2_LINEAR_END + k / 4;
  return ((size_t)1 << b) + ((size_t)(k % 4 + 1) << (b - 2));
}

static size_t round_up(size_t n, size_t to) { return (n + to - 1) & ~(to - 1); }

static void *alloc_large(size_t total) {
  size_t len = round_up(total, PAGE);
  if (len < total)
    return 0;
  char *p = __pnacl_map_pages(len);
  if (!p)
    return 0;
  *(size_t *)p = len | LARGE_FLAG;
  return p + GRAIN;
}

static void *carve(size_t size) {
  if ((size_t)(bump_end - bump) < size) {
    size_t len = next_chunk;
    if (next_chunk < MAX_CHUNK)
      next_chunk *= 2;
    char *chunk = __pnacl_map_pages(len);
    if (!chunk)
      return 0;
    mapped += len;
    bump = chunk;
    bump_end = chunk + len;
  }
  char *p = bump;
  bump += size;
  return p;
}

static inline __attribute__((always_inline)) void *do_malloc(size_t n) {
  if (n > MAX_SMALL - GRAIN) {
    void *p = n > SIZE_MAX - 2 * PAGE ? 0 : alloc_large(n + GRAIN);
    if (!p)
      errno = ENOMEM;
    return p;
  }
  unsigned c = class_of(n + GRAIN);
  struct free_block *b = free_lists[c];
  if (b) {
    free_lists[c] = b->next;
    return b;
  }
  char *block = carve(class_size(c));
  if (!block) {
    errno = ENOMEM;
    return 0;
  }
  *(size_t *)block = (size_t)c << 2;
  return block + GRAIN;
}

/* The pointer malloc returned for p (undoing memalign's offset). */
static void *block_start(void *p) {
  size_t h = *header_of(p);
  return h & OFFSET_FLAG ? (char *)p - (h >> 2) : p;
}

/* How many bytes the caller may use from the block malloc returned. */
static size_t capacity(void *base) {
  size_t h = *header_of(base);
  return (h & LARGE_FLAG ? h & ~(size_t)LARGE_FLAG : class_size((unsigned)(h >> 2))) - GRAIN;
}

static inline __attribute__((always_inline)) void do_free(void *p) {
  if (!p)
    return;
  p = block_start(p);
  size_t h = *header_of(p);
  if (h & LARGE_FLAG) {
    __pnacl_unmap_pages((char *)p - GRAIN, h & ~(size_t)LARGE_FLAG);
    return;
  }
  struct free_block *b = p;
  unsigned c = (unsigned)(h >> 2);
  b->next = free_lists[c];
  free_lists[c] = b;
}

static void *do_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) {
    errno = ENOMEM;
    return 0;
  }
  size_t total = n * size;
  void *p = do_malloc(total);
  /* Large blocks are freshly mapped, hence already zero. */
  if (p && !(*header_of(p) & LARGE_FLAG))
    memset(p, 0, total);
  return p;
}

static void *do_realloc(void *p, size_t n) {
  if (!p)
    return do_malloc(n);
  if (n == 0) {
    do_free(p);
    return 0;
  }
  void *base = block_start(p);
  size_t avail = capacity(base) - (size_t)((char *)p - (char *)base);
  if (n <= avail)
    return p;
  void *q = do_malloc(n);
  if (!q)
    return 0;
  memcpy(q, p, avail);
  do_free(p);
  return q;
}

static void *do_memalign(size_t align, size_t n) {
  if (align <= GRAIN)
    return do_malloc(n);
  if (align & (align - 1)) {
    errno = EINVAL;
    return 0;
  }
  if (n > SIZE_MAX - 2 * align) {
    errno = ENOMEM;
    return 0;
  }
  char *p = do_malloc(n + align);
  if (!p)
    return 0;
  size_t offset = round_up((uintptr_t)p, align) - (uintptr_t)p;
  if (offset == 0)
    return p;
  *header_of(p + offset) = (offset << 2) | OFFSET_FLAG;
  return p + offset;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The lock is taken only once a second thread exists (only a running thread starts
 * another, so the flag cannot change between a call's test and its end). The locked
 * calls are functions of their own, so that the unlocked path is a leaf: the test and the
 * allocator's few instructions, with no frame set up for the lock's calls. */
#define LOCKED_CALL(name, type, params, args)         \
  static __attribute__((noinline)) type name##_locked params { \
    pthread_mutex_lock(&lock);                        \
    type r_ = do_##name args;                         \
    pthread_mutex_unlock(&lock);                      \
    return r_;                                        \
  }
LOCKED_CALL(malloc, void *, (size_t n), (n))
LOCKED_CALL(calloc, void *, (size_t n, size_t size), (n, size))
LOCKED_CALL(realloc, void *, (void *p, size_t n), (p, n))
LOCKED_CALL(memalign, void *, (size_t align, size_t n), (align, n))

static __attribute__((noinline)) void free_locked(void *p) {
  pthread_mutex_lock(&lock);
  do_free(p);
  pthread_mutex_unlock(&lock);
}

#define UNLOCKED (__builtin_expect(!__pnacl_threads_started, 1))

void *malloc(size_t n) { return UNLOCKED ? do_malloc(n) : malloc_locked(n); }
void *calloc(size_t n, size_t size) { return UNLOCKED ? do_calloc(n, size) : calloc_locked(n, size); }
void *realloc(void *p, size_t n) { return UNLOCKED ? do_realloc(p, n) : realloc_locked(p, n); }
void *memalign(size_t align, size_t n) { return UNLOCKED ? do_memalign(align, n) : memalign_locked(align, n); }

void free(void *p) {
  if (UNLOCKED)
    do_free(p);
  else
    free_locked(p);
}

void cfree(void *p) { free(p); }
void *valloc(size_t n) { return memalign(PAGE, n); }
void *pvalloc(size_t n) { return memalign(PAGE, round_up(n, PAGE)); }

int posix_memalign(void **out, size_t align, size_t n) {
  if (align < sizeof(void *) || (align & (align - 1)))
    return EINVAL;
  void *p = memalign(align, n);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

size_t malloc_usable_size(void *p) {
  if (!p)
    return 0;
  void *base = block_start(p);
  return capacity(base) - (size_t)((char *)p - (char *)base);
}

struct mallinfo mallinfo(void) {
  struct mallinfo m = {0};
  m.arena = mapped;
  return m;
}

void malloc_stats(void) { fprintf(stderr, "system bytes = %10lu\n", (unsigned long)mapped); }
int mallopt(int parameter, int value) {
  (void)parameter, (void)value;
  return 0;
}

/* The reentrant names newlib's own code calls. */
void *_malloc_r(struct _reent *r, size_t n) { (void)r; return malloc(n); }
void _free_r(struct _reent *r, void *p) { (void)r; free(p); }
void *_calloc_r(struct _reent *r, size_t n, size_t size) { (void)r; return calloc(n, size); }
void *_realloc_r(struct _reent *r, void *p, size_t n) { (void)r; return realloc(p, n); }
void *_memalign_r(struct _reent *r, size_t align, size_t n) { (void)r; return memalign(align, n); }
void *_valloc_r(struct _reent *r, size_t n) { (void)r; return valloc(n); }
void *_pvalloc_r(struct _reent *r, size_t n) { (void)r; return pvalloc(n); }
size_t _malloc_usable_size_r(struct _reent *r, void *p) { (void)r; return malloc_usable_size(p); }
struct mallinfo _mallinfo_r(struct _reent *r) { (void)r; return mallinfo(); }
void _malloc_stats_r(struct _reent *r) { (void)r; malloc_stats(); }
int _mallopt_r(struct _reent *r, int parameter, int value) { (void)r; return mallopt(parameter, value); }
int _malloc_trim_r(struct _reent *r, size_t pad) {
  (void)r, (void)pad;
  return 0; /* small blocks are kept; large ones are unmapped when freed */
}
void mstats(char *title) {
  (void)title;
  malloc_stats();
}
