/* cond.c: condition variables on a sequence number: a waiter notes it, unlocks the
 * mutex and sleeps on the futex while the number is unchanged; signal and broadcast bump
 * it and wake one or all. Deadlines are CLOCK_REALTIME for the IRT's futex; a condition
 * set to CLOCK_MONOTONIC has its deadline moved onto the real-time clock. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <time.h>
#include "../internal.h"

int pthread_condattr_init(pthread_condattr_t *attr) {
  attr->__clock = CLOCK_REALTIME;
  return 0;
}

int pthread_condattr_destroy(pthread_condattr_t *attr) {
  (void)attr;
  return 0;
}

int pthread_condattr_setclock(pthread_condattr_t *attr, clockid_t clock) {
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
    return EINVAL;
  attr->__clock = clock;
  return 0;
}

int pthread_condattr_getclock(const pthread_condattr_t *attr, clockid_t *clock) {
  *clock = attr->__clock;
  return 0;
}

int pthread_condattr_setpshared(pthread_condattr_t *attr, int pshared) {
  (void)attr;
  return pshared == PTHREAD_PROCESS_PRIVATE ? 0 : ENOTSUP;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr) {
  c->__sequence = 0;
  c->__clock = attr ? attr->__clock : CLOCK_REALTIME;
  return 0;
}

int pthread_cond_destroy(pthread_cond_t *c) {
  (void)c;
  return 0;
}

int pthread_cond_signal(pthread_cond_t *c) {
  PNACL_ADD(&c->__sequence, 1);
  __pnacl_futex_wake(&c->__sequence, 1);
  return 0;
}

int pthread_cond_broadcast(pthread_cond_t *c) {
  PNACL_ADD(&c->__sequence, 1);
  __pnacl_futex_wake(&c->__sequence, INT_MAX);
  return 0;
}

/* `abstime` on `clock`, as a CLOCK_REALTIME deadline. */
static void realtime_deadline(clockid_t clock, const struct timespec *abstime,
                              struct timespec *out) {
  *out = *abstime;
  if (clock != CLOCK_MONOTONIC)
    return;
  struct timespec mono, real;
  clock_gettime(CLOCK_MONOTONIC, &mono);
  clock_gettime(CLOCK_REALTIME, &real);
  long long ns = (abstime->tv_sec - mono.tv_sec) * 1000000000LL + (abstime->tv_nsec - mono.tv_nsec);
  ns += real.tv_sec * 1000000000LL + real.tv_nsec;
  out->tv_sec = ns / 1000000000LL;
  out->tv_nsec = (long)(ns % 1000000000LL);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime) {
  if (abstime && (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000))
    return EINVAL;
  int seq = PNACL_LOAD(&c->__sequence);
  int err = pthread_mutex_unlock(m);
  if (err)
    return err;
  struct timespec deadline;
  if (abstime)
    realtime_deadline(c->__clock, abstime, &deadline);
  int waited = __pnacl_futex_wait(&c->__sequence, seq, abstime ? &deadline : 0);
  pthread_mutex_lock(m);
  return waited == ETIMEDOUT ? ETIMEDOUT : 0;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  return pthread_cond_timedwait(c, m, 0);
}
