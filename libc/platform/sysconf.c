/* sysconf.c: the system's limits, through the IRT's sysconf where it knows them (newlib's
 * _SC_ names have other numbers than NaCl's). */
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define NACL_SC_NPROCESSORS_ONLN 1
#define NACL_SC_PAGESIZE 2

static long irt_sysconf(int name) {
  int value;
  int err = __pnacl_irt_basic.sysconf(name, &value);
  return err ? __pnacl_fail(err) : value;
}

long sysconf(int name) {
  switch (name) {
  case _SC_PAGESIZE: return irt_sysconf(NACL_SC_PAGESIZE);
  case _SC_NPROCESSORS_CONF:
  case _SC_NPROCESSORS_ONLN: return irt_sysconf(NACL_SC_NPROCESSORS_ONLN);
  case _SC_CLK_TCK: return CLOCKS_PER_SEC;
  case _SC_OPEN_MAX: return 1024;
  case _SC_ARG_MAX: return 4096;
  case _SC_THREAD_KEYS_MAX: return 128;
  default: errno = EINVAL; return -1;
  }
}

int getpagesize(void) { return (int)sysconf(_SC_PAGESIZE); }
