/* alloca.h: pnacl libc. Stack allocation is the compiler's (a PNaCl alloca). */
#ifndef _PNACL_ALLOCA_H
#define _PNACL_ALLOCA_H
#include <stddef.h>
#define alloca(size) __builtin_alloca(size)
#endif
