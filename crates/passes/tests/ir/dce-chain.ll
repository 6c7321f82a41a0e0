; PASSES: dce
; Dead casts, comparisons, selects and GEPs go; a dead call stays (it may have effects).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i32 @effect()

; CHECK-LABEL: define void @f(i32 %x, i32* %p)
define void @f(i32 %x, i32* %p) {
; CHECK-NOT: %g =
; CHECK-NOT: %c =
; CHECK-NOT: %s =
; CHECK-NOT: %z =
  %g = getelementptr i32, i32* %p, i32 %x
  %c = icmp eq i32 %x, 0
  %s = select i1 %c, i32* %g, i32* %p
  %z = zext i1 %c to i64
; CHECK: call i32 @effect()
  %e = call i32 @effect()
  ret void
}
