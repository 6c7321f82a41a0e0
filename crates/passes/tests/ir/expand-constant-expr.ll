; PASSES: expand-constant-expr
; Constant expressions used by instructions become instructions; global initializers keep
; theirs.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@g = global [4 x i32] zeroinitializer
; CHECK: @init = global i32* getelementptr
@init = global i32* getelementptr ([4 x i32], [4 x i32]* @g, i32 0, i32 2)

; CHECK-LABEL: define i32 @f()
define i32 @f() {
; CHECK: [[P:%.*]] = getelementptr {{(inbounds )?}}[4 x i32], [4 x i32]* @g, i32 0, i32 1
; CHECK: load i32, i32* [[P]]
  %v = load i32, i32* getelementptr ([4 x i32], [4 x i32]* @g, i32 0, i32 1)
; CHECK: [[I:%.*]] = ptrtoint [4 x i32]* @g to i32
; CHECK: add i32 %v, [[I]]
  %r = add i32 %v, ptrtoint ([4 x i32]* @g to i32)
  ret i32 %r
}

; CHECK-LABEL: define i32 @phi(i1 %c)
define i32 @phi(i1 %c) {
entry:
  br i1 %c, label %a, label %join
a:
  br label %join
join:
; The phi's operand is computed at the end of its predecessor.
; CHECK-NOT: phi i32 [ ptrtoint
  %p = phi i32 [ ptrtoint ([4 x i32]* @g to i32), %entry ], [ 0, %a ]
  ret i32 %p
}
