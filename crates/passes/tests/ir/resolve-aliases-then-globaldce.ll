; PASSES: resolve-aliases,globaldce
; Once the aliases are resolved, nothing names them any more: the global-value removal
; that follows must not stumble on the constants that once named them (it indexed a
; removed alias: a crash on real C++ bitcode).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @target = internal global i32 1
@target = internal global i32 1
; CHECK-NOT: @dead
@dead = internal global i32 2
; CHECK-NOT: alias
@a = internal alias i32, i32* @target
@b = internal alias i32, i32* @dead

; CHECK: define void @_start()
define void @_start() {
; CHECK: store i32 0, i32* @target
  store i32 0, i32* @a
  ret void
}
