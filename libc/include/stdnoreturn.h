/* stdnoreturn.h: pnacl libc. */
#ifndef _PNACL_STDNORETURN_H
#define _PNACL_STDNORETURN_H
#define noreturn _Noreturn
#endif
