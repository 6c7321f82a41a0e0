; PASSES: nacl-promote-i1-ops
; i1 loads, stores and arithmetic other than and/or/xor are done on i8.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i1 @f(i1* %p, i1 %a, i1 %b)
define i1 @f(i1* %p, i1 %a, i1 %b) {
; CHECK-NOT: load i1
; CHECK-NOT: store i1
; CHECK-NOT: add i1
; CHECK: load i8, i8*
; CHECK: trunc i8 {{.*}} to i1
  %v = load i1, i1* %p
; CHECK: add i8
  %s = add i1 %v, %a
; CHECK: and i1
  %x = and i1 %s, %b
; CHECK: zext i1 {{.*}} to i8
; CHECK: store i8
  store i1 %x, i1* %p
  ret i1 %x
}
