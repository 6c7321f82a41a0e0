/* stdio_write.c: fwrite and fputs into room in a stream's buffer. newlib takes every call
 * through its general path (a uio vector, __sfvwrite_r, the stream's lock), which cost
 * fasta, whose output is 61-byte fwrites, 8% of its run time against the library before
 * newlib. When the stream is already writing bytes to a full buffer with room to spare
 * and the program has one thread, the call is a copy; anything else is newlib's (its
 * fwrite and fputs compiled as __newlib_fwrite and __newlib_fputs: see
 * libc/newlib/generate.py). Strictly less than the room left, because newlib flushes a
 * buffer the moment a write fills it. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

size_t __newlib_fwrite(const void *restrict buf, size_t size, size_t count, FILE *restrict fp);
int __newlib_fputs(const char *restrict s, FILE *restrict fp);

/* Whether `n` bytes go straight into fp's buffer: a fully buffered stream writing bytes
 * (line-buffered and unbuffered streams keep _w at 0), not a string stream, and no other
 * thread that could hold its lock. */
static inline int fits(FILE *fp, size_t n) {
  return !__pnacl_threads_started && (fp->_flags & (__SWR | __SSTR | __SORD)) == (__SWR | __SORD) &&
         !(fp->_flags2 & __SWID) && fp->_w > 0 && n < (size_t)fp->_w;
}

static inline void put(FILE *fp, const void *bytes, size_t n) {
  memcpy(fp->_p, bytes, n);
  fp->_p += n;
  fp->_w -= (int)n;
}

size_t fwrite(const void *restrict buf, size_t size, size_t count, FILE *restrict fp) {
  size_t n;
  if (!__builtin_mul_overflow(size, count, &n) && n > 0 && fits(fp, n)) {
    put(fp, buf, n);
    return count;
  }
  return __newlib_fwrite(buf, size, count, fp);
}

int fputs(const char *restrict s, FILE *restrict fp) {
  size_t n = strlen(s);
  if (n > 0 && fits(fp, n)) {
    put(fp, s, n);
    return 0;
  }
  return __newlib_fputs(s, fp);
}
