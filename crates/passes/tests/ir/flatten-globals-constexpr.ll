; PASSES: flatten-globals
; ERROR: function @f
; ERROR: %v = load
; ERROR: a constant expression of a global whose type changes
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@g = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define i32 @f() {
  %v = load i32, i32* getelementptr ([4 x i32], [4 x i32]* @g, i32 0, i32 1)
  ret i32 %v
}
