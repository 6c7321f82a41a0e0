; PASSES: lowerinvoke
; An invoke becomes a call and a branch to its normal destination; the landing pad
; loses the invoking block as a predecessor.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define i32 @caller(i32 %x)
define i32 @caller(i32 %x) personality i32 (...)* @__gxx_personality_v0 {
entry:
; CHECK: %r = call i32 @may_throw(i32 %x)
; CHECK-NEXT: br label %ok
  %r = invoke i32 @may_throw(i32 %x) to label %ok unwind label %lpad
ok:
; CHECK: ret i32 %r
  ret i32 %r
lpad:
  %lp = landingpad { i8*, i32 } cleanup
  ret i32 0
}
