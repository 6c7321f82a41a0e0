; PASSES: replace-ptrs-with-ints
; Pointer parameters, results, phis and memory values become i32.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i32 %p, i32 %q, i1 %c)
define i32* @f(i32* %p, i32* %q, i1 %c) {
; CHECK: select i1 %c, i32 %p, i32 %q
  %s = select i1 %c, i32* %p, i32* %q
; CHECK: inttoptr i32 {{.*}} to i32*
  %v = load i32, i32* %s
  %w = add i32 %v, 1
  store i32 %w, i32* %s
; CHECK: ret i32
  ret i32* %s
}

; CHECK-LABEL: define void @ptr_in_memory(i32 %pp, i32 %v)
define void @ptr_in_memory(i32** %pp, i32* %v) {
; CHECK: store i32 %v, i32*
  store i32* %v, i32** %pp
  ret void
}

; Allocas stay pointers.
; CHECK-LABEL: define i32 @local()
define i32 @local() {
; CHECK: %a = alloca i8, i32 4
  %a = alloca i8, i32 4
  %b = bitcast i8* %a to i32*
  store i32 3, i32* %b
  %v = load i32, i32* %b
  ret i32 %v
}
