; PASSES: expand-varargs
; A variadic function's address stored in a global or in memory keeps its old type
; through a cast (typed pointers).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @fp = global i32 (i32, ...)* bitcast (i32 (i32, i8*)* @sum to i32 (i32, ...)*)
@fp = global i32 (i32, ...)* @sum

; CHECK-LABEL: define i32 @sum(i32 %n, i8* %0)
define i32 @sum(i32 %n, ...) {
  ret i32 %n
}

; CHECK-LABEL: define void @store(i32 (i32, ...)** %slot)
define void @store(i32 (i32, ...)** %slot) {
; CHECK: store i32 (i32, ...)* bitcast (i32 (i32, i8*)* @sum to i32 (i32, ...)*), i32 (i32, ...)** %slot
  store i32 (i32, ...)* @sum, i32 (i32, ...)** %slot
  ret void
}
