; PASSES: canonicalize-mem-intrinsics
; The i64-length memcpy, memmove and memset become their i32-length variants.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
declare void @llvm.memmove.p0i8.p0i8.i64(i8*, i8*, i64, i1)
declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)

; CHECK-LABEL: define void @f(i8* %d, i8* %s, i64 %n)
define void @f(i8* %d, i8* %s, i64 %n) {
; CHECK-NOT: .i64(
; CHECK: [[N:%.*]] = trunc i64 %n to i32
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* %d, i8* %s, i32 [[N]], i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %d, i8* %s, i64 %n, i1 false)
; CHECK: call void @llvm.memmove.p0i8.p0i8.i32(i8* %d, i8* %s, i32 {{16|%.*}}, i1 false)
  call void @llvm.memmove.p0i8.p0i8.i64(i8* %d, i8* %s, i64 16, i1 false)
; CHECK: call void @llvm.memset.p0i8.i32(i8* %d, i8 0, i32 {{8|%.*}}, i1 false)
  call void @llvm.memset.p0i8.i64(i8* %d, i8 0, i64 8, i1 false)
  ret void
}
