/* time.h: pnacl libc. time_t is 64-bit; struct timespec is the NaCl ABI layout
 * (i64 seconds, then a 32-bit long of nanoseconds on le32). */
#ifndef _PNACL_TIME_H
#define _PNACL_TIME_H

#include <sys/types.h>

#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define TIME_UTC 1

struct timespec {
  time_t tv_sec;
  long tv_nsec;
};

struct tm {
  int tm_sec;
  int tm_min;
  int tm_hour;
  int tm_mday;
  int tm_mon;
  int tm_year;
  int tm_wday;
  int tm_yday;
  int tm_isdst;
};

time_t time(time_t *t);
clock_t clock(void);
double difftime(time_t end, time_t start);
int clock_gettime(clockid_t id, struct timespec *tp);
int clock_getres(clockid_t id, struct timespec *res);
int nanosleep(const struct timespec *req, struct timespec *rem);
struct tm *gmtime(const time_t *t);
struct tm *gmtime_r(const time_t *t, struct tm *out);
struct tm *localtime(const time_t *t);
time_t mktime(struct tm *tm);

#endif
