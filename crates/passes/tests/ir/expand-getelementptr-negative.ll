; PASSES: expand-getelementptr
; Negative constant offsets fold into the one add; an i16 index is sign-extended.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32* @neg(i32* %p, i16 %i)
define i32* @neg(i32* %p, i16 %i) {
; CHECK: [[A:%.*]] = ptrtoint i32* %p to i32
; CHECK: add i32 [[A]], -8
; CHECK: sext i16 %i to i32
  %q = getelementptr i32, i32* %p, i32 -2
  %r = getelementptr i32, i32* %q, i16 %i
  ret i32* %r
}
