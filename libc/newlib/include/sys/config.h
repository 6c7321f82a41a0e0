/* pnacl: newlib's sys/config.h, with each thread's reent (and so errno) found through
 * __getreent(), which pnacl's pthread keeps per thread (libc/platform/reent.c). */
#include_next <sys/config.h>
#ifndef __DYNAMIC_REENT__
#define __DYNAMIC_REENT__
#endif
