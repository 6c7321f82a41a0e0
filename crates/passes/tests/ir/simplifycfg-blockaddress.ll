; PASSES: simplifycfg, expand-indirectbr
; Removing an unreachable block renumbers the blocks after it: their addresses follow
; them (into a global table and an instruction), and the removed block's address becomes
; inttoptr (i32 1), as LLVM's BasicBlock destructor makes it. Run before and after.
; CHECK: @table = internal global [3 x i8*] [i8* inttoptr (i32 1 to i8*), i8* inttoptr (i32 2 to i8*), i8* inttoptr (i32 3 to i8*)]
; CHECK: @gone = internal global i8* inttoptr (i32 1 to i8*)
; CHECK-NOT: blockaddress
; CHECK-NOT: dead:
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@table = internal global [3 x i8*] [i8* blockaddress(@pick, %ten), i8* blockaddress(@pick, %twenty), i8* blockaddress(@pick, %thirty)]
@gone = internal global i8* blockaddress(@pick, %dead)

define internal i32 @pick(i32 %i) {
entry:
  %slot = getelementptr [3 x i8*], [3 x i8*]* @table, i32 0, i32 %i
  %target = load i8*, i8** %slot
  %last = icmp eq i32 %i, 2
  %chosen = select i1 %last, i8* blockaddress(@pick, %thirty), i8* %target
  indirectbr i8* %chosen, [label %ten, label %twenty, label %thirty]
dead:
  ret i32 99
ten:
  ret i32 10
twenty:
  ret i32 20
thirty:
  ret i32 30
}

define i32 @main() {
  %a = call i32 @pick(i32 0)
  %b = call i32 @pick(i32 1)
  %c = call i32 @pick(i32 2)
  %ab = add i32 %a, %b
  %abc = add i32 %ab, %c
  ret i32 %abc
}
