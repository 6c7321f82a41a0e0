/* time.c: clocks over the IRT. clock_gettime uses nacl-irt-clock_get-0.1 (queried once, on
 * first use); time and gettimeofday use basic's gettod, as newlib does. Calendar
 * conversions are UTC only. */
#include <errno.h>
#include <sys/time.h>
#include <time.h>
#include "internal.h"

#ifdef __le32__
/* The NaCl ABI layouts: i64 seconds at 0, a 32-bit field at 8, 16 bytes in all. */
_Static_assert(sizeof(struct timespec) == 16 && __builtin_offsetof(struct timespec, tv_nsec) == 8,
               "struct timespec is nacl_abi_timespec");
_Static_assert(sizeof(struct timeval) == 16 && __builtin_offsetof(struct timeval, tv_usec) == 8,
               "struct timeval is nacl_abi_timeval");
#endif

static struct pnacl_irt_clock clock_table;
static int clock_state; /* 0: not queried yet, 1: present, -1: absent */

const struct pnacl_irt_clock *__pnacl_irt_clock(void) {
  if (clock_state == 0)
    clock_state =
        __pnacl_irt_query_table(PNACL_IRT_CLOCK, &clock_table, sizeof clock_table) ? 1 : -1;
  return clock_state > 0 ? &clock_table : 0;
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  int err = __pnacl_irt_basic.gettod(tv);
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

int clock_gettime(clockid_t id, struct timespec *tp) {
  const struct pnacl_irt_clock *c = __pnacl_irt_clock();
  int err;
  if (c) {
    err = c->clock_gettime(id, tp);
  } else if (id == CLOCK_REALTIME) {
    struct timeval tv;
    err = __pnacl_irt_basic.gettod(&tv);
    if (!err) {
      tp->tv_sec = tv.tv_sec;
      tp->tv_nsec = tv.tv_usec * 1000;
    }
  } else {
    err = ENOSYS;
  }
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

int clock_getres(clockid_t id, struct timespec *res) {
  const struct pnacl_irt_clock *c = __pnacl_irt_clock();
  int err = c ? c->clock_getres(id, res) : ENOSYS;
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

time_t time(time_t *t) {
  struct timeval tv;
  time_t now = gettimeofday(&tv, 0) ? (time_t)-1 : tv.tv_sec;
  if (t)
    *t = now;
  return now;
}

clock_t clock(void) {
  long ticks;
  if (__pnacl_irt_basic.clock(&ticks) != 0)
    return (clock_t)-1;
  return ticks;
}

double difftime(time_t end, time_t start) { return (double)(end - start); }

/* Days since 1970-01-01 to a civil date, and back (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct tm *gmtime_r(const time_t *t, struct tm *out) {
  int64_t secs = *t;
  int64_t days = secs / 86400;
  int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    days--;
  }
  out->tm_hour = (int)(rem / 3600);
  out->tm_min = (int)(rem / 60 % 60);
  out->tm_sec = (int)(rem % 60);
  out->tm_wday = (int)((days % 7 + 11) % 7); /* 1970-01-01 was a Thursday */
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int d = (int)(doy - (153 * mp + 2) / 5 + 1);
  int m = (int)(mp < 10 ? mp + 3 : mp - 9);
  int64_t y = yoe + era * 400 + (m <= 2);
  out->tm_year = (int)(y - 1900);
  out->tm_mon = m - 1;
  out->tm_mday = d;
  out->tm_yday = (int)(days - days_from_civil(y, 1, 1));
  out->tm_isdst = 0;
  return out;
}

struct tm *gmtime(const time_t *t) {
  static struct tm tm;
  return gmtime_r(t, &tm);
}

struct tm *localtime(const time_t *t) { return gmtime(t); }

time_t mktime(struct tm *tm) {
  int64_t mon = tm->tm_mon;
  int64_t year = tm->tm_year + 1900 + mon / 12;
  mon %= 12;
  if (mon < 0) {
    mon += 12;
    year--;
  }
  int64_t days = days_from_civil(year, (int)mon + 1, 1) + tm->tm_mday - 1;
  time_t t = days * 86400 + (int64_t)tm->tm_hour * 3600 + (int64_t)tm->tm_min * 60 + tm->tm_sec;
  gmtime_r(&t, tm);
  return t;
}
