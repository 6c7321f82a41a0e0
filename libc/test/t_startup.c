/* t_startup.c: what _start and exit do, seen from the host IRT: the interfaces queried
 * and in which order, argv and the environment, the TLS block, the write calls stdout
 * and stderr make (line buffering), atexit, fallbacks to older interfaces, and the fatal
 * paths. The Rust test runs each of these families and checks what it prints. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host_irt.h"
#include "pnl.h"

extern void *host_irt_tp;
extern char tls_template[];

static void first_handler(void) { pnl_printf("first registered, last run\n"); }
static void second_handler(void) { pnl_printf("second registered, first run;"); }

void pnl_abort(void);
void pnl___assert_fail(const char *expr, const char *file, int line, const char *func);

int test_startup(int argc, char **argv) {
  const char *family = argv[1];
  if (!strcmp(family, "startup")) {
    /* The queries so far, the argument vector, the environment. */
    printf("%s", host_irt_query_log);
    for (int i = 1; i < argc; i++)
      printf("argv[%d]=%s\n", i, argv[i]);
    const char *v = pnl_getenv("PNACL_LIBC_TEST");
    printf("getenv=%s missing=%s\n", v ? v : "(null)",
           pnl_getenv("PNACL_LIBC_TEST_MISSING") ? "found" : "(null)");
    return 0;
  }
  if (!strcmp(family, "tls")) {
    /* The block below the thread pointer: the 8 initialised bytes, then 16 zero bytes. */
    const char *tp = host_irt_tp;
    const char *block = tp - 24;
    int zero = 1;
    for (int i = 8; i < 24; i++)
      zero &= block[i] == 0;
    printf("tp aligned %d self %d data %.8s zero %d\n", (int)((uintptr_t)tp % 16 == 0),
           *(void *const *)tp == tp, block, zero);
    return 0;
  }
  if (!strcmp(family, "exit")) {
    /* Run with HOST_IRT_CAPTURE=1: the write calls are printed at exit. */
    pnl_atexit(first_handler);
    pnl_atexit(second_handler);
    pnl_printf("a\nb");
    pnl_fprintf(pnl_stderr, "X%d", 1);
    pnl_printf("c\n");
    pnl_puts("line");
    pnl_putchar('d');
    pnl_fputs("e\nf", pnl_stdout);
    pnl_perror("perror");
    pnl_exit(3);
  }
  if (!strcmp(family, "fallback")) {
    /* Run with some interfaces hidden: malloc and fopen must still work. */
    char *p = pnl_malloc(100000);
    memset(p, 1, 100000);
    pnl_free(p);
    PNL_FILE *f = pnl_fopen("/dev/null", "w");
    printf("%s", host_irt_query_log);
    printf("malloc %s fopen %s\n", p ? "ok" : "failed", f ? "ok" : "failed");
    return 0;
  }
  if (!strcmp(family, "abort"))
    pnl_abort();
  if (!strcmp(family, "assert")) {
    pnl_printf("flushed first\n");
    pnl___assert_fail("1 == 2", "file.c", 12, "fn");
  }
  printf("unknown family %s\n", family);
  return 1;
}
