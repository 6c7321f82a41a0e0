; PASSES: nacl-expand-modern-intrinsics
; ERROR: function @vneg
; ERROR: %n = fneg
; ERROR: fneg of a vector is not supported
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define <4 x float> @vneg(<4 x float> %v) {
  %n = fneg <4 x float> %v
  ret <4 x float> %n
}
