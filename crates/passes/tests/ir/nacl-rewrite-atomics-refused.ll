; PASSES: nacl-rewrite-atomics
; ERROR: function @fadd
; ERROR: %old = atomicrmw
; ERROR: is not supported
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define float @fadd(float* %p) {
  %old = atomicrmw fadd float* %p, float 1.0 seq_cst
  ret float %old
}
