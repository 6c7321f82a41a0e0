/* internal.h: what the library's parts share. Every internal name starts with __pnacl_,
 * so nothing clashes with a program's names (or, in the native test build, glibc's). */
#ifndef _PNACL_SRC_INTERNAL_H
#define _PNACL_SRC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "irt.h"

/* Filled by _start (start.c). The fdio table is all zero when neither fdio interface
 * exists; its users then fail with ENOSYS, as newlib's stubs do. */
extern pnacl_irt_query_fn __pnacl_irt_query;
extern struct pnacl_irt_basic __pnacl_irt_basic;
extern struct pnacl_irt_fdio __pnacl_irt_fdio;
extern pnacl_irt_mmap_fn __pnacl_irt_mmap;
extern pnacl_irt_munmap_fn __pnacl_irt_munmap;
extern struct pnacl_irt_tls __pnacl_irt_tls;

/* Queries one interface; true only when the IRT filled exactly `size` bytes. */
int __pnacl_irt_query_table(const char *name, void *table, size_t size);

/* Lazily queried interfaces (time.c, stdio/file.c). Null when the IRT lacks them. */
const struct pnacl_irt_clock *__pnacl_irt_clock(void);
const struct pnacl_irt_filename *__pnacl_irt_filename(size_t *slots);

/* Writes all bytes to fd through fdio (retrying short writes); returns 0 or an errno. */
int __pnacl_write_all(int fd, const void *buf, size_t len);
/* Writes a message to fd 2 and traps: the fatal path for the library's own failures. */
void __pnacl_fatal(const char *msg) __attribute__((__noreturn__));

/* stdio hooks for exit (stdio/file.c). */
void __pnacl_stdio_exit(void);

/* Anonymous read-write pages from the IRT, or null (malloc.c and start.c). */
void *__pnacl_map_pages(size_t len);
void __pnacl_unmap_pages(void *p, size_t len);

/* argv[0], for assert's message (set by _start). */
extern const char *__pnacl_progname;

/* The environment (env.c), set by _start. */
extern char **environ;

#endif
