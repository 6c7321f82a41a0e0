/* inttypes.h: pnacl libc. Format macros from the compiler's __*_FMT*__ macros (clang);
 * a fallback derived from the type sizes serves compilers without them. */
#ifndef _PNACL_INTTYPES_H
#define _PNACL_INTTYPES_H

#include <stdint.h>

#if __SIZEOF_LONG__ == 8
#define __PRI64 "l"
#else
#define __PRI64 "ll"
#endif
#if __INTPTR_MAX__ == __LONG_MAX__ && __SIZEOF_LONG__ != __SIZEOF_INT__
#define __PRIPTR "l"
#else
#define __PRIPTR ""
#endif
#ifdef __INT_FAST16_FMTd__
#define __PRIFAST16 __INT_FAST16_FMTd__
#define __PRIFAST32 __INT_FAST32_FMTd__
#else
#define __PRIFAST16 __PRIPTR "d"
#define __PRIFAST32 __PRIPTR "d"
#endif
/* __PRIFAST16/32 hold the full "d" conversion; strip it for the other letters. */
#ifdef __INT_FAST16_FMTd__
#if __INT_FAST16_MAX__ == __SHRT_MAX__
#define __PRIF16 "h"
#elif __INT_FAST16_MAX__ == __INT_MAX__
#define __PRIF16 ""
#else
#define __PRIF16 "l"
#endif
#if __INT_FAST32_MAX__ == __INT_MAX__
#define __PRIF32 ""
#else
#define __PRIF32 "l"
#endif
#else
#define __PRIF16 __PRIPTR
#define __PRIF32 __PRIPTR
#endif

#define PRId8 "hhd"
#define PRIi8 "hhi"
#define PRIo8 "hho"
#define PRIu8 "hhu"
#define PRIx8 "hhx"
#define PRIX8 "hhX"
#define PRId16 "hd"
#define PRIi16 "hi"
#define PRIo16 "ho"
#define PRIu16 "hu"
#define PRIx16 "hx"
#define PRIX16 "hX"
#define PRId32 "d"
#define PRIi32 "i"
#define PRIo32 "o"
#define PRIu32 "u"
#define PRIx32 "x"
#define PRIX32 "X"
#define PRId64 __PRI64 "d"
#define PRIi64 __PRI64 "i"
#define PRIo64 __PRI64 "o"
#define PRIu64 __PRI64 "u"
#define PRIx64 __PRI64 "x"
#define PRIX64 __PRI64 "X"

#define PRIdLEAST8 PRId8
#define PRIiLEAST8 PRIi8
#define PRIoLEAST8 PRIo8
#define PRIuLEAST8 PRIu8
#define PRIxLEAST8 PRIx8
#define PRIXLEAST8 PRIX8
#define PRIdLEAST16 PRId16
#define PRIiLEAST16 PRIi16
#define PRIoLEAST16 PRIo16
#define PRIuLEAST16 PRIu16
#define PRIxLEAST16 PRIx16
#define PRIXLEAST16 PRIX16
#define PRIdLEAST32 PRId32
#define PRIiLEAST32 PRIi32
#define PRIoLEAST32 PRIo32
#define PRIuLEAST32 PRIu32
#define PRIxLEAST32 PRIx32
#define PRIXLEAST32 PRIX32
#define PRIdLEAST64 PRId64
#define PRIiLEAST64 PRIi64
#define PRIoLEAST64 PRIo64
#define PRIuLEAST64 PRIu64
#define PRIxLEAST64 PRIx64
#define PRIXLEAST64 PRIX64

#define PRIdFAST8 PRId8
#define PRIiFAST8 PRIi8
#define PRIoFAST8 PRIo8
#define PRIuFAST8 PRIu8
#define PRIxFAST8 PRIx8
#define PRIXFAST8 PRIX8
#define PRIdFAST16 __PRIF16 "d"
#define PRIiFAST16 __PRIF16 "i"
#define PRIoFAST16 __PRIF16 "o"
#define PRIuFAST16 __PRIF16 "u"
#define PRIxFAST16 __PRIF16 "x"
#define PRIXFAST16 __PRIF16 "X"
#define PRIdFAST32 __PRIF32 "d"
#define PRIiFAST32 __PRIF32 "i"
#define PRIoFAST32 __PRIF32 "o"
#define PRIuFAST32 __PRIF32 "u"
#define PRIxFAST32 __PRIF32 "x"
#define PRIXFAST32 __PRIF32 "X"
#define PRIdFAST64 PRId64
#define PRIiFAST64 PRIi64
#define PRIoFAST64 PRIo64
#define PRIuFAST64 PRIu64
#define PRIxFAST64 PRIx64
#define PRIXFAST64 PRIX64

#define PRIdMAX PRId64
#define PRIiMAX PRIi64
#define PRIoMAX PRIo64
#define PRIuMAX PRIu64
#define PRIxMAX PRIx64
#define PRIXMAX PRIX64
#define PRIdPTR __PRIPTR "d"
#define PRIiPTR __PRIPTR "i"
#define PRIoPTR __PRIPTR "o"
#define PRIuPTR __PRIPTR "u"
#define PRIxPTR __PRIPTR "x"
#define PRIXPTR __PRIPTR "X"

#define SCNd8 "hhd"
#define SCNu8 "hhu"
#define SCNd16 "hd"
#define SCNu16 "hu"
#define SCNd32 "d"
#define SCNu32 "u"
#define SCNx32 "x"
#define SCNd64 PRId64
#define SCNu64 PRIu64
#define SCNx64 PRIx64

typedef struct {
  intmax_t quot;
  intmax_t rem;
} imaxdiv_t;

intmax_t imaxabs(intmax_t);
imaxdiv_t imaxdiv(intmax_t, intmax_t);
intmax_t strtoimax(const char *__restrict, char **__restrict, int);
uintmax_t strtoumax(const char *__restrict, char **__restrict, int);

#endif
