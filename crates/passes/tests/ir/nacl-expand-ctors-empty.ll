; PASSES: nacl-expand-ctors
; Without llvm.global_ctors (or with an empty or zero list), the arrays are empty, and
; start and end are the same address.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@llvm.global_ctors = appending global [0 x { i32, void ()*, i8* }] zeroinitializer
@__init_array_start = external global [0 x void ()*]
@__init_array_end = external global [0 x void ()*]

; CHECK-NOT: llvm.global_ctors
; CHECK: @__init_array_start = internal constant [0 x void ()*] zeroinitializer

; CHECK-LABEL: define i32 @count()
define i32 @count() {
; CHECK: %s = ptrtoint [0 x void ()*]* @__init_array_start to i32
; CHECK: %e = ptrtoint [0 x void ()*]* {{.*}}@__init_array_start{{.*}} to i32
  %s = ptrtoint [0 x void ()*]* @__init_array_start to i32
  %e = ptrtoint [0 x void ()*]* @__init_array_end to i32
  %d = sub i32 %e, %s
  ret i32 %d
}
