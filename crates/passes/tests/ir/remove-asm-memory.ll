; PASSES: remove-asm-memory
; The empty asm memory barriers go.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define void @f(i32* %p)
define void @f(i32* %p) {
; CHECK-NOT: asm
; CHECK: store i32 1, i32* %p
  call void asm sideeffect "", "~{memory}"()
  store i32 1, i32* %p
  call void asm sideeffect "", "~{memory}"()
  ret void
}
