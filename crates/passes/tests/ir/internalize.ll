; PASSES: internalize
; Every definition but the entry point becomes internal; declarations stay external.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @data = internal global i32 1
@data = global i32 1
; CHECK: @hidden_data = internal global i32 2
@hidden_data = hidden global i32 2
; CHECK: @ext = external global i32
@ext = external global i32

; CHECK: declare void @undefined()
declare void @undefined()

; CHECK: define internal void @helper()
define void @helper() {
  call void @undefined()
  ret void
}

; CHECK: define internal void @hidden_helper()
define hidden void @hidden_helper() {
  ret void
}

; CHECK: define void @_start(i32* %info)
define void @_start(i32* %info) {
  call void @helper()
  call void @hidden_helper()
  ret void
}
