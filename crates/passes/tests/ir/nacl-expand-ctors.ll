; PASSES: nacl-expand-ctors
; llvm.global_ctors becomes __init_array_start (by priority), and __init_array_end points
; just past it; the same for dtors and __fini_array.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@llvm.global_ctors = appending global [3 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 300, void ()* @late, i8* null }, { i32, void ()*, i8* } { i32 100, void ()* @early, i8* null }, { i32, void ()*, i8* } { i32 200, void ()* @middle, i8* null }]
@llvm.global_dtors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @fini, i8* null }]
; CHECK-NOT: llvm.global_ctors
; CHECK-NOT: llvm.global_dtors

@__init_array_start = external global [0 x void ()*]
@__init_array_end = external global [0 x void ()*]
@__fini_array_start = external global [0 x void ()*]
@__fini_array_end = external global [0 x void ()*]

; CHECK: @__init_array_start = internal constant [3 x void ()*] [void ()* @early, void ()* @middle, void ()* @late]
; CHECK: @__fini_array_start = internal constant [1 x void ()*] [void ()* @fini]

define void @early() {
  ret void
}
define void @middle() {
  ret void
}
define void @late() {
  ret void
}
define void @fini() {
  ret void
}

; CHECK-LABEL: define i32 @count()
define i32 @count() {
; CHECK: getelementptr ([3 x void ()*], [3 x void ()*]* @__init_array_start, i32 1)
  %s = ptrtoint [0 x void ()*]* @__init_array_start to i32
  %e = ptrtoint [0 x void ()*]* @__init_array_end to i32
  %fs = ptrtoint [0 x void ()*]* @__fini_array_start to i32
  %fe = ptrtoint [0 x void ()*]* @__fini_array_end to i32
  %d = sub i32 %e, %s
  %fd = sub i32 %fe, %fs
  %r = add i32 %d, %fd
  ret i32 %r
}
