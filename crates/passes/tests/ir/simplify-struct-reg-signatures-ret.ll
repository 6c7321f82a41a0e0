; PASSES: simplify-struct-reg-signatures
; ERROR: function @returns_pair
; ERROR: structs passed or returned by value
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%pair = type { i32, i32 }

define %pair @returns_pair() {
  ret %pair zeroinitializer
}
