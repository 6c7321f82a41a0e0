; PASSES: nacl-promote-i1-ops,expand-constant-expr
; Arithmetic and ordered compares on i1 that exist only as constant expressions (clang
; folds `(&a[22] == &b) > 1`-like conditions into one) appear after nacl-promote-i1-ops has
; run: the expansion widens them to i8 as that pass would (csmith seed 1533). Run before
; and after with lli-14.
; CHECK-NOT: icmp {{[us][lg][te]}} i1
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@a = global [4 x i32] zeroinitializer
@b = global i32 0

define i32 @main() {
entry:
; CHECK-LABEL: entry:
; CHECK: icmp ugt i8
  br i1 icmp ugt (i1 icmp eq (i32* getelementptr ([4 x i32], [4 x i32]* @a, i32 0, i32 1), i32* @b), i1 true), label %yes, label %no
yes:
  ret i32 1
no:
; CHECK: icmp slt i8
  %c = select i1 icmp slt (i1 icmp eq (i32* getelementptr ([4 x i32], [4 x i32]* @a, i32 0, i32 2), i32* @b), i1 false), i32 10, i32 20
  ret i32 %c
}
