/* pnacl: newlib's <math.h>, with the square root and absolute value of programs made
 * PNaCl's intrinsics (llvm.sqrt, llvm.fabs: one instruction each where the translator
 * runs). clang's le32 target never turns calls to sqrt into llvm.sqrt by itself. Taking
 * the functions' addresses still gives the functions. */
#include_next <math.h>

#if !defined(_COMPILING_NEWLIB) && !defined(__cplusplus)
#define sqrt(x) __builtin_sqrt(x)
#define sqrtf(x) __builtin_sqrtf(x)
#define fabs(x) __builtin_fabs(x)
#define fabsf(x) __builtin_fabsf(x)
#endif
