; PASSES: nacl-rewrite-atomics
; ERROR: function @vol
; ERROR: %v = load
; ERROR: an atomic load of this type
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%pair = type { i32, i32 }

define i32 @vol(%pair* %p) {
  %v = load volatile %pair, %pair* %p
  %a = extractvalue %pair %v, 0
  ret i32 %a
}
