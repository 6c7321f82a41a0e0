/* pnacl: jmp_buf as PNaCl's llvm.nacl.setjmp needs it (1024 bytes, 8-aligned:
 * runtime-facts §7). setjmp and longjmp are never defined: pnacl's
 * rewrite-pnacl-library-calls pass turns calls to them (and to _setjmp, _longjmp)
 * into llvm.nacl.setjmp/longjmp, which need exactly these types (i32 (i64*) and
 * void (i64*, i32)). sigsetjmp and siglongjmp are the same, as no signal mask is kept. */
#ifndef _PNACL_MACHINE_SETJMP_H
#define _PNACL_MACHINE_SETJMP_H
#define _JBLEN 128
#define _JBTYPE long long
#include_next <machine/setjmp.h>
#include <sys/cdefs.h>
__BEGIN_DECLS
int setjmp(long long *__env) __attribute__((__returns_twice__, __nothrow__));
void longjmp(long long *__env, int __val) __attribute__((__noreturn__));
int _setjmp(long long *__env) __attribute__((__returns_twice__, __nothrow__));
void _longjmp(long long *__env, int __val) __attribute__((__noreturn__));
__END_DECLS
typedef long long sigjmp_buf[_JBLEN];
#define sigsetjmp(env, savemask) setjmp(env)
#define siglongjmp(env, val) longjmp(env, val)
#endif
