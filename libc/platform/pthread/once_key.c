/* once_key.c: pthread_once on a futex word (0 not run, 1 running, 2 done), and
 * thread-specific data: a table of keys, each thread's values in its descriptor. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include "../internal.h"
#include "../thread.h"

int pthread_once(pthread_once_t *once, void (*init)(void)) {
  if (PNACL_LOAD(once) == 2)
    return 0;
  if (PNACL_CAS(once, 0, 1) == 0) {
    init();
    PNACL_STORE(once, 2);
    __pnacl_futex_wake(once, INT_MAX);
    return 0;
  }
  while (PNACL_LOAD(once) == 1)
    __pnacl_futex_wait(once, 1, 0);
  return 0;
}

static struct {
  volatile int in_use;
  void (*destructor)(void *);
} keys[PTHREAD_KEYS_MAX];

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
  for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
    if (PNACL_CAS(&keys[k].in_use, 0, 1) == 0) {
      keys[k].destructor = destructor;
      *key = k;
      return 0;
    }
  }
  return EAGAIN;
}

int pthread_key_delete(pthread_key_t key) {
  if (key >= PTHREAD_KEYS_MAX || !keys[key].in_use)
    return EINVAL;
  keys[key].destructor = 0;
  PNACL_STORE(&keys[key].in_use, 0);
  return 0;
}

void *pthread_getspecific(pthread_key_t key) {
  return key < PTHREAD_KEYS_MAX ? (void *)__pnacl_self->values[key] : 0;
}

int pthread_setspecific(pthread_key_t key, const void *value) {
  if (key >= PTHREAD_KEYS_MAX || !keys[key].in_use)
    return EINVAL;
  __pnacl_self->values[key] = value;
  return 0;
}

void __pnacl_run_key_destructors(struct __pthread *t) {
  for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
    int again = 0;
    for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
      void *v = (void *)t->values[k];
      void (*d)(void *) = keys[k].destructor;
      if (v && d && keys[k].in_use) {
        t->values[k] = 0;
        d(v);
        again = 1;
      }
    }
    if (!again)
      return;
  }
}
