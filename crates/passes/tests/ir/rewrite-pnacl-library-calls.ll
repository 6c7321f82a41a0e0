; PASSES: rewrite-pnacl-library-calls
; setjmp/longjmp become the NaCl intrinsics, memcpy/memmove/memset the LLVM ones.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%jmp_buf = type [64 x i64]

declare i32 @setjmp(i64*)
declare void @longjmp(i64*, i32)
declare i8* @memcpy(i8*, i8*, i32)
declare i8* @memmove(i8*, i8*, i32)
declare i8* @memset(i8*, i32, i32)

; CHECK-LABEL: define i32 @jumps(i64* %buf)
define i32 @jumps(i64* %buf) {
; CHECK: call i32 @llvm.nacl.setjmp(i8*
  %r = call i32 @setjmp(i64* %buf)
  %z = icmp eq i32 %r, 0
  br i1 %z, label %first, label %second
first:
; CHECK: call void @llvm.nacl.longjmp(i8* {{.*}}, i32 1)
  call void @longjmp(i64* %buf, i32 1)
  unreachable
second:
  ret i32 %r
}

; CHECK-LABEL: define i8* @mem(i8* %d, i8* %s, i32 %n)
define i8* @mem(i8* %d, i8* %s, i32 %n) {
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* {{.*}}%d, i8* {{.*}}%s, i32 %n, i1 false)
  %a = call i8* @memcpy(i8* %d, i8* %s, i32 %n)
; CHECK: call void @llvm.memmove.p0i8.p0i8.i32(i8* {{.*}}%d, i8* {{.*}}%s, i32 %n, i1 false)
  %b = call i8* @memmove(i8* %d, i8* %s, i32 %n)
; CHECK: call void @llvm.memset.p0i8.i32(i8* {{.*}}%d, i8 {{7|%.*}}, i32 %n, i1 false)
  %c = call i8* @memset(i8* %d, i32 7, i32 %n)
; The result is the destination.
; CHECK: ret i8* %d
  ret i8* %c
}
