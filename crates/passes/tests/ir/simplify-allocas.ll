; PASSES: simplify-allocas
; alloca T, N becomes alloca i8, sizeof(T) * N with an explicit alignment.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i32, double }

; CHECK-LABEL: define void @f(i32 %n)
define void @f(i32 %n) {
; CHECK: alloca i8, i32 16, align 8
; CHECK: bitcast i8* {{.*}} to %S*
  %a = alloca %S
; CHECK: [[SZ:%.*]] = mul i32 %n, 4
; CHECK: alloca i8, i32 [[SZ]], align 4
  %b = alloca i32, i32 %n
  %p = getelementptr %S, %S* %a, i32 0, i32 0
  store i32 1, i32* %p
  store i32 2, i32* %b
  ret void
}
