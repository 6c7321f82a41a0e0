/* t_misc.c: rand against glibc's generator, the clocks against the host's, and the
 * calendar conversions against glibc's gmtime_r and timegm. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pnl.h"

int test_misc(long n) {
  long checks = 0, bad = 0;
  /* The unseeded sequence first, then seeded ones. */
  for (int i = 0; i < 100; i++, checks++)
    if (pnl_rand() != rand())
      bad += report_failure("rand", "unseeded value %d differs", i);
  static const unsigned seeds[] = {0, 1, 2, 42, 12345, 0x7fffffff, 0x80000000u, 0xffffffffu};
  for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
    pnl_srand(seeds[s]);
    srand(seeds[s]);
    for (int i = 0; i < 1000; i++, checks++)
      if (pnl_rand() != rand()) {
        bad += report_failure("rand", "seed %u value %d differs", seeds[s], i);
        break;
      }
  }
  time_t now = time(NULL), mine = pnl_time(NULL);
  checks++;
  if (mine < now - 2 || mine > now + 2)
    bad += report_failure("time", "time() = %lld, host %lld", (long long)mine, (long long)now);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  checks++;
  if (pnl_clock_gettime(CLOCK_MONOTONIC, &b) != 0 || b.tv_sec < a.tv_sec || b.tv_sec > a.tv_sec + 2)
    bad += report_failure("clock_gettime", "monotonic clock %lld.%09ld, host %lld.%09ld",
                          (long long)b.tv_sec, b.tv_nsec, (long long)a.tv_sec, a.tv_nsec);
  for (long i = 0; i < n; i++) {
    time_t t = (time_t)(rng_next() % 200000000000ull) - 100000000000ll;
    if (i < 4)
      t = (time_t[]){0, -1, 951782400, 4107542400}[i];
    struct tm want, got;
    memset(&got, 0x55, sizeof got);
    gmtime_r(&t, &want);
    pnl_gmtime_r(&t, &got);
    checks++;
    if (want.tm_year != got.tm_year || want.tm_mon != got.tm_mon || want.tm_mday != got.tm_mday ||
        want.tm_hour != got.tm_hour || want.tm_min != got.tm_min || want.tm_sec != got.tm_sec ||
        want.tm_wday != got.tm_wday || want.tm_yday != got.tm_yday) {
      bad += report_failure("gmtime", "%lld: glibc %d-%d-%d %d:%d:%d wday %d yday %d, pnacl "
                            "%d-%d-%d %d:%d:%d wday %d yday %d",
                            (long long)t, want.tm_year, want.tm_mon, want.tm_mday, want.tm_hour,
                            want.tm_min, want.tm_sec, want.tm_wday, want.tm_yday, got.tm_year,
                            got.tm_mon, got.tm_mday, got.tm_hour, got.tm_min, got.tm_sec,
                            got.tm_wday, got.tm_yday);
    }
    /* mktime is UTC here: it must invert gmtime, also from denormalised fields. */
    got.tm_mon += (int)rng_below(30) - 15;
    got.tm_mday += (int)rng_below(100) - 50;
    struct tm copy = got;
    time_t back = pnl_mktime(&got);
    checks++;
    if (back != timegm(&copy))
      bad += report_failure("mktime", "%lld: pnacl %lld, timegm %lld", (long long)t,
                            (long long)back, (long long)timegm(&copy));
  }
  printf("misc: %ld checks, %ld failures\n", checks, bad);
  return bad != 0;
}
