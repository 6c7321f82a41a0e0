/* pnacl: le32's machine types, in place of newlib's default machine/_types.h. As in
 * NaCl, off_t (and fpos_t, which must match it) is 64-bit: the IRT's seek, mmap and
 * ftruncate take 64-bit offsets. Everything else is newlib's default for ILP32. */
#ifndef _MACHINE__TYPES_H
#define _MACHINE__TYPES_H
#include <machine/_default_types.h>
#define __machine_off_t_defined
typedef __int64_t _off_t;
#define __machine_fpos_t_defined
typedef __int64_t _fpos_t;
#endif
