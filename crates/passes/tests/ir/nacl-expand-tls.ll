; PASSES: nacl-expand-tls
; Thread-locals are laid out in one template (initialized data first, then zeroed data),
; and each use becomes an address computed from llvm.nacl.read.tp.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-NOT: thread_local
@tdata = thread_local global i32 42
@tbss = thread_local global i64 0
@plain = global i32 1

; CHECK: @__tls_template_start = internal constant
; CHECK: i32 42
; CHECK: @__tls_template_alignment = internal constant i32 8

; CHECK-LABEL: define i32 @use()
define i32 @use() {
; CHECK: call i8* @llvm.nacl.read.tp()
  %a = load i32, i32* @tdata
  %b = load i64, i64* @tbss
  %c = load i32, i32* @plain
  %bt = trunc i64 %b to i32
  %s = add i32 %a, %bt
  %t = add i32 %s, %c
  ret i32 %t
}
