/* internal_math.h: what the math files share. */
#ifndef _PNACL_SRC_MATH_INTERNAL_H
#define _PNACL_SRC_MATH_INTERNAL_H

#include "dd.h"

/* log(x) for finite x > 0, relative error below 2^-64 (log.c). */
dd_t __pnacl_log_dd(double x);
/* exp(x.hi + x.lo), correctly scaled, over- and underflowing as exp does (exp.c). */
double __pnacl_exp_dd(dd_t x);
/* x reduced by the nearest multiple n of pi/2: returns n mod 4 and r = x - n*pi/2
 * (|r| <= pi/4 or a hair more) as a double-double (rem_pio2.c). */
int __pnacl_rem_pio2(double x, dd_t *r);
/* atan(num/den) for num, den >= 0 (not both zero), in [0, pi/2] (atan.c). */
dd_t __pnacl_atan_ratio(dd_t num, dd_t den);

#endif
