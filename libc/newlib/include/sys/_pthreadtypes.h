/* pnacl: the pthread types of pnacl's pthread (libc/platform/pthread*.c), in place of
 * newlib's sys/_pthreadtypes.h (RTEMS's, whose objects are 32-bit handles). Mutexes and
 * condition variables are futex words with what a recursive or error-checking mutex
 * needs beside them, as in NaCl's libpthread. */
#ifndef _SYS__PTHREADTYPES_H_
#define _SYS__PTHREADTYPES_H_

#include <sys/_types.h>

typedef struct __pthread *pthread_t;

typedef struct {
  int __detached;
  __size_t __stacksize;
} pthread_attr_t;

typedef struct {
  volatile int __state; /* 0 unlocked, 1 locked, 2 locked with waiters */
  int __type;           /* PTHREAD_MUTEX_NORMAL, _RECURSIVE or _ERRORCHECK */
  void *volatile __owner;
  int __count;
} pthread_mutex_t;

typedef struct {
  int __type;
} pthread_mutexattr_t;

typedef struct {
  volatile int __sequence; /* bumped by every signal and broadcast */
  int __clock;             /* the clock of timedwait's deadline */
} pthread_cond_t;

typedef struct {
  int __clock;
} pthread_condattr_t;

typedef volatile int pthread_once_t;

typedef unsigned int pthread_key_t;

#endif
