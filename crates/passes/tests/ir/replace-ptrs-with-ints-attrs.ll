; PASSES: replace-ptrs-with-ints
; Pointer-only attributes go from the parameters and results that become i32; others stay.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: declare i32 @ext(i32, i32 zeroext)
declare noalias i8* @ext(i8* nocapture readonly, i32 zeroext)

; CHECK-LABEL: define i32 @f(i32 %p, i32 %n)
define nonnull i8* @f(i8* noalias nocapture dereferenceable(4) %p, i32 %n) {
; CHECK: call i32 @ext(i32 %p, i32 zeroext %n)
  %r = call noalias i8* @ext(i8* nocapture readonly %p, i32 zeroext %n)
  ret i8* %r
}

%S = type { i32, i32 }
declare i32 @vf(i32, ...)

; A variadic argument's attributes too.
; CHECK-LABEL: define i32 @var(i32 %s)
define i32 @var(%S* %s) {
; CHECK: call i32 (i32, ...) @vf(i32 1, i32 %s)
  %r = call i32 (i32, ...) @vf(i32 1, %S* byval(%S) %s)
  ret i32 %r
}
