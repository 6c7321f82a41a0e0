; PASSES: replace-ptrs-with-ints
; A phi of pointers whose block a switch reaches on several edges has one entry per edge
; from the same predecessor, all with one value; converted, they must still carry one
; value (one ptrtoint in the predecessor, not one per entry, which LLVM's verifier
; refuses). Found in newlib's locale code at -O0 (a switch returning &__ascii_wctomb).
; The runner checks the result with opt's verifier and runs both with lli-14.
; CHECK-LABEL: pick:
; CHECK: ptrtoint i32* @g to i32
; CHECK-NOT: ptrtoint
; CHECK: switch
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@g = global i32 7
@h = global i32 8

define i32* @select(i32 %k) {
pick:
  switch i32 %k, label %other [
    i32 1, label %join
    i32 2, label %join
    i32 3, label %join
  ]
other:
  br label %join
join:
  %v = phi i32* [ @g, %pick ], [ @g, %pick ], [ @g, %pick ], [ @h, %other ]
  ret i32* %v
}

define i32 @main() {
entry:
  %a = call i32* @select(i32 2)
  %b = call i32* @select(i32 9)
  %ag = icmp eq i32* %a, @g
  %bh = icmp eq i32* %b, @h
  %both = and i1 %ag, %bh
  %r = zext i1 %both to i32
  ret i32 %r
}
