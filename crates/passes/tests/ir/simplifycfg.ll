; PASSES: simplifycfg
; Blocks no path from the entry reaches go, with their phi entries.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i32 %x)
define i32 @f(i32 %x) {
entry:
  br label %join
; CHECK-NOT: dead:
dead:
  %y = add i32 %x, 1
  br label %join
join:
; CHECK: %p = phi i32 [ %x, %entry ]
  %p = phi i32 [ %x, %entry ], [ %y, %dead ]
; CHECK: ret i32 %p
  ret i32 %p
}
