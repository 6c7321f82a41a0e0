; PASSES: expand-byval
; A byval argument becomes a copy made by the caller, passed by plain pointer; sret
; becomes a plain pointer.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%S = type { i32, i32, i32 }

; CHECK-LABEL: define i32 @callee(%S* {{(align 4 )?}}%s)
; CHECK-NOT: byval
define i32 @callee(%S* byval(%S) align 4 %s) {
  %p = getelementptr %S, %S* %s, i32 0, i32 1
  %v = load i32, i32* %p
  ret i32 %v
}

; CHECK-LABEL: define void @make(%S* %out)
; CHECK-NOT: sret
define void @make(%S* sret(%S) %out) {
  %p = getelementptr %S, %S* %out, i32 0, i32 0
  store i32 1, i32* %p
  ret void
}

; CHECK-LABEL: define i32 @caller(%S* %arg)
define i32 @caller(%S* %arg) {
; CHECK: [[COPY:%.*]] = alloca %S
; CHECK: call void @llvm.memcpy.p0i8.p0i8.i32({{.*}}, i32 12, i1 false)
; CHECK: call i32 @callee(%S* {{(align 4 )?}}[[COPY]])
  %r = call i32 @callee(%S* byval(%S) align 4 %arg)
; CHECK: call void @make(%S* %arg)
  call void @make(%S* sret(%S) %arg)
  ret i32 %r
}
