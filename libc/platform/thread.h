/* thread.h: pnacl's thread descriptor, which the pthread files and the lock and reent
 * code share. A thread's descriptor sits at its thread pointer (the TDB of ExpandTls's
 * layout, whose first word points to itself), just above its thread-local block. */
#ifndef _PNACL_PLATFORM_THREAD_H
#define _PNACL_PLATFORM_THREAD_H

#include <pthread.h>
#include <reent.h>
#include <stdint.h>

struct __pthread {
  struct __pthread *self; /* first: the TDB points to itself */
  void *(*start)(void *);
  void *arg;
  void *result;
  struct _reent *reent;  /* newlib's per-thread state (errno); null: _impure_ptr */
  void *area;            /* the TLS block and this descriptor, to free */
  void *stack;           /* the guest stack, to free */
  volatile int32_t stack_in_use; /* the IRT's thread_exit clears it */
  volatile int done;     /* 1 once the thread has ended (a futex word) */
  volatile int detached; /* 1: nobody joins it; it is reaped by a later create */
  struct __pthread *next_zombie;
  const void *values[PTHREAD_KEYS_MAX];
};

/* The calling thread's descriptor. */
extern __thread struct __pthread *__pnacl_self;

/* The main thread's descriptor. */
extern struct __pthread *__pnacl_main_thread;

/* Sets up the main thread (start.c calls it before anything else). */
void __pnacl_thread_init_main(void);

/* Runs the key destructors of the calling thread (key.c). */
void __pnacl_run_key_destructors(struct __pthread *t);

#endif
