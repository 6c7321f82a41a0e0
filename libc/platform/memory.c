/* memory.c: memory from the IRT's mmap. newlib's malloc grows its heap with _sbrk, which
 * is kept here over mmap: each extension asks for the pages right after the heap (the
 * IRT honours a free hint), so the heap stays contiguous unless something else was
 * mapped there, and newlib's malloc copes with a heap that jumps. mmap, munmap and
 * mprotect are the IRT's, for programs. */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"

#define NACL_ENOSYS 38
#define NACL_ENOMEM 12
/* At least this much is mapped at a time (the IRT's page is 64 KiB). */
#define HEAP_STEP (256 * 1024)

static char *heap_start; /* the region the break is in */
static char *heap_brk;   /* the break */
static char *heap_end;   /* the end of what is mapped for it */

void *__pnacl_map_pages(size_t len) {
  void *p = 0;
  if (__pnacl_irt_memory.mmap(&p, len, PNACL_PROT_READ | PNACL_PROT_WRITE,
                              PNACL_MAP_PRIVATE | PNACL_MAP_ANONYMOUS, -1, 0) != 0)
    return 0;
  return p;
}

void __pnacl_unmap_pages(void *p, size_t len) { __pnacl_irt_memory.munmap(p, len); }

static size_t round_step(size_t n) { return (n + HEAP_STEP - 1) & ~(size_t)(HEAP_STEP - 1); }

static void *nomem(void) {
  errno = ENOMEM;
  return (void *)-1;
}

void *_sbrk(ptrdiff_t incr) {
  char *old = heap_brk;
  if (incr <= 0) {
    if ((size_t)-incr > (size_t)(heap_brk - heap_start))
      return nomem();
    heap_brk += incr;
    return old;
  }
  if ((size_t)incr <= (size_t)(heap_end - heap_brk)) {
    heap_brk += incr;
    return old;
  }
  if (heap_end) {
    /* The pages right after the heap, if they are free. */
    size_t len = round_step((size_t)incr - (size_t)(heap_end - heap_brk));
    void *p = heap_end;
    if (__pnacl_irt_memory.mmap(&p, len, PNACL_PROT_READ | PNACL_PROT_WRITE,
                                PNACL_MAP_PRIVATE | PNACL_MAP_ANONYMOUS, -1, 0) == 0) {
      if ((char *)p == heap_end) {
        heap_end += len;
        heap_brk += incr;
        return old;
      }
      __pnacl_irt_memory.munmap(p, len);
    }
  }
  /* A new region for the whole increment: the heap continues there. */
  size_t len = round_step((size_t)incr);
  if (len < (size_t)incr)
    return nomem();
  char *p = __pnacl_map_pages(len);
  if (!p)
    return nomem();
  heap_start = p;
  heap_brk = p + incr;
  heap_end = p + len;
  return p;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  void *p = addr;
  int err = __pnacl_irt_memory.mmap(&p, len, prot, flags, fd, offset);
  if (err) {
    __pnacl_fail(err);
    return MAP_FAILED;
  }
  return p;
}

int munmap(void *addr, size_t len) {
  int err = __pnacl_irt_memory.munmap(addr, len);
  return err ? __pnacl_fail(err) : 0;
}

int mprotect(void *addr, size_t len, int prot) {
  if (!__pnacl_irt_memory.mprotect)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_memory.mprotect(addr, len, prot);
  return err ? __pnacl_fail(err) : 0;
}
