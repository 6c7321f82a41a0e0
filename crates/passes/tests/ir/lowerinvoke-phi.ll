; PASSES: lowerinvoke
; The landing pad's phi loses its entries for the blocks whose invokes became calls.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define i32 @caller(i1 %c)
define i32 @caller(i1 %c) personality i32 (...)* @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b
a:
; CHECK: call i32 @may_throw(i32 1)
  %r = invoke i32 @may_throw(i32 1) to label %ok unwind label %lpad
b:
  %s = invoke i32 @may_throw(i32 2) to label %ok2 unwind label %lpad
ok2:
  ret i32 %s
ok:
  ret i32 %r
lpad:
; CHECK-NOT: phi i32 [ 1, %a ]
; CHECK-NOT: [ 2, %b ]
  %p = phi i32 [ 1, %a ], [ 2, %b ]
  %lp = landingpad { i8*, i32 } cleanup
  ret i32 %p
}
