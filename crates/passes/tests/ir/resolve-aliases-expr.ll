; PASSES: resolve-aliases
; An alias of a constant expression: uses see the expression.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@arr = global [2 x i32] [i32 1, i32 2]
@second = alias i32, getelementptr ([2 x i32], [2 x i32]* @arr, i32 0, i32 1)

; CHECK-NOT: alias
; CHECK-LABEL: define i32 @f()
define i32 @f() {
; CHECK: load i32, i32* getelementptr {{(inbounds )?}}([2 x i32], [2 x i32]* @arr, i32 0, i32 1)
  %v = load i32, i32* @second
  ret i32 %v
}
