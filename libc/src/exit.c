/* exit.c: exit runs the atexit handlers (last registered first), flushes and closes
 * stdio, then calls the IRT exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define ATEXIT_MAX 64
static void (*handlers[ATEXIT_MAX])(void);
static int handler_count;

int atexit(void (*fn)(void)) {
  if (handler_count == ATEXIT_MAX)
    return -1;
  handlers[handler_count++] = fn;
  return 0;
}

void _Exit(int status) {
  __pnacl_irt_basic.exit(status);
  __builtin_trap();
}

void exit(int status) {
  while (handler_count > 0)
    handlers[--handler_count]();
  __pnacl_stdio_exit();
  _Exit(status);
}

/* newlib's abort in NaCl: a message on fd 2, then a trap. */
void abort(void) {
  static const char msg[] = "** abort() called\n";
  __pnacl_write_all(2, msg, sizeof msg - 1);
  __builtin_trap();
}

/* assert's failure: glibc's message, then abort. */
void __assert_fail(const char *expr, const char *file, int line, const char *func) {
  fflush(stdout);
  fprintf(stderr, "%s%s%s:%d: %s%sAssertion `%s' failed.\n", __pnacl_progname,
          *__pnacl_progname ? ": " : "", file, line, func ? func : "", func ? ": " : "", expr);
  abort();
}

int system(const char *cmd) {
  (void)cmd;
  return 0;
}
