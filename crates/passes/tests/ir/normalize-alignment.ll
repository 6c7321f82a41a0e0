; PASSES: normalize-alignment
; Integer loads and stores get align 1; float ones keep their natural alignment or 1;
; memory intrinsics get align 1.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: declare void @llvm.memcpy.p0i8.p0i8.i32(i8*{{[a-z ]*}}, i8*{{[a-z ]*}}, i32, i1)
declare void @llvm.memcpy.p0i8.p0i8.i32(i8* align 4, i8*, i32, i1)

; CHECK-LABEL: define void @f(i32* %p, double* %d, float* %f, i8* %a, i8* %b)
define void @f(i32* %p, double* %d, float* %f, i8* %a, i8* %b) {
; CHECK: load i32, i32* %p, align 1
  %v = load i32, i32* %p, align 4
; CHECK: store i32 %v, i32* %p, align 1
  store i32 %v, i32* %p, align 4
; CHECK: load double, double* %d, align 8
  %x = load double, double* %d, align 8
; CHECK: store double %x, double* %d, align 1
  store double %x, double* %d, align 4
; CHECK: load float, float* %f, align 4
  %y = load float, float* %f, align 16
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* %a, i8* %b, i32 8, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* align 8 %a, i8* align 8 %b, i32 8, i1 false)
  ret void
}
