/* sqrt.c: square roots through llvm.sqrt, which the PNaCl ABI has (an exact IEEE square
 * root, one instruction where the translator runs). newlib has a hardware sqrt for some
 * machines only; for others, le32 among them, its fdlibm sqrt computes the root bit by
 * bit, about 25 times slower in nbody. As newlib's wrappers do, a negative argument sets
 * errno to EDOM. */
#include <errno.h>
#include <math.h>

double __ieee754_sqrt(double x) { return __builtin_sqrt(x); }
float __ieee754_sqrtf(float x) { return __builtin_sqrtf(x); }

double sqrt(double x) {
  if (x < 0)
    errno = EDOM;
  return __builtin_sqrt(x);
}

float sqrtf(float x) {
  if (x < 0)
    errno = EDOM;
  return __builtin_sqrtf(x);
}
