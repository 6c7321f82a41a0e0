; PASSES: expand-varargs
; A byval variable argument is copied into the argument struct with the module's own
; llvm.memcpy (LLVM 14 signature).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i32, i32, i32 }

declare void @llvm.memcpy.p0i8.p0i8.i32(i8*, i8*, i32, i1)
declare i32 @vf(i32, ...)

; CHECK-LABEL: define i32 @caller(%S* %s)
define i32 @caller(%S* %s) {
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* {{.*}}, i8* {{.*}}, i32 12, i1 false)
; CHECK: call i32 @vf(i32 1, i8*
  %r = call i32 (i32, ...) @vf(i32 1, %S* byval(%S) %s)
  ret i32 %r
}
