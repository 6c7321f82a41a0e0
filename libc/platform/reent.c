/* reent.c: newlib's per-thread state (errno, strtok's position, ...) with
 * __DYNAMIC_REENT__: the main thread's is newlib's _impure_ptr, another thread's is in
 * its descriptor. */
#include <reent.h>
#include "thread.h"

struct _reent *__getreent(void) {
  struct __pthread *t = __pnacl_self;
  return t && t->reent ? t->reent : _impure_ptr;
}
