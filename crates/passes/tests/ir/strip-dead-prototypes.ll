; PASSES: strip-dead-prototypes
; Declarations nothing uses go.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-NOT: @unused
declare void @unused()
; CHECK: declare void @called()
declare void @called()
; CHECK: declare void @addressed()
declare void @addressed()
; CHECK: declare i32 @in_init()
declare i32 @in_init()
@fp = global i32 ()* @in_init

define void (...)* @f() {
  call void @called()
  ret void (...)* bitcast (void ()* @addressed to void (...)*)
}
