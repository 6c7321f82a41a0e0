/* complex.c: the helpers clang calls for the product and quotient of complex numbers
 * (compiler-rt's, which the PNaCl SDK linked too), as C11 Annex G specifies them: the
 * plain formulas, with infinities and NaNs recovered where the formulas lose them. */
#include <math.h>

#define MUL(name, T, suffix)                                                                \
  T _Complex name(T a, T b, T c, T d) {                                                     \
    T ac = a * c, bd = b * d, ad = a * d, bc = b * c;                                       \
    T x = ac - bd, y = ad + bc;                                                             \
    if (isnan(x) && isnan(y)) {                                                             \
      int recalc = 0;                                                                       \
      if (isinf(a) || isinf(b)) {                                                           \
        a = copysign##suffix(isinf(a) ? 1 : 0, a);                                          \
        b = copysign##suffix(isinf(b) ? 1 : 0, b);                                          \
        if (isnan(c)) c = copysign##suffix(0, c);                                           \
        if (isnan(d)) d = copysign##suffix(0, d);                                           \
        recalc = 1;                                                                         \
      }                                                                                     \
      if (isinf(c) || isinf(d)) {                                                           \
        c = copysign##suffix(isinf(c) ? 1 : 0, c);                                          \
        d = copysign##suffix(isinf(d) ? 1 : 0, d);                                          \
        if (isnan(a)) a = copysign##suffix(0, a);                                           \
        if (isnan(b)) b = copysign##suffix(0, b);                                           \
        recalc = 1;                                                                         \
      }                                                                                     \
      if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {                  \
        if (isnan(a)) a = copysign##suffix(0, a);                                           \
        if (isnan(b)) b = copysign##suffix(0, b);                                           \
        if (isnan(c)) c = copysign##suffix(0, c);                                           \
        if (isnan(d)) d = copysign##suffix(0, d);                                           \
        recalc = 1;                                                                         \
      }                                                                                     \
      if (recalc) {                                                                         \
        x = INFINITY * (a * c - b * d);                                                     \
        y = INFINITY * (a * d + b * c);                                                     \
      }                                                                                     \
    }                                                                                       \
    T _Complex z;                                                                           \
    __real__ z = x;                                                                         \
    __imag__ z = y;                                                                         \
    return z;                                                                               \
  }

#define DIV(name, T, suffix)                                                                \
  T _Complex name(T a, T b, T c, T d) {                                                     \
    int ilogbw = 0;                                                                         \
    T logbw = logb##suffix(fmax##suffix(fabs##suffix(c), fabs##suffix(d)));                 \
    if (isfinite(logbw)) {                                                                  \
      ilogbw = (int)logbw;                                                                  \
      c = scalbn##suffix(c, -ilogbw);                                                       \
      d = scalbn##suffix(d, -ilogbw);                                                       \
    }                                                                                       \
    T denom = c * c + d * d;                                                                \
    T x = scalbn##suffix((a * c + b * d) / denom, -ilogbw);                                 \
    T y = scalbn##suffix((b * c - a * d) / denom, -ilogbw);                                 \
    if (isnan(x) && isnan(y)) {                                                             \
      if (denom == 0 && (!isnan(a) || !isnan(b))) {                                         \
        x = copysign##suffix(INFINITY, c) * a;                                              \
        y = copysign##suffix(INFINITY, c) * b;                                              \
      } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {                    \
        a = copysign##suffix(isinf(a) ? 1 : 0, a);                                          \
        b = copysign##suffix(isinf(b) ? 1 : 0, b);                                          \
        x = INFINITY * (a * c + b * d);                                                     \
        y = INFINITY * (b * c - a * d);                                                     \
      } else if (isinf(logbw) && logbw > 0 && isfinite(a) && isfinite(b)) {                 \
        c = copysign##suffix(isinf(c) ? 1 : 0, c);                                          \
        d = copysign##suffix(isinf(d) ? 1 : 0, d);                                          \
        x = 0 * (a * c + b * d);                                                            \
        y = 0 * (b * c - a * d);                                                            \
      }                                                                                     \
    }                                                                                       \
    T _Complex z;                                                                           \
    __real__ z = x;                                                                         \
    __imag__ z = y;                                                                         \
    return z;                                                                               \
  }

MUL(__muldc3, double, )
MUL(__mulsc3, float, f)
DIV(__divdc3, double, )
DIV(__divsc3, float, f)
