; PASSES: nacl-global-cleanup
; llvm.compiler.used goes, undefined weak references become null, weak definitions
; become internal.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-NOT: llvm.compiler.used
@llvm.compiler.used = appending global [1 x i8*] [i8* bitcast (i32* @kept to i8*)], section "llvm.metadata"
; CHECK: @kept = internal global i32 0
@kept = internal global i32 0
; CHECK-NOT: @absent
@absent = extern_weak global i32
; CHECK: @weak_var = internal global i32 7
@weak_var = weak global i32 7
; CHECK: @weak_hidden = internal global i32 8
@weak_hidden = weak hidden global i32 8
; CHECK: @ptr = global i32* null
@ptr = global i32* @absent

declare extern_weak void @absent_fn()

; CHECK: define internal i32 @weak_fn()
define weak i32 @weak_fn() {
  ret i32 3
}

; CHECK-LABEL: define i32 @user()
define i32 @user() {
; CHECK: load i32, i32* null
  %v = load i32, i32* @absent
; CHECK: call void null()
  call void @absent_fn()
  ret i32 %v
}
