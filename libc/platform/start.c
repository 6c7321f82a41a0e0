/* start.c: the entry point. _start parses the startup block (runtime-facts §2), finds
 * the IRT query function through AT_SYSINFO, queries the interfaces NaCl's newlib
 * queried at startup (§4.1, in the same order and with the same table sizes, success
 * only when the IRT returns the size asked for), gives the main thread its thread
 * pointer and descriptor, runs the constructors, and calls exit(main(argc, argv, envp)). */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "thread.h"

pnacl_irt_query_fn __pnacl_irt_query;
struct pnacl_irt_basic __pnacl_irt_basic;
struct pnacl_irt_fdio __pnacl_irt_fdio;
struct pnacl_irt_memory_3 __pnacl_irt_memory;
struct pnacl_irt_tls __pnacl_irt_tls;

extern char **environ;
int main(int argc, char **argv, char **envp);

/* The constructor and destructor arrays nacl-expand-ctors makes of llvm.global_ctors
 * and llvm.global_dtors (empty when there are none). */
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);
extern void (*__fini_array_start[])(void);
extern void (*__fini_array_end[])(void);

int __pnacl_irt_query_table(const char *name, void *table, size_t size) {
  if (!__pnacl_irt_query)
    return 0;
  return __pnacl_irt_query(name, table, size) == size;
}

void __pnacl_fatal(const char *msg) {
  size_t done;
  if (__pnacl_irt_fdio.write)
    __pnacl_irt_fdio.write(2, msg, strlen(msg), &done);
  __builtin_trap();
}

static void query_mandatory(const char *name, void *table, size_t size) {
  if (!__pnacl_irt_query_table(name, table, size))
    __pnacl_fatal("IRT interface query failed for essential interface\n");
}

static void init_irt(void) {
  if (!__pnacl_irt_query_table(PNACL_IRT_FDIO, &__pnacl_irt_fdio, sizeof __pnacl_irt_fdio) &&
      !__pnacl_irt_query_table(PNACL_IRT_DEV_FDIO, &__pnacl_irt_fdio, sizeof __pnacl_irt_fdio))
    memset(&__pnacl_irt_fdio, 0, sizeof __pnacl_irt_fdio);
  query_mandatory(PNACL_IRT_BASIC, &__pnacl_irt_basic, sizeof __pnacl_irt_basic);
  struct pnacl_irt_memory_2 m2;
  struct pnacl_irt_memory_1 m1;
  if (__pnacl_irt_query_table(PNACL_IRT_MEMORY_3, &__pnacl_irt_memory, sizeof __pnacl_irt_memory)) {
  } else if (__pnacl_irt_query_table(PNACL_IRT_MEMORY_2, &m2, sizeof m2)) {
    __pnacl_irt_memory.mmap = m2.mmap;
    __pnacl_irt_memory.munmap = m2.munmap;
    __pnacl_irt_memory.mprotect = m2.mprotect;
  } else {
    query_mandatory(PNACL_IRT_MEMORY_1, &m1, sizeof m1);
    __pnacl_irt_memory.mmap = m1.mmap;
    __pnacl_irt_memory.munmap = m1.munmap;
  }
  query_mandatory(PNACL_IRT_TLS, &__pnacl_irt_tls, sizeof __pnacl_irt_tls);
}

static void run_destructors(void) {
  for (void (**f)(void) = __fini_array_end; f > __fini_array_start;)
    (*--f)();
}

void _start(uint32_t *info) {
  void (*cleanup)(void) = (void (*)(void))info[0];
  uint32_t envc = info[1];
  uint32_t argc = info[2];
  char **argv = (char **)&info[3];
  char **envp = (char **)&info[3 + argc + 1];
  uint32_t *auxv = &info[3 + argc + 1 + envc + 1];
  for (; auxv[0] != PNACL_AT_NULL; auxv += 2)
    if (auxv[0] == PNACL_AT_SYSINFO)
      __pnacl_irt_query = (pnacl_irt_query_fn)auxv[1];
  if (!__pnacl_irt_query)
    __builtin_trap();
  init_irt();
  __pnacl_thread_init_main();
  environ = envp;
  if (cleanup)
    atexit(cleanup);
  atexit(run_destructors);
  for (void (**f)(void) = __init_array_start; f < __init_array_end; f++)
    (*f)();
  exit(main((int)argc, argv, envp));
}
