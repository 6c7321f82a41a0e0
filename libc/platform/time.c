/* time.c: clocks and sleeping over the IRT. gettimeofday (and so time) use basic's
 * gettod, as NaCl's newlib did; clock_gettime and clock_getres the clock_get
 * interface, whose clock ids are NaCl's (newlib numbers its clocks differently);
 * times (and so clock) the process's CPU time from the IRT's clock. */
#include <errno.h>
#include <sched.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include "internal.h"

#define NACL_ENOSYS 38

#ifdef __le32__
/* newlib's layouts of these are NaCl's: i64 seconds at 0, a 32-bit field at 8, 16 bytes. */
_Static_assert(sizeof(struct timespec) == 16 && __builtin_offsetof(struct timespec, tv_nsec) == 8,
               "struct timespec is nacl_abi_timespec");
_Static_assert(sizeof(struct timeval) == 16 && __builtin_offsetof(struct timeval, tv_usec) == 8,
               "struct timeval is nacl_abi_timeval");
#endif

int _gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  struct timeval now;
  int err = __pnacl_irt_basic.gettod(&now);
  if (err)
    return __pnacl_fail(err);
  if (tv)
    *tv = now;
  return 0;
}

/* newlib's clock id to NaCl's (CLOCK_REALTIME 0, MONOTONIC 1, PROCESS 2, THREAD 3). */
static int nacl_clock(clockid_t id) {
  switch (id) {
  case CLOCK_REALTIME: return 0;
  case CLOCK_MONOTONIC: return 1;
  case CLOCK_PROCESS_CPUTIME_ID: return 2;
  case CLOCK_THREAD_CPUTIME_ID: return 3;
  default: return -1;
  }
}

int clock_gettime(clockid_t id, struct timespec *tp) {
  const struct pnacl_irt_clock *t = __pnacl_irt_clock();
  int nacl = nacl_clock(id);
  if (nacl < 0) {
    errno = EINVAL;
    return -1;
  }
  if (!t) {
    if (nacl != 0)
      return __pnacl_fail(NACL_ENOSYS);
    struct timeval tv;
    if (_gettimeofday(&tv, 0) != 0)
      return -1;
    tp->tv_sec = tv.tv_sec;
    tp->tv_nsec = tv.tv_usec * 1000;
    return 0;
  }
  int err = t->clock_gettime(nacl, tp);
  return err ? __pnacl_fail(err) : 0;
}

int clock_getres(clockid_t id, struct timespec *res) {
  const struct pnacl_irt_clock *t = __pnacl_irt_clock();
  int nacl = nacl_clock(id);
  if (nacl < 0) {
    errno = EINVAL;
    return -1;
  }
  if (!t)
    return __pnacl_fail(NACL_ENOSYS);
  int err = t->clock_getres(nacl, res);
  return err ? __pnacl_fail(err) : 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem) {
  int err = __pnacl_irt_basic.nanosleep(req, rem);
  return err ? __pnacl_fail(err) : 0;
}

int sched_yield(void) {
  __pnacl_irt_basic.sched_yield();
  return 0;
}

/* times(): the process's CPU time as user time, in CLOCKS_PER_SEC ticks (clock() is
 * tms_utime + tms_stime in newlib), and the real time elapsed, in the same ticks. */
clock_t _times(struct tms *buf) {
  uint32_t micros = 0;
  int err = __pnacl_irt_basic.clock(&micros);
  if (err)
    return (clock_t)__pnacl_fail(err);
  buf->tms_utime = (clock_t)(micros / (1000000 / CLOCKS_PER_SEC));
  buf->tms_stime = 0;
  buf->tms_cutime = 0;
  buf->tms_cstime = 0;
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
    return buf->tms_utime;
  return (clock_t)(now.tv_sec * CLOCKS_PER_SEC + now.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
