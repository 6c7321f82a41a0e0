/* lock.c: newlib's locks (stdio, malloc, atexit, environment, time zone), which newlib
 * built with --enable-newlib-retargetable-locking takes through __retarget_lock_*: each
 * is a pthread mutex. Until the program starts a second thread they do nothing but test
 * a flag. (newlib's own lock.c, whose locks do nothing at all, is not linked.) */
#include <pthread.h>
#include <stdlib.h>
#include <sys/lock.h>
#include "internal.h"

struct __lock {
  pthread_mutex_t mutex;
};

#define STATIC_LOCK(name) struct __lock __lock_##name = {PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP}
STATIC_LOCK(__sinit_recursive_mutex);
STATIC_LOCK(__sfp_recursive_mutex);
STATIC_LOCK(__atexit_recursive_mutex);
STATIC_LOCK(__at_quick_exit_mutex);
STATIC_LOCK(__malloc_recursive_mutex);
STATIC_LOCK(__env_recursive_mutex);
STATIC_LOCK(__tz_mutex);
STATIC_LOCK(__dd_hash_mutex);
STATIC_LOCK(__arc4random_mutex);

static int active(void) { return __pnacl_threads_started; }

static void init(_LOCK_T *lock, int type) {
  struct __lock *l = malloc(sizeof *l);
  if (l) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, type);
    pthread_mutex_init(&l->mutex, &attr);
  }
  *lock = l;
}

void __retarget_lock_init(_LOCK_T *lock) { init(lock, PTHREAD_MUTEX_NORMAL); }
void __retarget_lock_init_recursive(_LOCK_T *lock) { init(lock, PTHREAD_MUTEX_RECURSIVE); }
void __retarget_lock_close(_LOCK_T lock) { free(lock); }
void __retarget_lock_close_recursive(_LOCK_T lock) { free(lock); }

void __retarget_lock_acquire(_LOCK_T lock) {
  if (lock && active())
    pthread_mutex_lock(&lock->mutex);
}

void __retarget_lock_acquire_recursive(_LOCK_T lock) { __retarget_lock_acquire(lock); }

int __retarget_lock_try_acquire(_LOCK_T lock) {
  return lock && active() ? pthread_mutex_trylock(&lock->mutex) : 0;
}

int __retarget_lock_try_acquire_recursive(_LOCK_T lock) { return __retarget_lock_try_acquire(lock); }

void __retarget_lock_release(_LOCK_T lock) {
  if (lock && active())
    pthread_mutex_unlock(&lock->mutex);
}

void __retarget_lock_release_recursive(_LOCK_T lock) { __retarget_lock_release(lock); }
