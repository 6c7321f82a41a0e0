; PASSES: simplify-struct-reg-signatures
; ERROR: function @takes_pair
; ERROR: signature
; ERROR: structs passed or returned by value
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%pair = type { i32, i32 }

define i32 @takes_pair(%pair %p) {
  %a = extractvalue %pair %p, 0
  ret i32 %a
}
