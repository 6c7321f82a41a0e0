; PASSES: rewrite-llvm-intrinsic-calls
; llvm.flt.rounds becomes 1, llvm.debugtrap becomes llvm.trap, hints go.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i32 @llvm.flt.rounds()
declare void @llvm.debugtrap()
declare void @llvm.prefetch.p0i8(i8*, i32, i32, i32)
declare void @llvm.assume(i1)
declare void @llvm.lifetime.start.p0i8(i64, i8*)
declare void @llvm.lifetime.end.p0i8(i64, i8*)

; CHECK-LABEL: define i32 @f(i8* %p, i1 %c)
define i32 @f(i8* %p, i1 %c) {
; CHECK-NOT: llvm.prefetch
; CHECK-NOT: llvm.assume
; CHECK-NOT: llvm.lifetime
  %a = alloca i32
  %a8 = bitcast i32* %a to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %a8)
  call void @llvm.prefetch.p0i8(i8* %p, i32 0, i32 3, i32 1)
  call void @llvm.assume(i1 %c)
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %a8)
; CHECK: call void @llvm.trap()
  call void @llvm.debugtrap()
  %r = call i32 @llvm.flt.rounds()
; CHECK: ret i32 1
  ret i32 %r
}
