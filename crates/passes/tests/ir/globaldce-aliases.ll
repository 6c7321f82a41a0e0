; PASSES: globaldce
; An alias of something live stays live; a dead alias goes with its target.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @live_target = internal global i32 1
@live_target = internal global i32 1
; CHECK-NOT: @dead_target
@dead_target = internal global i32 2
@live_alias = internal alias i32, i32* @live_target
@dead_alias = internal alias i32, i32* @dead_target

; CHECK: define void @_start()
define void @_start() {
  store i32 0, i32* @live_alias
  ret void
}
