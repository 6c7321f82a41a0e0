; PASSES: nacl-expand-modern-intrinsics
; Intrinsics newer than PNaCl become instructions (or C library calls).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare double @llvm.floor.f64(double)

; CHECK-LABEL: define i32 @minmax(i32 %a, i32 %b)
define i32 @minmax(i32 %a, i32 %b) {
; CHECK-NOT: llvm.smax
; CHECK-NOT: llvm.umin
; CHECK: icmp sgt i32 %a, %b
; CHECK: select i1
; CHECK: icmp ult i32
; CHECK: select i1
  %x = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %y = call i32 @llvm.umin.i32(i32 %x, i32 %b)
  ret i32 %y
}

; CHECK-LABEL: define i32 @absolute(i32 %a)
define i32 @absolute(i32 %a) {
; CHECK-NOT: llvm.abs
; CHECK: sub i32 0, %a
  %x = call i32 @llvm.abs.i32(i32 %a, i1 false)
  ret i32 %x
}

; CHECK-LABEL: define i32 @rotate(i32 %a)
define i32 @rotate(i32 %a) {
; CHECK-NOT: llvm.fshl
; CHECK: shl i32
; CHECK: lshr i32
; CHECK: or i32
  %x = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 5)
  ret i32 %x
}

; CHECK-LABEL: define i32 @sat(i32 %a, i32 %b)
define i32 @sat(i32 %a, i32 %b) {
; CHECK-NOT: llvm.uadd.sat
; CHECK: add i32 %a, %b
; CHECK: select i1 {{.*}}, i32 -1
  %x = call i32 @llvm.uadd.sat.i32(i32 %a, i32 %b)
  ret i32 %x
}

; CHECK-LABEL: define i32 @fr(i32 %a)
define i32 @fr(i32 %a) {
; CHECK-NOT: freeze
  %x = freeze i32 %a
  ret i32 %x
}

; CHECK-LABEL: define double @neg(double %a)
define double @neg(double %a) {
; CHECK-NOT: fneg
; CHECK: fsub double {{-0.000000e\+00|0x8000000000000000}}, %a
  %x = fneg double %a
; CHECK: call double @floor(double
  %y = call double @llvm.floor.f64(double %x)
  ret double %y
}
