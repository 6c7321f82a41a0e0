/* sys/time.h: pnacl libc. struct timeval is the NaCl ABI layout. */
#ifndef _PNACL_SYS_TIME_H
#define _PNACL_SYS_TIME_H

#include <sys/types.h>

struct timeval {
  time_t tv_sec;
  suseconds_t tv_usec;
};

int gettimeofday(struct timeval *tv, void *tz);

#endif
