/* stddef.h: pnacl libc. Types come from the compiler's predefined macros, so the
 * same header serves le32 (ILP32) and the native test build. */
#ifndef _PNACL_STDDEF_H
#define _PNACL_STDDEF_H

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef __cplusplus
typedef __WCHAR_TYPE__ wchar_t;
#endif
typedef struct {
  long long __ll __attribute__((__aligned__(__alignof__(long long))));
  long double __ld __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;

#ifndef NULL
#define NULL ((void *)0)
#endif
#define offsetof(type, member) __builtin_offsetof(type, member)

#endif
