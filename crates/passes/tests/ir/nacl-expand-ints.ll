; PASSES: nacl-expand-ints
; ERROR: function @wide
; ERROR: %p = mul
; ERROR: wider than 64 bits is not supported
; Multiplication of wide integers has no expansion (clang emits none for C; csmith's wide
; values are bitfield storage units, which are only loaded, stored, masked and shifted).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define i64 @wide(i64 %a, i64 %b) {
  %x = zext i64 %a to i128
  %y = zext i64 %b to i128
  %p = mul i128 %x, %y
  %h = lshr i128 %p, 64
  %r = trunc i128 %h to i64
  ret i64 %r
}
