; PASSES: expand-constant-expr
; A switch whose cases share a successor gives that block's phi one entry per edge from
; the same predecessor, and LLVM requires those entries to carry one value. Expanding a
; constant expression once per entry made two instructions for one block and a module
; LLVM's verifier refuses (found in newlib's locale code, a switch returning
; `(i32) &__ascii_wctomb`, at -O0). Run before and after with lli-14; the runner checks
; the result with opt's verifier.
; CHECK-LABEL: pick:
; CHECK: ptrtoint i32* @g to i32
; CHECK-NOT: ptrtoint i32* @g to i32
; CHECK: switch
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@g = global i32 7

define i32 @select(i32 %k) {
pick:
  switch i32 %k, label %other [
    i32 1, label %join
    i32 2, label %join
    i32 3, label %join
  ]
other:
  br label %join
join:
  %v = phi i32 [ ptrtoint (i32* @g to i32), %pick ], [ ptrtoint (i32* @g to i32), %pick ], [ ptrtoint (i32* @g to i32), %pick ], [ 0, %other ]
  ret i32 %v
}

define i32 @main() {
entry:
  %a = call i32 @select(i32 2)
  %b = call i32 @select(i32 9)
  %same = icmp eq i32 %a, ptrtoint (i32* @g to i32)
  %one = zext i1 %same to i32
  %r = add i32 %one, %b
  ret i32 %r
}
