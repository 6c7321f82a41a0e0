; PASSES: constmerge
; pnacl leaves identical constants as they are (merging only saves space).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @a = internal constant [3 x i8] c"ab\00"
; CHECK: @b = internal constant [3 x i8] c"ab\00"
@a = internal constant [3 x i8] c"ab\00"
@b = internal constant [3 x i8] c"ab\00"

define i8* @f(i1 %c) {
  %r = select i1 %c, i8* getelementptr ([3 x i8], [3 x i8]* @a, i32 0, i32 0), i8* getelementptr ([3 x i8], [3 x i8]* @b, i32 0, i32 0)
  ret i8* %r
}
