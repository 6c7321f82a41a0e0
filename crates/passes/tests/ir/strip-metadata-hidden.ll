; PASSES: strip-metadata
; Hidden symbols print as LLVM prints them (hidden implies dso_local), so the output
; assembles again.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @h = hidden global i32 1
@h = hidden global i32 1
; CHECK: @d = dso_local global i32 2
@d = dso_local global i32 2
!llvm.ident = !{!0}
!0 = !{!"clang"}

; CHECK: define hidden i32 @f()
define hidden i32 @f() {
  %v = load i32, i32* @h
  ret i32 %v
}
