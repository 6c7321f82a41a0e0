; PASSES: lower-expect
; llvm.expect(x, c) becomes x.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i64 @llvm.expect.i64(i64, i64)
declare i1 @llvm.expect.i1(i1, i1)

; CHECK-LABEL: define i64 @f(i64 %x)
define i64 @f(i64 %x) {
; CHECK-NOT: llvm.expect
; CHECK: %c = icmp eq i64 %x, 0
  %e = call i64 @llvm.expect.i64(i64 %x, i64 1)
  %c = icmp eq i64 %e, 0
  %ce = call i1 @llvm.expect.i1(i1 %c, i1 false)
; CHECK: br i1 %c, label %a, label %b
  br i1 %ce, label %a, label %b
a:
  ret i64 0
b:
; CHECK: ret i64 %x
  ret i64 %e
}
