/* stdio_lock.c: flockfile, ftrylockfile and funlockfile, which newlib declares and leaves
 * to the system: the stream's own recursive lock, the one newlib's stdio takes inside
 * each call (no lock for string streams, as newlib's macros do). */
#include <stdio.h>
#include <sys/lock.h>

void flockfile(FILE *fp) {
  if (!(fp->_flags & __SSTR))
    __lock_acquire_recursive(fp->_lock);
}

int ftrylockfile(FILE *fp) {
  if (fp->_flags & __SSTR)
    return 0;
  return __lock_try_acquire_recursive(fp->_lock);
}

void funlockfile(FILE *fp) {
  if (!(fp->_flags & __SSTR))
    __lock_release_recursive(fp->_lock);
}
