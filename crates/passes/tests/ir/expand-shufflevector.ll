; PASSES: expand-shufflevector
; ERROR: function @shuffle
; ERROR: %s = shufflevector
; ERROR: shufflevector is not supported
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define <4 x i32> @shuffle(<4 x i32> %a, <4 x i32> %b) {
  %s = shufflevector <4 x i32> %a, <4 x i32> %b, <4 x i32> <i32 0, i32 4, i32 1, i32 5>
  ret <4 x i32> %s
}
