; PASSES: nacl-expand-modern-intrinsics
; The expansions compute what LLVM's min/max, saturating, funnel-shift, abs intrinsics
; and freeze compute, on a grid of operands (run before and after with lli-14).
; CHECK-NOT: call {{.*}}@llvm.
; CHECK-NOT: freeze
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"
declare i16 @llvm.abs.i16(i16, i1)
declare i16 @llvm.fshl.i16(i16, i16, i16)
declare i16 @llvm.fshr.i16(i16, i16, i16)
declare i16 @llvm.sadd.sat.i16(i16, i16)
declare i16 @llvm.smax.i16(i16, i16)
declare i16 @llvm.smin.i16(i16, i16)
declare i16 @llvm.ssub.sat.i16(i16, i16)
declare i16 @llvm.uadd.sat.i16(i16, i16)
declare i16 @llvm.umax.i16(i16, i16)
declare i16 @llvm.umin.i16(i16, i16)
declare i16 @llvm.usub.sat.i16(i16, i16)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.ssub.sat.i32(i32, i32)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i64 @llvm.abs.i64(i64, i1)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i64 @llvm.fshr.i64(i64, i64, i64)
declare i64 @llvm.sadd.sat.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.ssub.sat.i64(i64, i64)
declare i64 @llvm.uadd.sat.i64(i64, i64)
declare i64 @llvm.umax.i64(i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.usub.sat.i64(i64, i64)
declare i8 @llvm.abs.i8(i8, i1)
declare i8 @llvm.fshl.i8(i8, i8, i8)
declare i8 @llvm.fshr.i8(i8, i8, i8)
declare i8 @llvm.sadd.sat.i8(i8, i8)
declare i8 @llvm.smax.i8(i8, i8)
declare i8 @llvm.smin.i8(i8, i8)
declare i8 @llvm.ssub.sat.i8(i8, i8)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i8 @llvm.umax.i8(i8, i8)
declare i8 @llvm.umin.i8(i8, i8)
declare i8 @llvm.usub.sat.i8(i8, i8)
define i32 @main() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %h0 = phi i64 [ 1469598103934665603, %entry ], [ %h.out, %outer.latch ]
  %ka = mul i64 %i, -7046029254386353131
  %sa = and i64 %i, 63
  %a64 = ashr i64 %ka, %sa
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %h = phi i64 [ %h0, %outer ], [ %h.next, %inner ]
  %kb = mul i64 %j, -4658895280553007687
  %sb = mul i64 %j, 7
  %sb2 = and i64 %sb, 63
  %b64 = ashr i64 %kb, %sb2
  %x8 = trunc i64 %a64 to i8
  %y8 = trunc i64 %b64 to i8
  %c8 = trunc i64 %kb to i8
  %smax8 = call i8 @llvm.smax.i8(i8 %x8, i8 %y8)
  %smin8 = call i8 @llvm.smin.i8(i8 %x8, i8 %y8)
  %umax8 = call i8 @llvm.umax.i8(i8 %x8, i8 %y8)
  %umin8 = call i8 @llvm.umin.i8(i8 %x8, i8 %y8)
  %uadd_sat8 = call i8 @llvm.uadd.sat.i8(i8 %x8, i8 %y8)
  %sadd_sat8 = call i8 @llvm.sadd.sat.i8(i8 %x8, i8 %y8)
  %usub_sat8 = call i8 @llvm.usub.sat.i8(i8 %x8, i8 %y8)
  %ssub_sat8 = call i8 @llvm.ssub.sat.i8(i8 %x8, i8 %y8)
  %fshl8 = call i8 @llvm.fshl.i8(i8 %x8, i8 %y8, i8 %c8)
  %fshr8 = call i8 @llvm.fshr.i8(i8 %x8, i8 %y8, i8 %c8)
  %abs8 = call i8 @llvm.abs.i8(i8 %x8, i1 false)
  %fr8 = freeze i8 %x8
  %smax8.e = zext i8 %smax8 to i64
  %smin8.e = zext i8 %smin8 to i64
  %umax8.e = zext i8 %umax8 to i64
  %umin8.e = zext i8 %umin8 to i64
  %uadd_sat8.e = zext i8 %uadd_sat8 to i64
  %sadd_sat8.e = zext i8 %sadd_sat8 to i64
  %usub_sat8.e = zext i8 %usub_sat8 to i64
  %ssub_sat8.e = zext i8 %ssub_sat8 to i64
  %fshl8.e = zext i8 %fshl8 to i64
  %fshr8.e = zext i8 %fshr8 to i64
  %abs8.e = zext i8 %abs8 to i64
  %fr8.e = zext i8 %fr8 to i64
  %x16 = trunc i64 %a64 to i16
  %y16 = trunc i64 %b64 to i16
  %c16 = trunc i64 %kb to i16
  %smax16 = call i16 @llvm.smax.i16(i16 %x16, i16 %y16)
  %smin16 = call i16 @llvm.smin.i16(i16 %x16, i16 %y16)
  %umax16 = call i16 @llvm.umax.i16(i16 %x16, i16 %y16)
  %umin16 = call i16 @llvm.umin.i16(i16 %x16, i16 %y16)
  %uadd_sat16 = call i16 @llvm.uadd.sat.i16(i16 %x16, i16 %y16)
  %sadd_sat16 = call i16 @llvm.sadd.sat.i16(i16 %x16, i16 %y16)
  %usub_sat16 = call i16 @llvm.usub.sat.i16(i16 %x16, i16 %y16)
  %ssub_sat16 = call i16 @llvm.ssub.sat.i16(i16 %x16, i16 %y16)
  %fshl16 = call i16 @llvm.fshl.i16(i16 %x16, i16 %y16, i16 %c16)
  %fshr16 = call i16 @llvm.fshr.i16(i16 %x16, i16 %y16, i16 %c16)
  %abs16 = call i16 @llvm.abs.i16(i16 %x16, i1 false)
  %fr16 = freeze i16 %x16
  %smax16.e = zext i16 %smax16 to i64
  %smin16.e = zext i16 %smin16 to i64
  %umax16.e = zext i16 %umax16 to i64
  %umin16.e = zext i16 %umin16 to i64
  %uadd_sat16.e = zext i16 %uadd_sat16 to i64
  %sadd_sat16.e = zext i16 %sadd_sat16 to i64
  %usub_sat16.e = zext i16 %usub_sat16 to i64
  %ssub_sat16.e = zext i16 %ssub_sat16 to i64
  %fshl16.e = zext i16 %fshl16 to i64
  %fshr16.e = zext i16 %fshr16 to i64
  %abs16.e = zext i16 %abs16 to i64
  %fr16.e = zext i16 %fr16 to i64
  %x32 = trunc i64 %a64 to i32
  %y32 = trunc i64 %b64 to i32
  %c32 = trunc i64 %kb to i32
  %smax32 = call i32 @llvm.smax.i32(i32 %x32, i32 %y32)
  %smin32 = call i32 @llvm.smin.i32(i32 %x32, i32 %y32)
  %umax32 = call i32 @llvm.umax.i32(i32 %x32, i32 %y32)
  %umin32 = call i32 @llvm.umin.i32(i32 %x32, i32 %y32)
  %uadd_sat32 = call i32 @llvm.uadd.sat.i32(i32 %x32, i32 %y32)
  %sadd_sat32 = call i32 @llvm.sadd.sat.i32(i32 %x32, i32 %y32)
  %usub_sat32 = call i32 @llvm.usub.sat.i32(i32 %x32, i32 %y32)
  %ssub_sat32 = call i32 @llvm.ssub.sat.i32(i32 %x32, i32 %y32)
  %fshl32 = call i32 @llvm.fshl.i32(i32 %x32, i32 %y32, i32 %c32)
  %fshr32 = call i32 @llvm.fshr.i32(i32 %x32, i32 %y32, i32 %c32)
  %abs32 = call i32 @llvm.abs.i32(i32 %x32, i1 false)
  %fr32 = freeze i32 %x32
  %smax32.e = zext i32 %smax32 to i64
  %smin32.e = zext i32 %smin32 to i64
  %umax32.e = zext i32 %umax32 to i64
  %umin32.e = zext i32 %umin32 to i64
  %uadd_sat32.e = zext i32 %uadd_sat32 to i64
  %sadd_sat32.e = zext i32 %sadd_sat32 to i64
  %usub_sat32.e = zext i32 %usub_sat32 to i64
  %ssub_sat32.e = zext i32 %ssub_sat32 to i64
  %fshl32.e = zext i32 %fshl32 to i64
  %fshr32.e = zext i32 %fshr32 to i64
  %abs32.e = zext i32 %abs32 to i64
  %fr32.e = zext i32 %fr32 to i64
  %x64 = add i64 %a64, 0
  %y64 = add i64 %b64, 0
  %c64 = add i64 %kb, 0
  %smax64 = call i64 @llvm.smax.i64(i64 %x64, i64 %y64)
  %smin64 = call i64 @llvm.smin.i64(i64 %x64, i64 %y64)
  %umax64 = call i64 @llvm.umax.i64(i64 %x64, i64 %y64)
  %umin64 = call i64 @llvm.umin.i64(i64 %x64, i64 %y64)
  %uadd_sat64 = call i64 @llvm.uadd.sat.i64(i64 %x64, i64 %y64)
  %sadd_sat64 = call i64 @llvm.sadd.sat.i64(i64 %x64, i64 %y64)
  %usub_sat64 = call i64 @llvm.usub.sat.i64(i64 %x64, i64 %y64)
  %ssub_sat64 = call i64 @llvm.ssub.sat.i64(i64 %x64, i64 %y64)
  %fshl64 = call i64 @llvm.fshl.i64(i64 %x64, i64 %y64, i64 %c64)
  %fshr64 = call i64 @llvm.fshr.i64(i64 %x64, i64 %y64, i64 %c64)
  %abs64 = call i64 @llvm.abs.i64(i64 %x64, i1 false)
  %fr64 = freeze i64 %x64
  %smax64.e = add i64 %smax64, 0
  %smin64.e = add i64 %smin64, 0
  %umax64.e = add i64 %umax64, 0
  %umin64.e = add i64 %umin64, 0
  %uadd_sat64.e = add i64 %uadd_sat64, 0
  %sadd_sat64.e = add i64 %sadd_sat64, 0
  %usub_sat64.e = add i64 %usub_sat64, 0
  %ssub_sat64.e = add i64 %ssub_sat64, 0
  %fshl64.e = add i64 %fshl64, 0
  %fshr64.e = add i64 %fshr64, 0
  %abs64.e = add i64 %abs64, 0
  %fr64.e = add i64 %fr64, 0
  %acc0.m1 = mul i64 %smax8.e, 31
  %acc0.1 = add i64 %acc0.m1, %smin8.e
  %acc0.m2 = mul i64 %acc0.1, 31
  %acc0.2 = add i64 %acc0.m2, %umax8.e
  %acc0.m3 = mul i64 %acc0.2, 31
  %acc0.3 = add i64 %acc0.m3, %umin8.e
  %acc0.m4 = mul i64 %acc0.3, 31
  %acc0.4 = add i64 %acc0.m4, %uadd_sat8.e
  %acc0.m5 = mul i64 %acc0.4, 31
  %acc0.5 = add i64 %acc0.m5, %sadd_sat8.e
  %acc0.m6 = mul i64 %acc0.5, 31
  %acc0.6 = add i64 %acc0.m6, %usub_sat8.e
  %acc0.m7 = mul i64 %acc0.6, 31
  %acc0.7 = add i64 %acc0.m7, %ssub_sat8.e
  %acc0.m8 = mul i64 %acc0.7, 31
  %acc0.8 = add i64 %acc0.m8, %fshl8.e
  %acc0.m9 = mul i64 %acc0.8, 31
  %acc0.9 = add i64 %acc0.m9, %fshr8.e
  %acc0.m10 = mul i64 %acc0.9, 31
  %acc0.10 = add i64 %acc0.m10, %abs8.e
  %acc0.m11 = mul i64 %acc0.10, 31
  %acc0.11 = add i64 %acc0.m11, %fr8.e
  %acc0.m12 = mul i64 %acc0.11, 31
  %acc0.12 = add i64 %acc0.m12, %smax16.e
  %acc0.m13 = mul i64 %acc0.12, 31
  %acc0.13 = add i64 %acc0.m13, %smin16.e
  %acc0.m14 = mul i64 %acc0.13, 31
  %acc0.14 = add i64 %acc0.m14, %umax16.e
  %acc0.m15 = mul i64 %acc0.14, 31
  %acc0.15 = add i64 %acc0.m15, %umin16.e
  %acc0.m16 = mul i64 %acc0.15, 31
  %acc0.16 = add i64 %acc0.m16, %uadd_sat16.e
  %acc0.m17 = mul i64 %acc0.16, 31
  %acc0.17 = add i64 %acc0.m17, %sadd_sat16.e
  %acc0.m18 = mul i64 %acc0.17, 31
  %acc0.18 = add i64 %acc0.m18, %usub_sat16.e
  %acc0.m19 = mul i64 %acc0.18, 31
  %acc0.19 = add i64 %acc0.m19, %ssub_sat16.e
  %acc0.m20 = mul i64 %acc0.19, 31
  %acc0.20 = add i64 %acc0.m20, %fshl16.e
  %acc0.m21 = mul i64 %acc0.20, 31
  %acc0.21 = add i64 %acc0.m21, %fshr16.e
  %acc0.m22 = mul i64 %acc0.21, 31
  %acc0.22 = add i64 %acc0.m22, %abs16.e
  %acc0.m23 = mul i64 %acc0.22, 31
  %acc0.23 = add i64 %acc0.m23, %fr16.e
  %acc0.m24 = mul i64 %acc0.23, 31
  %acc0.24 = add i64 %acc0.m24, %smax32.e
  %acc0.m25 = mul i64 %acc0.24, 31
  %acc0.25 = add i64 %acc0.m25, %smin32.e
  %acc0.m26 = mul i64 %acc0.25, 31
  %acc0.26 = add i64 %acc0.m26, %umax32.e
  %acc0.m27 = mul i64 %acc0.26, 31
  %acc0.27 = add i64 %acc0.m27, %umin32.e
  %acc0.m28 = mul i64 %acc0.27, 31
  %acc0.28 = add i64 %acc0.m28, %uadd_sat32.e
  %acc0.m29 = mul i64 %acc0.28, 31
  %acc0.29 = add i64 %acc0.m29, %sadd_sat32.e
  %acc0.m30 = mul i64 %acc0.29, 31
  %acc0.30 = add i64 %acc0.m30, %usub_sat32.e
  %acc0.m31 = mul i64 %acc0.30, 31
  %acc0.31 = add i64 %acc0.m31, %ssub_sat32.e
  %acc0.m32 = mul i64 %acc0.31, 31
  %acc0.32 = add i64 %acc0.m32, %fshl32.e
  %acc0.m33 = mul i64 %acc0.32, 31
  %acc0.33 = add i64 %acc0.m33, %fshr32.e
  %acc0.m34 = mul i64 %acc0.33, 31
  %acc0.34 = add i64 %acc0.m34, %abs32.e
  %acc0.m35 = mul i64 %acc0.34, 31
  %acc0.35 = add i64 %acc0.m35, %fr32.e
  %acc0.m36 = mul i64 %acc0.35, 31
  %acc0.36 = add i64 %acc0.m36, %smax64.e
  %acc0.m37 = mul i64 %acc0.36, 31
  %acc0.37 = add i64 %acc0.m37, %smin64.e
  %acc0.m38 = mul i64 %acc0.37, 31
  %acc0.38 = add i64 %acc0.m38, %umax64.e
  %acc0.m39 = mul i64 %acc0.38, 31
  %acc0.39 = add i64 %acc0.m39, %umin64.e
  %acc0.m40 = mul i64 %acc0.39, 31
  %acc0.40 = add i64 %acc0.m40, %uadd_sat64.e
  %acc0.m41 = mul i64 %acc0.40, 31
  %acc0.41 = add i64 %acc0.m41, %sadd_sat64.e
  %acc0.m42 = mul i64 %acc0.41, 31
  %acc0.42 = add i64 %acc0.m42, %usub_sat64.e
  %acc0.m43 = mul i64 %acc0.42, 31
  %acc0.43 = add i64 %acc0.m43, %ssub_sat64.e
  %acc0.m44 = mul i64 %acc0.43, 31
  %acc0.44 = add i64 %acc0.m44, %fshl64.e
  %acc0.m45 = mul i64 %acc0.44, 31
  %acc0.45 = add i64 %acc0.m45, %fshr64.e
  %acc0.m46 = mul i64 %acc0.45, 31
  %acc0.46 = add i64 %acc0.m46, %abs64.e
  %acc0.m47 = mul i64 %acc0.46, 31
  %acc0.47 = add i64 %acc0.m47, %fr64.e
  %hx = xor i64 %h, %acc0.47
  %h.next = mul i64 %hx, 1099511628211
  %j.next = add i64 %j, 1
  %jd = icmp eq i64 %j.next, 48
  br i1 %jd, label %outer.latch, label %inner
outer.latch:
  %h.out = phi i64 [ %h.next, %inner ]
  %i.next = add i64 %i, 1
  %id = icmp eq i64 %i.next, 48
  br i1 %id, label %done, label %outer
done:
  %f1 = lshr i64 %h.out, 32
  %f2 = xor i64 %h.out, %f1
  %f3 = lshr i64 %f2, 16
  %f4 = xor i64 %f2, %f3
  %f5 = lshr i64 %f4, 8
  %f6 = xor i64 %f4, %f5
  %r = trunc i64 %f6 to i32
  %r8 = and i32 %r, 255
  ret i32 %r8
}

