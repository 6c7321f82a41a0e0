/* pnacl: le32's floating point, before newlib's machine/ieeefp.h, which knows no le32
 * (it would stop at "Endianess not declared"). PNaCl is little-endian IEEE 754.
 * __OBSOLETE_MATH_DEFAULT 0 selects newlib's current exp, exp2, log, log2, pow and
 * their float versions (Szabolcs Nagy's, which glibc also uses) instead of the old
 * fdlibm ones, as the aarch64 and arm ports do. */
#ifndef __IEEE_LITTLE_ENDIAN
#define __IEEE_LITTLE_ENDIAN
#endif
#ifndef __OBSOLETE_MATH_DEFAULT
#define __OBSOLETE_MATH_DEFAULT 0
#endif
#include_next <machine/ieeefp.h>
