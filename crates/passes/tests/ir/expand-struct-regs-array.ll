; PASSES: expand-struct-regs
; Arrays in registers are taken apart like structs.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f([2 x i32]* %p, [2 x i32]* %q)
define i32 @f([2 x i32]* %p, [2 x i32]* %q) {
; CHECK-NOT: load [2 x i32]
; CHECK-NOT: store [2 x i32]
  %v = load [2 x i32], [2 x i32]* %p
  %w = insertvalue [2 x i32] %v, i32 9, 1
  store [2 x i32] %w, [2 x i32]* %q
  %r = extractvalue [2 x i32] %w, 0
  ret i32 %r
}
