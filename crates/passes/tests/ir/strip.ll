; PASSES: strip
; Names inside functions and of internal symbols go; external names stay.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @0 = internal global i32 1
@internal_var = internal global i32 1
; CHECK: @ext_var = global i32 2
@ext_var = global i32 2
!llvm.ident = !{!0}
!0 = !{!"clang"}

; CHECK-LABEL: define internal i32 @1(i32 %0)
define internal i32 @helper(i32 %x) {
; CHECK: %2 = add i32 %0, 1
  %y = add i32 %x, 1
  ret i32 %y
}

; CHECK-LABEL: define i32 @_start()
define i32 @_start() {
; CHECK: load i32, i32* @0
  %v = load i32, i32* @internal_var
  %r = call i32 @helper(i32 %v)
  ret i32 %r
}
; CHECK-NOT: llvm.ident
