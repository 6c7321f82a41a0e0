/* strtol.c: strtol, strtoul, strtoll, strtoull, strtoimax, strtoumax, atoi, atol, atoll.
 * One scanner accumulates the magnitude in unsigned long long; each wrapper clamps it to
 * its type and sets ERANGE as C requires. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

struct scan {
  unsigned long long magnitude;
  int negative;
  int overflow; /* the magnitude exceeded ULLONG_MAX */
};

static int digit_value(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c |= 32;
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  return 99;
}

static struct scan scan_integer(const char *s, char **end, int base) {
  struct scan r = {0, 0, 0};
  const char *p = s;
  if (end)
    *end = (char *)s;
  if (base < 0 || base == 1 || base > 36) {
    errno = EINVAL;
    return r;
  }
  while (isspace((unsigned char)*p))
    p++;
  if (*p == '+' || *p == '-')
    r.negative = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 32) == 'x' &&
      digit_value((unsigned char)p[2]) < 16) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = p[0] == '0' ? 8 : 10;
  }
  const char *digits = p;
  unsigned long long limit = ULLONG_MAX / (unsigned)base;
  for (int d; (d = digit_value((unsigned char)*p)) < base; p++) {
    if (r.magnitude > limit || r.magnitude * (unsigned)base > ULLONG_MAX - (unsigned)d)
      r.overflow = 1;
    else
      r.magnitude = r.magnitude * (unsigned)base + (unsigned)d;
  }
  if (p == digits)
    return (struct scan){0, 0, 0};
  if (end)
    *end = (char *)p;
  return r;
}

/* Clamps a scan to a signed type whose maximum is `max`. */
static long long to_signed(struct scan r, long long max) {
  unsigned long long umax = (unsigned long long)max;
  if (r.negative) {
    if (r.overflow || r.magnitude > umax + 1) {
      errno = ERANGE;
      return -max - 1;
    }
    return r.magnitude == umax + 1 ? -max - 1 : -(long long)r.magnitude;
  }
  if (r.overflow || r.magnitude > umax) {
    errno = ERANGE;
    return max;
  }
  return (long long)r.magnitude;
}

/* Clamps a scan to an unsigned type whose maximum is `max`; a minus sign negates in it. */
static unsigned long long to_unsigned(struct scan r, unsigned long long max) {
  if (r.overflow || r.magnitude > max) {
    errno = ERANGE;
    return max;
  }
  return r.negative ? (0 - r.magnitude) & max : r.magnitude;
}

long strtol(const char *__restrict s, char **__restrict end, int base) {
  return (long)to_signed(scan_integer(s, end, base), LONG_MAX);
}

unsigned long strtoul(const char *__restrict s, char **__restrict end, int base) {
  return (unsigned long)to_unsigned(scan_integer(s, end, base), ULONG_MAX);
}

long long strtoll(const char *__restrict s, char **__restrict end, int base) {
  return to_signed(scan_integer(s, end, base), LLONG_MAX);
}

unsigned long long strtoull(const char *__restrict s, char **__restrict end, int base) {
  return to_unsigned(scan_integer(s, end, base), ULLONG_MAX);
}

intmax_t strtoimax(const char *__restrict s, char **__restrict end, int base) {
  return strtoll(s, end, base);
}

uintmax_t strtoumax(const char *__restrict s, char **__restrict end, int base) {
  return strtoull(s, end, base);
}

int atoi(const char *s) { return (int)strtol(s, 0, 10); }
long atol(const char *s) { return strtol(s, 0, 10); }
long long atoll(const char *s) { return strtoll(s, 0, 10); }
