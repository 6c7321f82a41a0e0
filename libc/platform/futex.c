/* futex.c: waiting and waking through the IRT's futex interface, queried when first
 * needed (a wait or wake only happens once a second thread exists). */
#include <errno.h>
#include <limits.h>
#include "internal.h"

int __pnacl_futex_wait(volatile int *addr, int value, const struct timespec *abstime) {
  const struct pnacl_irt_futex *f = __pnacl_irt_futex();
  if (!f)
    __pnacl_fatal("IRT interface query failed for essential interface\n");
  int err = f->futex_wait_abs(addr, value, abstime);
  return err ? __pnacl_errno(err) : 0;
}

void __pnacl_futex_wake(volatile int *addr, int n) {
  const struct pnacl_irt_futex *f = __pnacl_irt_futex();
  int woken;
  if (f)
    f->futex_wake(addr, n, &woken);
}
