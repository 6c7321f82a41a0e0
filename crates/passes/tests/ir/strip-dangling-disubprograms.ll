; PASSES: strip-dangling-disubprograms
; The model keeps no debug metadata: nothing changes.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: define i32 @f(i32 %x)
; CHECK: ret i32 %x
define i32 @f(i32 %x) {
  ret i32 %x
}
