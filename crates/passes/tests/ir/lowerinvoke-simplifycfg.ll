; PASSES: lowerinvoke, simplifycfg
; Together they remove the landing pads.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define void @caller()
define void @caller() personality i32 (...)* @__gxx_personality_v0 {
entry:
; CHECK: call void @may_throw()
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  ret void
; CHECK-NOT: landingpad
lpad:
  %lp = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %lp
}
