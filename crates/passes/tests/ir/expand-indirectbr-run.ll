; PASSES: expand-indirectbr
; A threaded interpreter: a static dispatch table of block addresses, one indirectbr that
; every handler jumps back to, and a block address chosen by a select inside the function.
; Run before and after with lli-14: the same result.
; CHECK-NOT: blockaddress
; CHECK-NOT: indirectbr {{.*}}[
; CHECK: @table = internal global [4 x i8*] [i8* inttoptr (i32 1 to i8*), i8* inttoptr (i32 2 to i8*), i8* inttoptr (i32 3 to i8*), i8* inttoptr (i32 4 to i8*)]
; CHECK: switch i32 %indirectbr_cast, label %indirectbr_default [
; CHECK-NEXT: i32 1, label %op_inc
; CHECK-NEXT: i32 2, label %op_dbl
; CHECK-NEXT: i32 3, label %op_dec
; CHECK-NEXT: i32 4, label %op_halt
; CHECK-NEXT: ]
; CHECK: select i1 %zero, i8* inttoptr (i32 4 to i8*), i8* inttoptr (i32 5 to i8*)
; CHECK: switch i32 %indirectbr_cast{{[.0-9]*}}, label %indirectbr_default [
; CHECK-NEXT: i32 4, label %op_halt
; CHECK-NEXT: i32 5, label %dispatch_again
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; From 0: inc, dbl, dbl, inc, dbl, dec, dbl, inc, halt: ((1*2*2+1)*2-1)*2+1 = 19. From the
; decrement (index 5): 3 gives 2, then 5; 1 gives 0, which halts through the select.
@program = internal constant [10 x i32] [i32 0, i32 1, i32 1, i32 0, i32 1, i32 2, i32 1, i32 0, i32 3, i32 3]
@table = internal global [4 x i8*] [i8* blockaddress(@interp, %op_inc), i8* blockaddress(@interp, %op_dbl), i8* blockaddress(@interp, %op_dec), i8* blockaddress(@interp, %op_halt)]

define internal i32 @interp(i32 %start, i32 %acc0) {
entry:
  br label %dispatch
dispatch:
  %pc = phi i32 [ %start, %entry ], [ %pc.next, %op_inc ], [ %pc.next, %op_dbl ], [ %pc.next, %dispatch_again ]
  %acc = phi i32 [ %acc0, %entry ], [ %acc.inc, %op_inc ], [ %acc.dbl, %op_dbl ], [ %acc.dec, %dispatch_again ]
  %pc.next = add i32 %pc, 1
  %op.at = getelementptr [10 x i32], [10 x i32]* @program, i32 0, i32 %pc
  %op = load i32, i32* %op.at
  %slot = getelementptr [4 x i8*], [4 x i8*]* @table, i32 0, i32 %op
  %target = load i8*, i8** %slot
  indirectbr i8* %target, [label %op_inc, label %op_dbl, label %op_dec, label %op_halt]
op_inc:
  %acc.inc = add i32 %acc, 1
  br label %dispatch
op_dbl:
  %acc.dbl = mul i32 %acc, 2
  br label %dispatch
op_dec:
  %acc.dec = sub i32 %acc, 1
  %zero = icmp eq i32 %acc.dec, 0
  %next = select i1 %zero, i8* blockaddress(@interp, %op_halt), i8* blockaddress(@interp, %dispatch_again)
  indirectbr i8* %next, [label %op_halt, label %dispatch_again]
dispatch_again:
  br label %dispatch
op_halt:
  %result = phi i32 [ %acc, %dispatch ], [ %acc.dec, %op_dec ]
  ret i32 %result
}

define i32 @main() {
  %a = call i32 @interp(i32 0, i32 0)
  %b = call i32 @interp(i32 5, i32 3)
  %c = call i32 @interp(i32 5, i32 1)
  %ab = add i32 %a, %b
  %sum = add i32 %ab, %c
  ret i32 %sum
}
