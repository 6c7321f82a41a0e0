; PASSES: dce
; Instructions whose results nothing uses, without side effects, go (also chains).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i32 @g(i32)

; CHECK-LABEL: define i32 @f(i32 %x, i32* %p)
define i32 @f(i32 %x, i32* %p) {
; CHECK-NOT: %dead
  %dead1 = add i32 %x, 1
  %dead2 = mul i32 %dead1, 3
  %dead3 = load i32, i32* %p
; CHECK: store i32 %x, i32* %p
  store i32 %x, i32* %p
; CHECK: %v = load volatile i32, i32* %p
  %v = load volatile i32, i32* %p
; CHECK: %c = call i32 @g(i32 %x)
  %c = call i32 @g(i32 %x)
; CHECK: ret i32 %x
  ret i32 %x
}
