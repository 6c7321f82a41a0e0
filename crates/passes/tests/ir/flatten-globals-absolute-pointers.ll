; PASSES: flatten-globals
; A pointer that is a plain number is data, as a C++ vtable's offset-to-top is
; (`inttoptr (i32 -8 to i8*)`), next to the relocations of the rest.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@rtti = global i32 0

; CHECK: @vtable = global <{ [4 x i8], i32 }> <{ [4 x i8] c"\F8\FF\FF\FF", i32 ptrtoint ([4 x i8]* @rtti to i32) }>
@vtable = global [2 x i8*] [i8* inttoptr (i32 -8 to i8*), i8* bitcast (i32* @rtti to i8*)]
; CHECK: @sum = global [4 x i8] c"\0C\00\00\00"
@sum = global i8* inttoptr (i32 add (i32 4, i32 8) to i8*)

define void @_start() {
  ret void
}
