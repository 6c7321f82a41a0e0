/* setjmp.h: pnacl libc. The library defines neither function: the simplification pass
 * RewritePNaClLibraryCalls turns calls to them into llvm.nacl.setjmp/longjmp, which need
 * a 1024-byte, 8-byte-aligned buffer. The pass expects the types i32 (i64*) and
 * void (i64*, i32), hence the long long elements. */
#ifndef _PNACL_SETJMP_H
#define _PNACL_SETJMP_H

typedef long long jmp_buf[128];

int setjmp(jmp_buf env) __attribute__((__returns_twice__));
void longjmp(jmp_buf env, int val) __attribute__((__noreturn__));
#define _setjmp setjmp
#define _longjmp longjmp

#endif
