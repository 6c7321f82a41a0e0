/* thread.c: threads over the IRT's thread interface. A thread gets one allocation for
 * its thread-local block and descriptor (tls.c), one for its stack, and its own newlib
 * reent (errno); the IRT starts it with its thread pointer at the descriptor. A thread's
 * state word is a futex its joiner sleeps on; a detached thread that ends cannot free
 * the stack it still runs on, so it is left on a list, and freed by a later
 * pthread_create once the IRT has cleared its stack flag. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "../thread.h"

#define JOINABLE 0
#define DETACHED 1
#define EXITED 2

#define DEFAULT_STACK_SIZE (1024 * 1024)

static volatile int live_threads = 1;
static struct __pthread *volatile zombies;

static void free_thread(struct __pthread *t) {
  free(t->stack);
  free(t->area);
}

static void push_zombie(struct __pthread *t) {
  struct __pthread *head;
  do {
    head = PNACL_LOAD(&zombies);
    t->next_zombie = head;
  } while (PNACL_CAS(&zombies, head, t) != head);
}

/* Frees the ended detached threads whose stacks the IRT no longer uses. */
static void reap_zombies(void) {
  struct __pthread *list = PNACL_XCHG(&zombies, (struct __pthread *)0);
  while (list) {
    struct __pthread *next = list->next_zombie;
    if (PNACL_LOAD(&list->stack_in_use) == 0)
      free_thread(list);
    else
      push_zombie(list);
    list = next;
  }
}

static void thread_start(void) {
  struct __pthread *t = __pnacl_irt_tls.tls_get();
  __pnacl_self = t;
  pthread_exit(t->start(t->arg));
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
  const struct pnacl_irt_thread *irt = __pnacl_irt_thread();
  if (!irt || !__pnacl_irt_futex())
    return EAGAIN;
  reap_zombies();
  void *area;
  struct __pthread *t = __pnacl_tls_new(sizeof(struct __pthread), &area);
  if (!t)
    return EAGAIN;
  size_t stack_size = attr && attr->__stacksize ? attr->__stacksize : DEFAULT_STACK_SIZE;
  t->area = area;
  t->start = start;
  t->arg = arg;
  t->detached = attr && attr->__detached ? DETACHED : JOINABLE;
  t->stack = malloc(stack_size);
  t->reent = malloc(sizeof(struct _reent));
  if (!t->stack || !t->reent) {
    free(t->reent);
    free_thread(t);
    return EAGAIN;
  }
  _REENT_INIT_PTR(t->reent);
  t->stack_in_use = 1;
  *thread = t;
  PNACL_STORE(&__pnacl_threads_started, 1);
  PNACL_ADD(&live_threads, 1);
  void *top = (void *)(((uintptr_t)t->stack + stack_size) & ~(uintptr_t)15);
  int err = irt->thread_create(thread_start, top, t);
  if (err) {
    PNACL_ADD(&live_threads, -1);
    free(t->reent);
    free_thread(t);
    return __pnacl_errno(err);
  }
  return 0;
}

void pthread_exit(void *result) {
  struct __pthread *t = __pnacl_self;
  __pnacl_run_key_destructors(t);
  if (t == __pnacl_main_thread) {
    /* The process goes on until the last thread ends, then exits with status 0. */
    int n;
    while ((n = PNACL_LOAD(&live_threads)) > 1)
      __pnacl_futex_wait(&live_threads, n, 0);
    exit(0);
  }
  struct _reent *r = t->reent;
  t->reent = 0;
  _reclaim_reent(r);
  free(r);
  t->result = result;
  if (PNACL_CAS(&t->detached, JOINABLE, EXITED) != JOINABLE)
    push_zombie(t); /* detached */
  else
    __pnacl_futex_wake(&t->detached, INT_MAX);
  if (PNACL_ADD(&live_threads, -1) == 1)
    __pnacl_futex_wake(&live_threads, INT_MAX);
  __pnacl_irt_thread()->thread_exit((int32_t *)&t->stack_in_use);
  __builtin_trap();
}

int pthread_join(pthread_t t, void **result) {
  if (t == __pnacl_self)
    return EDEADLK;
  int state;
  while ((state = PNACL_LOAD(&t->detached)) == JOINABLE)
    __pnacl_futex_wait(&t->detached, JOINABLE, 0);
  if (state != EXITED)
    return EINVAL;
  while (PNACL_LOAD(&t->stack_in_use))
    sched_yield();
  if (result)
    *result = t->result;
  free_thread(t);
  return 0;
}

int pthread_detach(pthread_t t) {
  int state = PNACL_CAS(&t->detached, JOINABLE, DETACHED);
  if (state == JOINABLE)
    return 0;
  if (state == EXITED) {
    push_zombie(t);
    return 0;
  }
  return EINVAL;
}

pthread_t pthread_self(void) { return __pnacl_self; }
int pthread_equal(pthread_t a, pthread_t b) { return a == b; }
int pthread_yield(void) { return sched_yield(); }

int pthread_attr_init(pthread_attr_t *attr) {
  attr->__detached = PTHREAD_CREATE_JOINABLE;
  attr->__stacksize = DEFAULT_STACK_SIZE;
  return 0;
}

int pthread_attr_destroy(pthread_attr_t *attr) {
  (void)attr;
  return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *attr, int state) {
  if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED)
    return EINVAL;
  attr->__detached = state;
  return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state) {
  *state = attr->__detached;
  return 0;
}

int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size) {
  if (size < PTHREAD_STACK_MIN)
    return EINVAL;
  attr->__stacksize = size;
  return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size) {
  *size = attr->__stacksize;
  return 0;
}

int pthread_attr_setscope(pthread_attr_t *attr, int scope) {
  (void)attr;
  return scope == PTHREAD_SCOPE_SYSTEM ? 0 : ENOTSUP;
}

int pthread_attr_getscope(const pthread_attr_t *attr, int *scope) {
  (void)attr;
  *scope = PTHREAD_SCOPE_SYSTEM;
  return 0;
}

/* Threads cannot be cancelled: the state can be set, and nothing else happens. */
int pthread_setcancelstate(int state, int *old) {
  if (old)
    *old = PTHREAD_CANCEL_ENABLE;
  return state == PTHREAD_CANCEL_ENABLE || state == PTHREAD_CANCEL_DISABLE ? 0 : EINVAL;
}

int pthread_setcanceltype(int type, int *old) {
  if (old)
    *old = PTHREAD_CANCEL_DEFERRED;
  return type == PTHREAD_CANCEL_DEFERRED || type == PTHREAD_CANCEL_ASYNCHRONOUS ? 0 : EINVAL;
}
