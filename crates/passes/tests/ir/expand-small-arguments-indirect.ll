; PASSES: expand-small-arguments
; Calls through function pointers and function pointers stored in memory see the new types.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; The stored pointer keeps its type, through a cast.
; CHECK: @table = global i8 (i8)* bitcast (i32 (i32)* @id to i8 (i8)*)
@table = global i8 (i8)* @id

define i8 @id(i8 %x) {
  ret i8 %x
}

; CHECK-LABEL: define i32 @call(i8 (i8)* %fp)
define i32 @call(i8 (i8)* %fp) {
; CHECK: [[FP:%.*]] = bitcast i8 (i8)* %fp to i32 (i32)*
; CHECK: call i32 [[FP]](i32
  %r = call i8 %fp(i8 3)
  %e = zext i8 %r to i32
  ret i32 %e
}

declare void @register(i8 (i8)*)

; The address passed or stored keeps its old type through a cast; the direct call does not.
; CHECK-LABEL: define void @take(i8 (i8)** %slot)
define void @take(i8 (i8)** %slot) {
; CHECK: store i8 (i8)* bitcast (i32 (i32)* @id to i8 (i8)*), i8 (i8)** %slot
  store i8 (i8)* @id, i8 (i8)** %slot
; CHECK: call void @register(i8 (i8)* bitcast (i32 (i32)* @id to i8 (i8)*))
  call void @register(i8 (i8)* @id)
; CHECK: call i32 @id(i32
  %r = call i8 @id(i8 1)
  ret void
}
