; PASSES: flatten-globals
; Initializers become bytes and relocations.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i16, i32 }

; CHECK: @ints = global [8 x i8] c"\01\00\00\00\02\00\00\00"
@ints = global [2 x i32] [i32 1, i32 2]
; CHECK: @zeros = global [16 x i8] zeroinitializer
@zeros = global [4 x i32] zeroinitializer
; Padding bytes are zero.
; CHECK: @padded = global [8 x i8] c"\03\00\00\00\04\00\00\00"
@padded = global %S { i16 3, i32 4 }
; CHECK: @reloc = global i32 ptrtoint ([8 x i8]* @ints to i32)
@reloc = global i32* getelementptr ([2 x i32], [2 x i32]* @ints, i32 0, i32 0)
; CHECK: @addend = global i32 add (i32 ptrtoint ([8 x i8]* @ints to i32), i32 4)
@addend = global i32* getelementptr ([2 x i32], [2 x i32]* @ints, i32 0, i32 1)
; CHECK: @mixed = global <{ [4 x i8], i32 }> <{ [4 x i8] c"\05\00\00\00", i32 ptrtoint ([16 x i8]* @zeros to i32) }>
@mixed = global { i32, i32* } { i32 5, i32* getelementptr ([4 x i32], [4 x i32]* @zeros, i32 0, i32 0) }

; CHECK-LABEL: define i32 @use()
define i32 @use() {
; CHECK: bitcast [8 x i8]* @padded to %S*
  %p = getelementptr %S, %S* @padded, i32 0, i32 1
  %v = load i32, i32* %p
  ret i32 %v
}
