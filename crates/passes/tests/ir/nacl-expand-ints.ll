; PASSES: nacl-expand-ints
; ERROR: function @wide
; ERROR: %x = zext
; ERROR: integers wider than 64 bits are not supported
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
