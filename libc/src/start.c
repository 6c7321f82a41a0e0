/* start.c: the entry point. _start parses the startup block (runtime-facts §2), finds the
 * IRT query function through AT_SYSINFO, queries the interfaces newlib queries at startup
 * (§4.1, in the same order, success only when the IRT returns the table size), sets up the
 * thread pointer for ExpandTls's layout, and runs main. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

pnacl_irt_query_fn __pnacl_irt_query;
struct pnacl_irt_basic __pnacl_irt_basic;
struct pnacl_irt_fdio __pnacl_irt_fdio;
pnacl_irt_mmap_fn __pnacl_irt_mmap;
pnacl_irt_munmap_fn __pnacl_irt_munmap;
struct pnacl_irt_tls __pnacl_irt_tls;
const char *__pnacl_progname = "";

int main(int argc, char **argv, char **envp);

/* Defined by the ExpandTls pass: the initialised part of the TLS template, its end, the
 * end of the zero-filled part, and the template's alignment. */
extern char __tls_template_start[];
extern char __tls_template_tdata_end[];
extern char __tls_template_end[];
extern const uint32_t __tls_template_alignment;

int __pnacl_irt_query_table(const char *name, void *table, size_t size) {
  if (!__pnacl_irt_query)
    return 0;
  return __pnacl_irt_query(name, table, size) == size;
}

static void write_stderr(const char *msg) {
  size_t done;
  if (__pnacl_irt_fdio.write)
    __pnacl_irt_fdio.write(2, msg, strlen(msg), &done);
}

void __pnacl_fatal(const char *msg) {
  write_stderr(msg);
  __builtin_trap();
}

static void query_mandatory(const char *name, void *table, size_t size) {
  if (!__pnacl_irt_query_table(name, table, size))
    __pnacl_fatal("IRT interface query failed for essential interface\n");
}

static void init_irt(void) {
  if (!__pnacl_irt_query_table(PNACL_IRT_FDIO, &__pnacl_irt_fdio, sizeof __pnacl_irt_fdio) &&
      !__pnacl_irt_query_table(PNACL_IRT_DEV_FDIO, &__pnacl_irt_fdio,
                               sizeof __pnacl_irt_fdio))
    memset(&__pnacl_irt_fdio, 0, sizeof __pnacl_irt_fdio);
  query_mandatory(PNACL_IRT_BASIC, &__pnacl_irt_basic, sizeof __pnacl_irt_basic);

  struct pnacl_irt_memory_3 m3;
  struct pnacl_irt_memory_2 m2;
  struct pnacl_irt_memory_1 m1;
  if (__pnacl_irt_query_table(PNACL_IRT_MEMORY_3, &m3, sizeof m3)) {
    __pnacl_irt_mmap = m3.mmap;
    __pnacl_irt_munmap = m3.munmap;
  } else if (__pnacl_irt_query_table(PNACL_IRT_MEMORY_2, &m2, sizeof m2)) {
    __pnacl_irt_mmap = m2.mmap;
    __pnacl_irt_munmap = m2.munmap;
  } else {
    query_mandatory(PNACL_IRT_MEMORY_1, &m1, sizeof m1);
    __pnacl_irt_mmap = m1.mmap;
    __pnacl_irt_munmap = m1.munmap;
  }
  query_mandatory(PNACL_IRT_TLS, &__pnacl_irt_tls, sizeof __pnacl_irt_tls);
}

void *__pnacl_map_pages(size_t len) {
  void *p = 0;
  if (__pnacl_irt_mmap(&p, len, PNACL_PROT_READ | PNACL_PROT_WRITE,
                       PNACL_MAP_PRIVATE | PNACL_MAP_ANONYMOUS, -1, 0) != 0)
    return 0;
  return p;
}

void __pnacl_unmap_pages(void *p, size_t len) { __pnacl_irt_munmap(p, len); }

/* The x86-style layout ExpandTls compiles to: the template sits just below the thread
 * pointer, which points at a thread descriptor whose first word points to itself. */
#define TDB_SIZE 64
static void init_tls(void) {
  size_t tls_size = (size_t)(__tls_template_end - __tls_template_start);
  size_t tdata_size = (size_t)(__tls_template_tdata_end - __tls_template_start);
  size_t align = __tls_template_alignment;
  if (align < sizeof(void *))
    align = sizeof(void *);
  char *area = __pnacl_map_pages(tls_size + align + TDB_SIZE);
  if (!area)
    __pnacl_fatal("cannot allocate the thread-local storage area\n");
  uintptr_t tp = ((uintptr_t)area + tls_size + align - 1) & ~(uintptr_t)(align - 1);
  memcpy((char *)tp - tls_size, __tls_template_start, tdata_size);
  memset((char *)tp - tls_size + tdata_size, 0, tls_size - tdata_size);
  *(uintptr_t *)tp = tp;
  if (__pnacl_irt_tls.tls_init((void *)tp) != 0)
    __pnacl_fatal("tls_init failed\n");
}

void _start(uintptr_t *info) {
  void (*cleanup)(void) = (void (*)(void))info[0];
  uintptr_t envc = info[1];
  uintptr_t argc = info[2];
  char **argv = (char **)&info[3];
  char **envp = (char **)&info[3 + argc + 1];
  uintptr_t *auxv = &info[3 + argc + 1 + envc + 1];
  for (; auxv[0] != PNACL_AT_NULL; auxv += 2)
    if (auxv[0] == PNACL_AT_SYSINFO)
      __pnacl_irt_query = (pnacl_irt_query_fn)auxv[1];
  if (!__pnacl_irt_query)
    __builtin_trap();
  init_irt();
  init_tls();
  environ = envp;
  __pnacl_progname = argc > 0 && argv[0] ? argv[0] : "";
  if (cleanup)
    atexit(cleanup);
  exit(main((int)argc, argv, envp));
}
