/* pnacl: newlib's sys/features.h, then the POSIX options pnacl's platform layer
 * implements over the IRT (newlib states them only for the systems it ships ports of),
 * so that <time.h> declares clock_gettime and CLOCK_MONOTONIC, <sched.h> sched_yield,
 * and so on. */
#ifndef _PNACL_SYS_FEATURES_H
#define _PNACL_SYS_FEATURES_H
#include_next <sys/features.h>
#define _POSIX_TIMERS 200809L
#define _POSIX_MONOTONIC_CLOCK 200809L
#define _POSIX_CPUTIME 200809L
#define _POSIX_THREAD_CPUTIME 200809L
#define _POSIX_THREADS 200809L
#define _POSIX_TIMEOUTS 200809L
#define _POSIX_THREAD_SAFE_FUNCTIONS 200809L
#define _POSIX_MAPPED_FILES 200809L
#define _POSIX_FSYNC 200809L
#endif
