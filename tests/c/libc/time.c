/* <time.h>, <sys/time.h>, <sys/times.h>: calendar conversions, strftime, a POSIX time
 * zone, and clocks that move forward. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

static void show(const char *what, const struct tm *tm) {
    char buf[256];
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %A %b %B %j %U %W %w %u %y %C %e %I %p %%", tm);
    printf("%s: %s\n", what, buf);
    strftime(buf, sizeof buf, "%D %T %R %F %c | %x | %X | %n%t| %G %g %V %h", tm);
    printf("%s: %s\n", what, buf);
}

int main(void) {
    time_t t = 1234567890;
    struct tm tm;
    gmtime_r(&t, &tm);
    show("gmtime", &tm);
    printf("asctime: %s", asctime(&tm));
    printf("isdst %d yday %d wday %d\n", tm.tm_isdst, tm.tm_yday, tm.tm_wday);
    struct tm back = tm;
    setenv("TZ", "UTC0", 1);
    tzset();
    printf("mktime(UTC): %lld\n", (long long)mktime(&back));
    setenv("TZ", "EST5EDT,M3.2.0,M11.1.0", 1);
    tzset();
    struct tm local;
    localtime_r(&t, &local);
    show("EST5EDT", &local);
    time_t summer = 1246500000; /* July 2009 */
    localtime_r(&summer, &local);
    show("EST5EDT summer", &local);
    printf("tzname %s %s\n", tzname[0], tzname[1]);
    printf("mktime(summer) %lld\n", (long long)mktime(&local));
    struct tm norm = {.tm_year = 100, .tm_mon = 13, .tm_mday = 40, .tm_hour = 25, .tm_isdst = -1};
    time_t n = mktime(&norm);
    printf("normalised: %04d-%02d-%02d %02d:%02d dst %d (%lld)\n", norm.tm_year + 1900, norm.tm_mon + 1,
           norm.tm_mday, norm.tm_hour, norm.tm_min, norm.tm_isdst, (long long)n);
    printf("difftime %.1f\n", difftime(summer, t));
    struct timeval tv;
    int r = gettimeofday(&tv, NULL);
    printf("gettimeofday %d, after 2020: %d\n", r, tv.tv_sec > 1577836800);
    printf("time after 2020: %d\n", time(NULL) > 1577836800);
    struct timespec a, b, res;
    clock_gettime(CLOCK_MONOTONIC, &a);
    volatile double x = 0;
    for (int i = 0; i < 2000000; i++)
        x += i * 0.5;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("monotonic forward: %d\n", b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));

    struct tms tms;
    clock_t c = times(&tms);
    r = clock_getres(CLOCK_REALTIME, &res);
    printf("clock_getres: %d\n", r == 0 && res.tv_sec == 0);
    printf("times: %d, user >= 0: %d\n", c != (clock_t)-1, tms.tms_utime >= 0);
    printf("clock: %d\n", clock() != (clock_t)-1);
    printf("nanosleep: %d\n", nanosleep(&(struct timespec){0, 1000000}, NULL));
    return 0;
}
