/* abi_check.c: the types of newlib's headers, as pnacl configures them, against clang's
 * le32-unknown-nacl target (ILP32, little-endian, long double = double) and the NaCl
 * ABI. Compiled with the library, so a header change that breaks them stops the build.
 * It defines nothing. */
#include <float.h>
#include <limits.h>
#include <machine/endian.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <wchar.h>
#include <pthread.h>
#include <dirent.h>

#define SAME_TYPE(a, b) _Static_assert(__builtin_types_compatible_p(a, b), #a " is " #b)

_Static_assert(sizeof(long) == 4 && sizeof(void *) == 4 && sizeof(int) == 4, "ILP32");
_Static_assert(sizeof(long long) == 8 && _Alignof(long long) == 8, "64-bit long long, 8-aligned");
_Static_assert(sizeof(double) == 8 && _Alignof(double) == 8, "double");
_Static_assert(sizeof(long double) == sizeof(double) && LDBL_MANT_DIG == DBL_MANT_DIG,
               "long double is double");
SAME_TYPE(size_t, unsigned int);
SAME_TYPE(ssize_t, int);
SAME_TYPE(ptrdiff_t, int);
SAME_TYPE(intptr_t, int);
SAME_TYPE(wchar_t, int);
SAME_TYPE(wint_t, __WINT_TYPE__);
SAME_TYPE(int64_t, long long);
SAME_TYPE(uint32_t, unsigned int);
_Static_assert(sizeof(off_t) == 8, "off_t is 64-bit, as NaCl's");
_Static_assert(sizeof(fpos_t) == 8, "fpos_t matches off_t");
_Static_assert(sizeof(time_t) == 8, "time_t is 64-bit, as NaCl's");
_Static_assert(sizeof(clock_t) == 4, "clock_t is 32-bit");
_Static_assert(sizeof(struct timespec) == 16, "struct timespec is nacl_abi_timespec");
_Static_assert(sizeof(struct timeval) == 16, "struct timeval is nacl_abi_timeval");
_Static_assert(CHAR_MIN < 0, "char is signed");
_Static_assert(_BYTE_ORDER == _LITTLE_ENDIAN && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "little-endian");
_Static_assert(sizeof(jmp_buf) == 1024 && _Alignof(jmp_buf) == 8,
               "jmp_buf is what llvm.nacl.setjmp needs");
_Static_assert(sizeof(struct dirent) == 280 && __builtin_offsetof(struct dirent, d_reclen) == 16 &&
                   __builtin_offsetof(struct dirent, d_name) == 18,
               "struct dirent is nacl_abi_dirent");
_Static_assert(sizeof(pthread_mutex_t) == 16, "pthread_mutex_t");
