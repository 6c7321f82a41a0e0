/* thread_self.c: what every program has of threads, whether it starts any or not: the
 * main thread's descriptor and thread pointer (set up by _start), the calling thread's
 * descriptor, and the flag that tells locks a second thread exists (pthread/thread.c
 * sets it). */
#include "internal.h"
#include "thread.h"

__thread struct __pthread *__pnacl_self;
int __pnacl_threads_started;
struct __pthread *__pnacl_main_thread;

void *__pnacl_thread_id(void) { return __pnacl_self; }

/* Not inlined: nacl-expand-tls reads the thread pointer once, at the top of a function
 * that uses thread-local variables, so the first use must be in a function called after
 * tls_init has set it. */
__attribute__((noinline)) static void set_self(struct __pthread *t) { __pnacl_self = t; }

void __pnacl_thread_init_main(void) {
  struct __pthread *t = __pnacl_tls_main(sizeof(struct __pthread));
  if (__pnacl_irt_tls.tls_init(t) != 0)
    __pnacl_fatal("tls_init failed\n");
  set_self(t);
  __pnacl_main_thread = t;
}
