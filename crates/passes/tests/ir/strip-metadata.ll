; PASSES: strip-metadata
; Named metadata goes.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-NOT: !llvm.ident
; CHECK-NOT: !named
!llvm.ident = !{!0}
!named = !{!0}
!0 = !{!"clang version 14"}

; CHECK: define void @f()
define void @f() {
  ret void
}
