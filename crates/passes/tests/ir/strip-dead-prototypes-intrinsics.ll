; PASSES: strip-dead-prototypes
; Unused intrinsic declarations go too; definitions stay even when unused.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-NOT: llvm.trap
declare void @llvm.trap()
; CHECK: define internal void @unused_definition()
define internal void @unused_definition() {
  ret void
}
