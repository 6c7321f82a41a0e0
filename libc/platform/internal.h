/* internal.h: what the platform layer's files share. Every name starts with __pnacl_, so
 * nothing clashes with a program's names or newlib's. */
#ifndef _PNACL_PLATFORM_INTERNAL_H
#define _PNACL_PLATFORM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "irt.h"

/* Atomics. clang's le32 target turns the __atomic builtins into calls to libatomic's
 * functions (it declares no lock-free width), but the __sync builtins into atomicrmw and
 * cmpxchg; and PNaCl's nacl-rewrite-atomics makes volatile loads and stores sequentially
 * consistent atomics. So: */
#define PNACL_LOAD(p) (*(volatile __typeof__(*(p)) *)(p))
#define PNACL_STORE(p, v) (*(volatile __typeof__(*(p)) *)(p) = (v))
#define PNACL_CAS(p, old, new) __sync_val_compare_and_swap((p), (old), (new))
#define PNACL_XCHG(p, v) __sync_lock_test_and_set((p), (v))
#define PNACL_ADD(p, v) __sync_add_and_fetch((p), (v))

/* Filled by _start (start.c). The fdio table is all zero when neither fdio interface
 * exists; its users then fail with ENOSYS, as NaCl's newlib did. */
extern pnacl_irt_query_fn __pnacl_irt_query;
extern struct pnacl_irt_basic __pnacl_irt_basic;
extern struct pnacl_irt_fdio __pnacl_irt_fdio;
extern struct pnacl_irt_memory_3 __pnacl_irt_memory;
extern struct pnacl_irt_tls __pnacl_irt_tls;

/* Queries one interface; true only when the IRT filled exactly `size` bytes. */
int __pnacl_irt_query_table(const char *name, void *table, size_t size);

/* Interfaces queried on first use (irt_lazy.c); null when the IRT lacks them.
 * `slots` is how many of the table's slots the IRT filled. */
const struct pnacl_irt_filename *__pnacl_irt_filename(size_t *slots);
const struct pnacl_irt_dev_fdio_3 *__pnacl_irt_dev_fdio(size_t *slots);
const struct pnacl_irt_clock *__pnacl_irt_clock(void);
const struct pnacl_irt_thread *__pnacl_irt_thread(void);
const struct pnacl_irt_futex *__pnacl_irt_futex(void);
const struct pnacl_irt_getpid *__pnacl_irt_getpid(void);
const struct pnacl_irt_signal *__pnacl_irt_signal(void);

/* newlib's errno value for a NaCl one (errno.c). */
int __pnacl_errno(int nacl_errno);
/* Sets errno from a NaCl errno and returns -1: how a failed call ends. */
int __pnacl_fail(int nacl_errno);
/* The NaCl errno for one of newlib's (for the IRT's callers that pass errors on). */
int __pnacl_nacl_errno(int newlib_errno);

/* lstat (filename.c), which newlib's <sys/stat.h> declares only for some systems. */
int lstat(const char *path, struct stat *st);

/* struct stat from the IRT's nacl_abi_stat (stat.c). */
void __pnacl_stat_from_abi(struct stat *st, const struct pnacl_abi_stat *abi);

/* Writes a message to fd 2 and traps: the fatal path for the layer's own failures. */
void __pnacl_fatal(const char *msg) __attribute__((__noreturn__));

/* Anonymous read-write pages from the IRT, or null (memory.c). */
void *__pnacl_map_pages(size_t len);
void __pnacl_unmap_pages(void *p, size_t len);

/* Set once the program has started a second thread (pthread_create): until then locks
 * cost a load and a branch. Only a running thread starts another, so a thread reads the
 * flag it could not see change under it: a plain load (not an atomic one) is enough. */
extern int __pnacl_threads_started;

/* The calling thread's id for lock ownership (never 0): its thread descriptor. */
void *__pnacl_thread_id(void);

/* Futex operations (futex.c), with newlib's errno values: wait while *addr == value,
 * until `abstime` (CLOCK_REALTIME; null: no limit); wake up to `n` waiters. */
int __pnacl_futex_wait(volatile int *addr, int value, const struct timespec *abstime);
void __pnacl_futex_wake(volatile int *addr, int n);

/* The thread-local storage block for a new thread (tls.c): the template copied below
 * the returned thread pointer, which points at `tdb_size` bytes whose first word points
 * to themselves (ExpandTls's layout). `*area` is what to free. */
void *__pnacl_tls_new(size_t tdb_size, void **area);
/* The same for the main thread, in pages from the IRT (malloc may not work yet). */
void *__pnacl_tls_main(size_t tdb_size);

#endif
