/* t_math.c: the math functions against glibc's libm. For each function: random arguments
 * over its whole domain and its hard spots; the distance in ulps from glibc's result (at
 * most 1 for the approximating functions, 0 for the exact ones: floor, fmod, frexp, ...),
 * equal special results (NaN, infinities, signed zeros), and the error in ulps against the
 * 64-bit-significand long double function, reported for both libraries. */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pnl.h"

static int64_t ordered(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return b >> 63 ? -(int64_t)(b & ~(1ull << 63)) - 1 : (int64_t)b;
}

static int32_t ordered_float(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b >> 31 ? -(int32_t)(b & ~(1u << 31)) - 1 : (int32_t)b;
}

static uint64_t ulp_distance(double a, double b) {
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? (uint64_t)-d : (uint64_t)d;
}

/* |x - ref| in units of the last place of ref rounded to a format with `digits`
 * significand bits and smallest normal exponent min_exp (frexp's convention). */
static double ulp_error_in(double x, long double ref, int digits, int min_exp) {
  if (isnan(x) || isinf(x) || isinf((double)ref) || isnan((double)ref))
    return 0;
  int e;
  frexpl(ref, &e);
  if (e < min_exp)
    e = min_exp;
  return (double)(fabsl((long double)x - ref) / ldexpl(1.0L, e - digits));
}

static double ulp_error(double x, long double ref) { return ulp_error_in(x, ref, 53, -1021); }
static double ulp_error_float(double x, long double ref) {
  return ulp_error_in(x, ref, 24, -125);
}

struct stats {
  const char *name;
  long n;
  uint64_t max_diff;
  long diffs;
  double max_err, glibc_max_err;
  int exact;
  int is_float; /* results are floats: distances in float ulps */
  char glibc_worst[96]; /* the arguments of glibc's largest error */
};

static int special_mismatch(double got, double want) {
  if (isnan(want) || isnan(got))
    return isnan(want) != isnan(got);
  if (want == 0 || isinf(want) || got == 0 || isinf(got))
    return ordered(got) != ordered(want);
  return 0;
}

static void record(struct stats *s, double got, double want, long double ref, const char *args) {
  s->n++;
  uint64_t d = ulp_distance(got, want);
  if (s->is_float) {
    int64_t fd = (int64_t)ordered_float((float)got) - ordered_float((float)want);
    d = fd < 0 ? (uint64_t)-fd : (uint64_t)fd;
  }
  if (isnan(got) && isnan(want))
    d = 0;
  if (d > s->max_diff)
    s->max_diff = d;
  if (d)
    s->diffs++;
  double e = s->is_float ? ulp_error_float(got, ref) : ulp_error(got, ref);
  double ge = s->is_float ? ulp_error_float(want, ref) : ulp_error(want, ref);
  if (e > s->max_err)
    s->max_err = e;
  if (ge > s->glibc_max_err) {
    s->glibc_max_err = ge;
    snprintf(s->glibc_worst, sizeof s->glibc_worst, "%s", args);
  }
  /* Within 1 ulp of the long double value, and no more than 1 ulp from glibc unless
   * glibc is the one further from it (glibc's log10 is off by up to 1.5 ulp). */
  int bad = s->exact ? d != 0 : (e > 1.0 || (d > 1 && e > ge));
  if (special_mismatch(got, want) || bad)
    report_failure(s->name, "%s: glibc %a, pnacl %a (%llu ulps)", args, want, got,
                   (unsigned long long)d);
}

static double bits_double(void) {
  uint64_t b = rng_next();
  double d;
  memcpy(&d, &b, 8);
  return d;
}

static double uniform(double lo, double hi) {
  return lo + (hi - lo) * ((double)(rng_next() >> 11) * 0x1p-53);
}

/* A positive double with a random exponent in [lo, hi] and random significand. */
static double random_exp(int lo, int hi) {
  return ldexp(1 + (double)(rng_next() >> 12) * 0x1p-52, lo + (int)rng_below((uint64_t)(hi - lo + 1)));
}

static double signed_random(double x) { return rng_below(2) ? -x : x; }

static const double special_values[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN,
                                        DBL_MIN, DBL_TRUE_MIN, DBL_MAX, 0.5, 2.0, M_PI,
                                        M_PI_2, -M_PI_2, 1e-300, 1e300, 710, 709.78, -745.2,
                                        -745.1, 6381956970095103.0 * 0x1p797};

static double pick_special(void) {
  return special_values[rng_below(sizeof special_values / sizeof special_values[0])];
}

static double arg_exp(void) {
  switch (rng_below(5)) {
  case 0: return pick_special();
  case 1: return uniform(-745.2, 709.8);
  case 2: return signed_random(random_exp(-60, 0));
  case 3: return uniform(-30, 30);
  default: return signed_random(random_exp(-1074, 10));
  }
}

static double arg_log(void) {
  switch (rng_below(5)) {
  case 0: return pick_special();
  case 1: return 1 + signed_random(random_exp(-60, -1));
  case 2: return fabs(bits_double());
  case 3: return uniform(0, 10);
  default: return random_exp(-1074, 1023);
  }
}

static double arg_trig(void) {
  switch (rng_below(6)) {
  case 0: return pick_special();
  case 1: return uniform(-10, 10);
  case 2: return uniform(-1e6, 1e6);
  case 3: { /* next to a multiple of pi/2 */
    double k = (double)rng_below(1u << 22);
    double x = k * M_PI_2;
    for (uint64_t i = rng_below(4); i > 0; i--)
      x = nextafter(x, rng_below(2) ? INFINITY : 0);
    return x;
  }
  case 4: return signed_random(random_exp(-30, 1023));
  default: return bits_double();
  }
}

static double arg_unit(void) {
  switch (rng_below(4)) {
  case 0: return pick_special();
  case 1: return uniform(-1, 1);
  case 2: return signed_random(1 - random_exp(-55, -2));
  default: return signed_random(random_exp(-1074, -1));
  }
}

static char args_buf[128];
#define ARGS1(x) (snprintf(args_buf, sizeof args_buf, "%a", x), args_buf)
#define ARGS2(x, y) (snprintf(args_buf, sizeof args_buf, "%a, %a", x, y), args_buf)

static void print_stats(const struct stats *s) {
  printf("  %-9s %8ld cases  max %llu ulp from glibc (%ld differ)  max error %.3f ulp (glibc %.3f%s%s)\n",
         s->name, s->n, (unsigned long long)s->max_diff, s->diffs, s->max_err, s->glibc_max_err,
         s->glibc_max_err > 1 ? " at " : "", s->glibc_max_err > 1 ? s->glibc_worst : "");
}

#define APPROX(name) {name, 0, 0, 0, 0, 0, 0, 0, ""}
#define EXACT(name) {name, 0, 0, 0, 0, 0, 1, 0, ""}
#define FLOAT(name) {name, 0, 0, 0, 0, 0, 0, 1, ""}

int test_math(long n) {
  struct stats st[] = {
      APPROX("exp"),   APPROX("exp2"),  APPROX("log"),
      APPROX("log10"), APPROX("log2"),  APPROX("pow"),
      APPROX("sin"),   APPROX("cos"),   APPROX("tan"),
      APPROX("atan"),  APPROX("atan2"), APPROX("asin"),
      APPROX("acos"),  APPROX("hypot"), EXACT("sqrt"),
      EXACT("fmod"),  EXACT("floor"), EXACT("ceil"),
      EXACT("trunc"), EXACT("round"), EXACT("rint"),
      EXACT("modf"),  EXACT("frexp"), EXACT("ldexp"),
      EXACT("fabs"),  FLOAT("sinf"),  FLOAT("cosf"),
      FLOAT("expf"),  FLOAT("logf"),  FLOAT("powf"),
  };
  enum { EXP, EXP2, LOG, LOG10, LOG2, POW, SIN, COS, TAN, ATAN, ATAN2, ASIN, ACOS, HYPOT, SQRT,
         FMOD, FLOOR, CEIL, TRUNC, ROUND, RINT, MODF, FREXP, LDEXP, FABS, SINF, COSF, EXPF, LOGF,
         POWF, COUNT };
  for (long i = 0; i < n; i++) {
    double x = arg_exp();
    record(&st[EXP], pnl_exp(x), exp(x), expl(x), ARGS1(x));
    x = x * 1.4426950408889634;
    record(&st[EXP2], pnl_exp2(x), exp2(x), exp2l(x), ARGS1(x));
    x = arg_log();
    record(&st[LOG], pnl_log(x), log(x), logl(x), ARGS1(x));
    record(&st[LOG10], pnl_log10(x), log10(x), log10l(x), ARGS1(x));
    record(&st[LOG2], pnl_log2(x), log2(x), log2l(x), ARGS1(x));
    double y;
    switch (rng_below(5)) {
    case 0: x = pick_special(); y = pick_special(); break;
    case 1: x = signed_random(arg_log()); y = (double)((int)rng_below(41) - 20); break;
    case 2: x = 1 + signed_random(random_exp(-50, -10)); y = signed_random(random_exp(0, 60)); break;
    default:
      x = arg_log();
      y = signed_random(uniform(0, 1)) * 740 / (fabs(log(x)) + 1e-300);
    }
    record(&st[POW], pnl_pow(x, y), pow(x, y), powl(x, y), ARGS2(x, y));
    x = arg_trig();
    record(&st[SIN], pnl_sin(x), sin(x), sinl(x), ARGS1(x));
    record(&st[COS], pnl_cos(x), cos(x), cosl(x), ARGS1(x));
    record(&st[TAN], pnl_tan(x), tan(x), tanl(x), ARGS1(x));
    x = rng_below(2) ? bits_double() : signed_random(random_exp(-40, 40));
    record(&st[ATAN], pnl_atan(x), atan(x), atanl(x), ARGS1(x));
    y = rng_below(3) ? bits_double() : x * uniform(0.5, 2);
    if (rng_below(8) == 0)
      y = pick_special();
    record(&st[ATAN2], pnl_atan2(x, y), atan2(x, y), atan2l(x, y), ARGS2(x, y));
    record(&st[HYPOT], pnl_hypot(x, y), hypot(x, y), hypotl(x, y), ARGS2(x, y));
    double fy = rng_below(2) ? y : x * uniform(0, 1e-5);
    record(&st[FMOD], pnl_fmod(x, fy), fmod(x, fy), fmodl(x, fy), ARGS2(x, fy));
    x = arg_unit();
    record(&st[ASIN], pnl_asin(x), asin(x), asinl(x), ARGS1(x));
    record(&st[ACOS], pnl_acos(x), acos(x), acosl(x), ARGS1(x));
    x = rng_below(2) ? bits_double() : signed_random(random_exp(-10, 60)) + 0.5 * rng_below(2);
    record(&st[SQRT], pnl_sqrt(x), sqrt(x), sqrtl(x), ARGS1(x));
    record(&st[FLOOR], pnl_floor(x), floor(x), floorl(x), ARGS1(x));
    record(&st[CEIL], pnl_ceil(x), ceil(x), ceill(x), ARGS1(x));
    record(&st[TRUNC], pnl_trunc(x), trunc(x), truncl(x), ARGS1(x));
    record(&st[ROUND], pnl_round(x), round(x), roundl(x), ARGS1(x));
    record(&st[RINT], pnl_rint(x), rint(x), rintl(x), ARGS1(x));
    record(&st[FABS], pnl_fabs(x), fabs(x), fabsl(x), ARGS1(x));
    double ip1, ip2;
    double f1 = pnl_modf(x, &ip1), f2 = modf(x, &ip2);
    record(&st[MODF], f1, f2, f2, ARGS1(x));
    record(&st[MODF], ip1, ip2, ip2, ARGS1(x));
    int e1 = 0, e2 = 0;
    f1 = pnl_frexp(x, &e1);
    f2 = frexp(x, &e2);
    record(&st[FREXP], f1, f2, f2, ARGS1(x));
    if (e1 != e2 && isfinite(x))
      report_failure("frexp", "%a: exponent glibc %d, pnacl %d", x, e2, e1);
    int k = (int)rng_below(4400) - 2200;
    record(&st[LDEXP], pnl_ldexp(x, k), ldexp(x, k), ldexpl(x, k), ARGS2(x, (double)k));
    float fx = (float)arg_trig();
    record(&st[SINF], pnl_sinf(fx), sinf(fx), sinl(fx), ARGS1((double)fx));
    record(&st[COSF], pnl_cosf(fx), cosf(fx), cosl(fx), ARGS1((double)fx));
    fx = (float)uniform(-100, 100);
    record(&st[EXPF], pnl_expf(fx), expf(fx), expl(fx), ARGS1((double)fx));
    fx = (float)fabs(arg_log());
    record(&st[LOGF], pnl_logf(fx), logf(fx), logl(fx), ARGS1((double)fx));
    float fy2 = (float)uniform(-30, 30);
    record(&st[POWF], pnl_powf(fx, fy2), powf(fx, fy2), powl(fx, fy2),
           ARGS2((double)fx, (double)fy2));
  }
  printf("math: %ld rounds\n", n);
  for (int i = 0; i < COUNT; i++)
    print_stats(&st[i]);
  return 0;
}
