; PASSES: expand-constant-expr
; Nested constant expressions become a chain of instructions, each before its user; a phi's
; operand is computed at the end of the predecessor it comes from.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@a = global [4 x i32] zeroinitializer
@b = global i32 0
declare void @use(i32)

; CHECK-LABEL: define void @nested()
define void @nested() {
; CHECK: [[G:%.*]] = getelementptr {{(inbounds )?}}[4 x i32], [4 x i32]* @a, i32 0, i32 2
; CHECK: [[I:%.*]] = ptrtoint i32* [[G]] to i32
; CHECK: [[S:%.*]] = add i32 [[I]], 1
; CHECK: call void @use(i32 [[S]])
  call void @use(i32 add (i32 ptrtoint (i32* getelementptr ([4 x i32], [4 x i32]* @a, i32 0, i32 2) to i32), i32 1))
; CHECK: [[B:%.*]] = ptrtoint i32* @b to i32
; CHECK: store i32 [[B]], i32* @b
  store i32 ptrtoint (i32* @b to i32), i32* @b
  ret void
}

; CHECK-LABEL: define i32 @phi(i1 %c)
define i32 @phi(i1 %c) {
entry:
; CHECK: entry:
; CHECK: [[E:%.*]] = ptrtoint i32* @b to i32
; CHECK-NEXT: br i1 %c
  br i1 %c, label %x, label %join
x:
  br label %join
join:
; CHECK: phi i32 [ [[E]], %entry ], [ 0, %x ]
  %p = phi i32 [ ptrtoint (i32* @b to i32), %entry ], [ 0, %x ]
  ret i32 %p
}
