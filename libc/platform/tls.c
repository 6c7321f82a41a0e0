/* tls.c: thread-local storage blocks in ExpandTls's layout: the template
 * (__tls_template_start..__tls_template_tdata_end initialised, the rest zeroed) ends
 * just below the thread pointer, which is aligned to __tls_template_alignment (16 at
 * least) and points to a thread descriptor whose first word points to itself. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

extern char __tls_template_start[];
extern char __tls_template_tdata_end[];
extern char __tls_template_end[];
extern const uint32_t __tls_template_alignment;

/* nacl-expand-tls places variables at negative offsets from the thread pointer: each at
 * its place in the template minus the template's size rounded up to its alignment. */
static size_t tls_block_size(void) {
  size_t size = (size_t)(__tls_template_end - __tls_template_start);
  size_t align = __tls_template_alignment ? __tls_template_alignment : 1;
  return (size + align - 1) & ~(align - 1);
}

static size_t tp_align(void) {
  size_t align = __tls_template_alignment;
  return align < 16 ? 16 : align;
}

/* Bytes for a block and a descriptor of `tdb_size` bytes, with room to align. */
static size_t tls_area_size(size_t tdb_size) { return tls_block_size() + tp_align() + tdb_size; }

static void *tls_fill(char *area, size_t tdb_size) {
  size_t block = tls_block_size();
  size_t tdata_size = (size_t)(__tls_template_tdata_end - __tls_template_start);
  size_t align = tp_align();
  uintptr_t tp = ((uintptr_t)area + block + align - 1) & ~(uintptr_t)(align - 1);
  memcpy((char *)tp - block, __tls_template_start, tdata_size);
  memset((char *)tp - block + tdata_size, 0, block - tdata_size);
  memset((void *)tp, 0, tdb_size);
  *(uintptr_t *)tp = tp;
  return (void *)tp;
}

void *__pnacl_tls_new(size_t tdb_size, void **area) {
  *area = malloc(tls_area_size(tdb_size));
  return *area ? tls_fill(*area, tdb_size) : 0;
}

void *__pnacl_tls_main(size_t tdb_size) {
  char *area = __pnacl_map_pages(tls_area_size(tdb_size));
  if (!area)
    __pnacl_fatal("cannot allocate the thread-local storage area\n");
  return tls_fill(area, tdb_size);
}
