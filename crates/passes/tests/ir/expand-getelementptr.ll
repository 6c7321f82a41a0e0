; PASSES: expand-getelementptr
; A getelementptr becomes ptrtoint, an add of the constant offset, the scaled variable
; indices, and inttoptr.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i8, i32, [10 x i16] }

; CHECK-LABEL: define i16* @f(%S* %p, i32 %i, i64 %j)
define i16* @f(%S* %p, i32 %i, i64 %j) {
; CHECK-NOT: getelementptr
; CHECK: ptrtoint %S* %p to i32
; CHECK: mul i32 %i, 28
; CHECK: trunc i64 %j to i32
; CHECK: mul i32 {{.*}}, 2
; CHECK: add i32 {{.*}}, 8
; CHECK: inttoptr i32 {{.*}} to i16*
  %q = getelementptr %S, %S* %p, i32 %i, i32 2, i64 %j
  ret i16* %q
}

; CHECK-LABEL: define i32* @const(%S* %p)
define i32* @const(%S* %p) {
; CHECK: [[A:%.*]] = ptrtoint %S* %p to i32
; CHECK: [[B:%.*]] = add i32 [[A]], 32
; CHECK: inttoptr i32 [[B]] to i32*
  %q = getelementptr %S, %S* %p, i32 1, i32 1
  ret i32* %q
}
