; PASSES: expand-arith-with-overflow
; The *.with.overflow intrinsics become the arithmetic and a comparison.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)

; CHECK-LABEL: define i1 @uadd(i32 %a, i32 %b)
define i1 @uadd(i32 %a, i32 %b) {
; CHECK-NOT: with.overflow
; CHECK: add i32 %a, %b
; CHECK: icmp ult i32
  %r = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %a, i32 %b)
  %o = extractvalue { i32, i1 } %r, 1
  ret i1 %o
}

; CHECK-LABEL: define i32 @sadd(i32 %a, i32 %b)
define i32 @sadd(i32 %a, i32 %b) {
; CHECK-NOT: with.overflow
; CHECK: add i32 %a, %b
  %r = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  %v = extractvalue { i32, i1 } %r, 0
  %o = extractvalue { i32, i1 } %r, 1
  %s = select i1 %o, i32 0, i32 %v
  ret i32 %s
}

; CHECK-LABEL: define i1 @umul(i64 %a)
define i1 @umul(i64 %a) {
; CHECK-NOT: with.overflow
; CHECK: mul i64 %a, 12
  %r = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 12)
  %o = extractvalue { i64, i1 } %r, 1
  ret i1 %o
}

; CHECK-LABEL: define i1 @usub(i32 %a, i32 %b)
define i1 @usub(i32 %a, i32 %b) {
; CHECK-NOT: with.overflow
; CHECK: sub i32 %a, %b
  %r = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %a, i32 %b)
  %o = extractvalue { i32, i1 } %r, 1
  ret i1 %o
}
