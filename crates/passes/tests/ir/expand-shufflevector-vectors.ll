; PASSES: expand-shufflevector
; Other vector operations pass through.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define <4 x i32> @f(<4 x i32> %a, i32 %x)
define <4 x i32> @f(<4 x i32> %a, i32 %x) {
; CHECK: %i = insertelement <4 x i32> %a, i32 %x, i32 0
  %i = insertelement <4 x i32> %a, i32 %x, i32 0
; CHECK: %s = add <4 x i32> %i, %a
  %s = add <4 x i32> %i, %a
  ret <4 x i32> %s
}
