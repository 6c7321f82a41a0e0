/* pnacl: POSIX threads over the NaCl IRT's thread and futex interfaces
 * (libc/platform/pthread*.c), as the PNaCl SDK's libpthread offered them: threads,
 * mutexes (normal, recursive, error-checking), condition variables, once, keys. A
 * thread's `thread_local` variables live below its thread pointer, which
 * llvm.nacl.read.tp returns. */
#ifndef _PTHREAD_H
#define _PTHREAD_H

#include <sys/cdefs.h>
#include <sys/types.h>
#include <sys/_pthreadtypes.h>
#include <sys/_sigset.h>
#include <sched.h>
#include <time.h>

__BEGIN_DECLS

#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1

#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_RECURSIVE 1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT PTHREAD_MUTEX_NORMAL
#define PTHREAD_MUTEX_FAST_NP PTHREAD_MUTEX_NORMAL
#define PTHREAD_MUTEX_RECURSIVE_NP PTHREAD_MUTEX_RECURSIVE
#define PTHREAD_MUTEX_ERRORCHECK_NP PTHREAD_MUTEX_ERRORCHECK

#define PTHREAD_MUTEX_INITIALIZER {0, PTHREAD_MUTEX_NORMAL, 0, 0}
#define PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP {0, PTHREAD_MUTEX_RECURSIVE, 0, 0}
#define PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP {0, PTHREAD_MUTEX_ERRORCHECK, 0, 0}
#define PTHREAD_COND_INITIALIZER {0, CLOCK_REALTIME}
#define PTHREAD_ONCE_INIT 0

#define PTHREAD_KEYS_MAX 128
#define PTHREAD_STACK_MIN 1024
#define PTHREAD_DESTRUCTOR_ITERATIONS 4

#define PTHREAD_SCOPE_SYSTEM 0
#define PTHREAD_SCOPE_PROCESS 1
#define PTHREAD_PROCESS_PRIVATE 0
#define PTHREAD_PROCESS_SHARED 1
#define PTHREAD_INHERIT_SCHED 0
#define PTHREAD_EXPLICIT_SCHED 1
#define PTHREAD_CANCEL_ENABLE 0
#define PTHREAD_CANCEL_DISABLE 1
#define PTHREAD_CANCEL_DEFERRED 0
#define PTHREAD_CANCEL_ASYNCHRONOUS 1

int pthread_create(pthread_t *__th, const pthread_attr_t *__attr, void *(*__start)(void *),
                   void *__arg);
int pthread_join(pthread_t __th, void **__result);
int pthread_detach(pthread_t __th);
void pthread_exit(void *__result) __attribute__((__noreturn__));
pthread_t pthread_self(void);
int pthread_equal(pthread_t __a, pthread_t __b);
int pthread_yield(void);

int pthread_attr_init(pthread_attr_t *__attr);
int pthread_attr_destroy(pthread_attr_t *__attr);
int pthread_attr_setdetachstate(pthread_attr_t *__attr, int __state);
int pthread_attr_getdetachstate(const pthread_attr_t *__attr, int *__state);
int pthread_attr_setstacksize(pthread_attr_t *__attr, size_t __size);
int pthread_attr_getstacksize(const pthread_attr_t *__attr, size_t *__size);
int pthread_attr_setscope(pthread_attr_t *__attr, int __scope);
int pthread_attr_getscope(const pthread_attr_t *__attr, int *__scope);

int pthread_mutex_init(pthread_mutex_t *__mutex, const pthread_mutexattr_t *__attr);
int pthread_mutex_destroy(pthread_mutex_t *__mutex);
int pthread_mutex_lock(pthread_mutex_t *__mutex);
int pthread_mutex_trylock(pthread_mutex_t *__mutex);
int pthread_mutex_timedlock(pthread_mutex_t *__mutex, const struct timespec *__abstime);
int pthread_mutex_unlock(pthread_mutex_t *__mutex);
int pthread_mutexattr_init(pthread_mutexattr_t *__attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *__attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *__attr, int __type);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *__attr, int *__type);
int pthread_mutexattr_setpshared(pthread_mutexattr_t *__attr, int __pshared);

int pthread_cond_init(pthread_cond_t *__cond, const pthread_condattr_t *__attr);
int pthread_cond_destroy(pthread_cond_t *__cond);
int pthread_cond_wait(pthread_cond_t *__cond, pthread_mutex_t *__mutex);
int pthread_cond_timedwait(pthread_cond_t *__cond, pthread_mutex_t *__mutex,
                           const struct timespec *__abstime);
int pthread_cond_signal(pthread_cond_t *__cond);
int pthread_cond_broadcast(pthread_cond_t *__cond);
int pthread_condattr_init(pthread_condattr_t *__attr);
int pthread_condattr_destroy(pthread_condattr_t *__attr);
int pthread_condattr_setclock(pthread_condattr_t *__attr, clockid_t __clock);
int pthread_condattr_getclock(const pthread_condattr_t *__attr, clockid_t *__clock);
int pthread_condattr_setpshared(pthread_condattr_t *__attr, int __pshared);

int pthread_once(pthread_once_t *__once, void (*__init)(void));

int pthread_key_create(pthread_key_t *__key, void (*__destructor)(void *));
int pthread_key_delete(pthread_key_t __key);
void *pthread_getspecific(pthread_key_t __key);
int pthread_setspecific(pthread_key_t __key, const void *__value);

int pthread_setcancelstate(int __state, int *__old);
int pthread_setcanceltype(int __type, int *__old);
int pthread_sigmask(int __how, const __sigset_t *__set, __sigset_t *__old);

__END_DECLS

#endif
