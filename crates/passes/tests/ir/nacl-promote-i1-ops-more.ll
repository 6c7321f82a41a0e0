; PASSES: nacl-promote-i1-ops
; Comparisons, selects and extensions of i1 stay legal; i1 arithmetic and shifts are on i8.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i1 %a, i1 %b, i32 %x)
define i32 @f(i1 %a, i1 %b, i32 %x) {
; CHECK-NOT: sub i1
; CHECK-NOT: mul i1
; CHECK: sub i8
  %s = sub i1 %a, %b
; CHECK: mul i8
  %m = mul i1 %s, %a
; CHECK: select i1
  %r = select i1 %m, i32 %x, i32 0
  ret i32 %r
}
