/* mem.c: memcpy, memmove, memset, memcmp, memchr.
 *
 * On le32 the first three are the llvm.mem* intrinsics the PNaCl ABI allows: the
 * RewritePNaClLibraryCalls pass turns direct calls into those intrinsics anyway, so these
 * bodies only run when a program calls through a pointer, and they are then exactly the
 * wrapper that pass would generate. Elsewhere (the native test build) a plain C loop, since
 * a C compiler lowers __builtin_memcpy back into a call to memcpy. */
#include <stdint.h>
#include <string.h>

#if defined(__le32__)

void *memcpy(void *__restrict d, const void *__restrict s, size_t n) {
  __builtin_memcpy(d, s, n);
  return d;
}

void *memmove(void *d, const void *s, size_t n) {
  __builtin_memmove(d, s, n);
  return d;
}

void *memset(void *d, int c, size_t n) {
  __builtin_memset(d, c, n);
  return d;
}

#else

void *memcpy(void *__restrict d, const void *__restrict s, size_t n) {
  unsigned char *dp = d;
  const unsigned char *sp = s;
  while (n--)
    *dp++ = *sp++;
  return d;
}

void *memmove(void *d, const void *s, size_t n) {
  unsigned char *dp = d;
  const unsigned char *sp = s;
  if (dp == sp || n == 0)
    return d;
  if ((uintptr_t)dp - (uintptr_t)sp >= n) {
    while (n--)
      *dp++ = *sp++;
  } else {
    while (n--)
      dp[n] = sp[n];
  }
  return d;
}

void *memset(void *d, int c, size_t n) {
  unsigned char *dp = d;
  while (n--)
    *dp++ = (unsigned char)c;
  return d;
}

#endif

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (; n; n--, p++, q++)
    if (*p != *q)
      return *p - *q;
  return 0;
}

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n; n--, p++)
    if (*p == (unsigned char)c)
      return (void *)p;
  return 0;
}

void *memrchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  while (n--)
    if (p[n] == (unsigned char)c)
      return (void *)(p + n);
  return 0;
}
