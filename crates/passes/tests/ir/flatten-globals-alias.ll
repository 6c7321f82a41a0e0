; PASSES: flatten-globals
; An alias of a flattened global names it through a cast to its old type.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @g = global [4 x i8] c"\05\00\00\00"
@g = global i32 5
; CHECK: @a = alias i32, i32* bitcast ([4 x i8]* @g to i32*)
@a = alias i32, i32* @g
