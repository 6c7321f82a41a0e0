; PASSES: globaldce
; What nothing reachable from the exported definitions (and llvm.used) refers to goes.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@llvm.used = appending global [1 x i8*] [i8* bitcast (i32* @used_var to i8*)], section "llvm.metadata"
; CHECK: @used_var = internal global i32 1
@used_var = internal global i32 1
; CHECK: @reached_var = internal global i32 2
@reached_var = internal global i32 2
; CHECK: @through_init = internal global i32* @reached_by_init
@through_init = internal global i32* @reached_by_init
; CHECK: @reached_by_init = internal global i32 3
@reached_by_init = internal global i32 3
; CHECK-NOT: @dead_var
@dead_var = internal global i32 4

; CHECK-NOT: @dead_fn
define internal void @dead_fn() {
  store i32 0, i32* @dead_var
  ret void
}

; CHECK: define internal void @live_fn()
define internal void @live_fn() {
  %p = load i32*, i32** @through_init
  store i32 0, i32* %p
  ret void
}

; CHECK: define void @_start()
define void @_start() {
  call void @live_fn()
  store i32 0, i32* @reached_var
  ret void
}
