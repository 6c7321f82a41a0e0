; PASSES: expand-getelementptr
; ERROR: function @vgep
; ERROR: %q = getelementptr
; ERROR: vector getelementptr is not supported
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define <4 x i32*> @vgep(i32* %p, <4 x i32> %i) {
  %q = getelementptr i32, i32* %p, <4 x i32> %i
  ret <4 x i32*> %q
}
