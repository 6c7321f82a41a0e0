; PASSES: expand-byval
; The caller's copy uses the module's llvm.memcpy declaration, whose LLVM 14 signature
; has no alignment argument.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i32, i32 }

declare void @llvm.memcpy.p0i8.p0i8.i32(i8*, i8*, i32, i1)
declare i32 @callee(%S* byval(%S))

; CHECK-LABEL: define i32 @caller(%S* %arg, i8* %a, i8* %b)
define i32 @caller(%S* %arg, i8* %a, i8* %b) {
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* %a, i8* %b, i32 4, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %a, i8* %b, i32 4, i1 false)
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32(i8* {{.*}}, i8* {{.*}}, i32 8, i1 false)
; CHECK: call i32 @callee(%S*
  %r = call i32 @callee(%S* byval(%S) %arg)
  ret i32 %r
}
