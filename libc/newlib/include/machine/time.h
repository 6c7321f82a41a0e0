/* pnacl: CLOCKS_PER_SEC is 1000000, as XSI requires and as NaCl's newlib and glibc have
 * it (newlib's default is 1000); clock() counts the IRT's microseconds of CPU time. */
#ifndef _PNACL_MACHINE_TIME_H
#define _PNACL_MACHINE_TIME_H
#define _CLOCKS_PER_SEC_ 1000000
#include_next <machine/time.h>
#endif
