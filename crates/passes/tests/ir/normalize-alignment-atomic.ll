; PASSES: normalize-alignment
; Atomic accesses keep their (natural) alignment; vectors are left as they are.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i32* %p, <4 x i32>* %v)
define i32 @f(i32* %p, <4 x i32>* %v) {
; CHECK: load atomic i32, i32* %p seq_cst, align 4
  %a = load atomic i32, i32* %p seq_cst, align 4
; CHECK: load <4 x i32>, <4 x i32>* %v, align 16
  %b = load <4 x i32>, <4 x i32>* %v, align 16
  %c = extractelement <4 x i32> %b, i32 0
  %r = add i32 %a, %c
  ret i32 %r
}
