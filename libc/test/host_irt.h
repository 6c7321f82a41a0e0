/* host_irt.h: the host-side IRT of the native test build (host_irt.c), and what the tests
 * can observe of it. Compiled against glibc; the library under test sees only the query
 * function, through AT_SYSINFO, as a pexe would. */
#ifndef PNACL_TEST_HOST_IRT_H
#define PNACL_TEST_HOST_IRT_H

#include <stddef.h>

/* The IRT query function handed to _start. */
size_t host_irt_query(const char *name, void *table, size_t size);

/* Interfaces the host IRT pretends not to have (a NULL-terminated list of names), so that
 * the tests can check the library's fallbacks. */
extern const char *const *host_irt_hidden;

/* Every query, in order, as "name size -> result" lines. */
extern char host_irt_query_log[4096];

/* When set, writes to fds 1 and 2 are recorded here (one entry per write call) instead of
 * reaching the real descriptors; host exit prints the record (see host_irt.c). */
extern int host_irt_capture;
void host_irt_dump_capture(void);

#endif
