; PASSES: simplify-allocas
; An array alloca of a struct (llvm-as gives aggregates align 8); an explicit alignment
; stays.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i8, i16 }

; CHECK-LABEL: define void @f()
define void @f() {
; CHECK: alloca i8, i32 40, align 8
  %a = alloca [10 x %S]
; CHECK: alloca i8, i32 4, align 16
  %b = alloca i32, align 16
  %p = getelementptr [10 x %S], [10 x %S]* %a, i32 0, i32 3, i32 1
  store i16 1, i16* %p
  store i32 2, i32* %b
  ret void
}
