/* mutex.c: mutexes on one futex word each (Drepper's "Futexes are tricky", mutex 2):
 * 0 unlocked, 1 locked, 2 locked with (perhaps) waiters, so an unlock without waiters
 * makes no IRT call. Recursive and error-checking mutexes keep their owner beside it. */
#include <errno.h>
#include <pthread.h>
#include "../internal.h"

static int lock_word(volatile int *s, const struct timespec *abstime) {
  int c = PNACL_CAS(s, 0, 1);
  if (c == 0)
    return 0;
  if (c != 2)
    c = PNACL_XCHG(s, 2);
  while (c != 0) {
    if (__pnacl_futex_wait(s, 2, abstime) == ETIMEDOUT)
      return ETIMEDOUT;
    c = PNACL_XCHG(s, 2);
  }
  return 0;
}

static void unlock_word(volatile int *s) {
  if (PNACL_ADD(s, -1) != 0) {
    PNACL_STORE(s, 0);
    __pnacl_futex_wake(s, 1);
  }
}

int pthread_mutexattr_init(pthread_mutexattr_t *attr) {
  attr->__type = PTHREAD_MUTEX_DEFAULT;
  return 0;
}

int pthread_mutexattr_destroy(pthread_mutexattr_t *attr) {
  (void)attr;
  return 0;
}

int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type) {
  if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_RECURSIVE &&
      type != PTHREAD_MUTEX_ERRORCHECK)
    return EINVAL;
  attr->__type = type;
  return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *attr, int *type) {
  *type = attr->__type;
  return 0;
}

int pthread_mutexattr_setpshared(pthread_mutexattr_t *attr, int pshared) {
  (void)attr;
  return pshared == PTHREAD_PROCESS_PRIVATE ? 0 : ENOTSUP;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr) {
  *m = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
  if (attr)
    m->__type = attr->__type;
  return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m) { return m->__state ? EBUSY : 0; }

static int lock(pthread_mutex_t *m, const struct timespec *abstime, int try) {
  if (m->__type == PTHREAD_MUTEX_NORMAL) {
    if (try) {
      return PNACL_CAS(&m->__state, 0, 1) == 0 ? 0 : EBUSY;
    }
    return lock_word(&m->__state, abstime);
  }
  void *me = __pnacl_thread_id();
  if (m->__owner == me) {
    if (m->__type != PTHREAD_MUTEX_RECURSIVE)
      return try ? EBUSY : EDEADLK;
    m->__count++;
    return 0;
  }
  if (try) {
    if (PNACL_CAS(&m->__state, 0, 1) != 0)
      return EBUSY;
  } else {
    int err = lock_word(&m->__state, abstime);
    if (err)
      return err;
  }
  m->__owner = me;
  m->__count = 1;
  return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m) { return lock(m, 0, 0); }
int pthread_mutex_trylock(pthread_mutex_t *m) { return lock(m, 0, 1); }
int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
  return lock(m, abstime, 0);
}

int pthread_mutex_unlock(pthread_mutex_t *m) {
  if (m->__type != PTHREAD_MUTEX_NORMAL) {
    if (m->__owner != __pnacl_thread_id())
      return EPERM;
    if (--m->__count > 0)
      return 0;
    m->__owner = 0;
  }
  unlock_word(&m->__state);
  return 0;
}
