; PASSES: rewrite-pnacl-library-calls
; A module that already uses llvm.memcpy (a struct copy) and also calls memcpy: both
; calls use the one intrinsic, with its LLVM 14 signature.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare void @llvm.memcpy.p0i8.p0i8.i32(i8*, i8*, i32, i1)
declare i8* @memcpy(i8*, i8*, i32)

; CHECK-LABEL: define void @f(i8* %d, i8* %s)
define void @f(i8* %d, i8* %s) {
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* %d, i8* %s, i32 8, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %d, i8* %s, i32 8, i1 false)
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* {{.*}}%d, i8* {{.*}}%s, i32 4, i1 false)
  %r = call i8* @memcpy(i8* %d, i8* %s, i32 4)
  ret void
}
