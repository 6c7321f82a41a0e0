; PASSES: expand-arith-with-overflow
; The expansion computes the same results and overflow bits as LLVM's intrinsics for every
; width, on a grid of operands (the test runs main before and after with lli-14).
; CHECK-NOT: call {{.*}}with.overflow
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"
declare { i8, i1 } @llvm.sadd.with.overflow.i8(i8, i8)
declare { i8, i1 } @llvm.uadd.with.overflow.i8(i8, i8)
declare { i8, i1 } @llvm.ssub.with.overflow.i8(i8, i8)
declare { i8, i1 } @llvm.usub.with.overflow.i8(i8, i8)
declare { i8, i1 } @llvm.smul.with.overflow.i8(i8, i8)
declare { i8, i1 } @llvm.umul.with.overflow.i8(i8, i8)
declare { i16, i1 } @llvm.sadd.with.overflow.i16(i16, i16)
declare { i16, i1 } @llvm.uadd.with.overflow.i16(i16, i16)
declare { i16, i1 } @llvm.ssub.with.overflow.i16(i16, i16)
declare { i16, i1 } @llvm.usub.with.overflow.i16(i16, i16)
declare { i16, i1 } @llvm.smul.with.overflow.i16(i16, i16)
declare { i16, i1 } @llvm.umul.with.overflow.i16(i16, i16)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.ssub.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.smul.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.umul.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.sadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.ssub.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
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
  %sadd8 = call { i8, i1 } @llvm.sadd.with.overflow.i8(i8 %x8, i8 %y8)
  %sadd8.v = extractvalue { i8, i1 } %sadd8, 0
  %sadd8.o = extractvalue { i8, i1 } %sadd8, 1
  %sadd8.ve = zext i8 %sadd8.v to i64
  %sadd8.oe = zext i1 %sadd8.o to i64
  %uadd8 = call { i8, i1 } @llvm.uadd.with.overflow.i8(i8 %x8, i8 %y8)
  %uadd8.v = extractvalue { i8, i1 } %uadd8, 0
  %uadd8.o = extractvalue { i8, i1 } %uadd8, 1
  %uadd8.ve = zext i8 %uadd8.v to i64
  %uadd8.oe = zext i1 %uadd8.o to i64
  %ssub8 = call { i8, i1 } @llvm.ssub.with.overflow.i8(i8 %x8, i8 %y8)
  %ssub8.v = extractvalue { i8, i1 } %ssub8, 0
  %ssub8.o = extractvalue { i8, i1 } %ssub8, 1
  %ssub8.ve = zext i8 %ssub8.v to i64
  %ssub8.oe = zext i1 %ssub8.o to i64
  %usub8 = call { i8, i1 } @llvm.usub.with.overflow.i8(i8 %x8, i8 %y8)
  %usub8.v = extractvalue { i8, i1 } %usub8, 0
  %usub8.o = extractvalue { i8, i1 } %usub8, 1
  %usub8.ve = zext i8 %usub8.v to i64
  %usub8.oe = zext i1 %usub8.o to i64
  %smul8 = call { i8, i1 } @llvm.smul.with.overflow.i8(i8 %x8, i8 %y8)
  %smul8.v = extractvalue { i8, i1 } %smul8, 0
  %smul8.o = extractvalue { i8, i1 } %smul8, 1
  %smul8.ve = zext i8 %smul8.v to i64
  %smul8.oe = zext i1 %smul8.o to i64
  %umul8 = call { i8, i1 } @llvm.umul.with.overflow.i8(i8 %x8, i8 %y8)
  %umul8.v = extractvalue { i8, i1 } %umul8, 0
  %umul8.o = extractvalue { i8, i1 } %umul8, 1
  %umul8.ve = zext i8 %umul8.v to i64
  %umul8.oe = zext i1 %umul8.o to i64
  %x16 = trunc i64 %a64 to i16
  %y16 = trunc i64 %b64 to i16
  %sadd16 = call { i16, i1 } @llvm.sadd.with.overflow.i16(i16 %x16, i16 %y16)
  %sadd16.v = extractvalue { i16, i1 } %sadd16, 0
  %sadd16.o = extractvalue { i16, i1 } %sadd16, 1
  %sadd16.ve = zext i16 %sadd16.v to i64
  %sadd16.oe = zext i1 %sadd16.o to i64
  %uadd16 = call { i16, i1 } @llvm.uadd.with.overflow.i16(i16 %x16, i16 %y16)
  %uadd16.v = extractvalue { i16, i1 } %uadd16, 0
  %uadd16.o = extractvalue { i16, i1 } %uadd16, 1
  %uadd16.ve = zext i16 %uadd16.v to i64
  %uadd16.oe = zext i1 %uadd16.o to i64
  %ssub16 = call { i16, i1 } @llvm.ssub.with.overflow.i16(i16 %x16, i16 %y16)
  %ssub16.v = extractvalue { i16, i1 } %ssub16, 0
  %ssub16.o = extractvalue { i16, i1 } %ssub16, 1
  %ssub16.ve = zext i16 %ssub16.v to i64
  %ssub16.oe = zext i1 %ssub16.o to i64
  %usub16 = call { i16, i1 } @llvm.usub.with.overflow.i16(i16 %x16, i16 %y16)
  %usub16.v = extractvalue { i16, i1 } %usub16, 0
  %usub16.o = extractvalue { i16, i1 } %usub16, 1
  %usub16.ve = zext i16 %usub16.v to i64
  %usub16.oe = zext i1 %usub16.o to i64
  %smul16 = call { i16, i1 } @llvm.smul.with.overflow.i16(i16 %x16, i16 %y16)
  %smul16.v = extractvalue { i16, i1 } %smul16, 0
  %smul16.o = extractvalue { i16, i1 } %smul16, 1
  %smul16.ve = zext i16 %smul16.v to i64
  %smul16.oe = zext i1 %smul16.o to i64
  %umul16 = call { i16, i1 } @llvm.umul.with.overflow.i16(i16 %x16, i16 %y16)
  %umul16.v = extractvalue { i16, i1 } %umul16, 0
  %umul16.o = extractvalue { i16, i1 } %umul16, 1
  %umul16.ve = zext i16 %umul16.v to i64
  %umul16.oe = zext i1 %umul16.o to i64
  %x32 = trunc i64 %a64 to i32
  %y32 = trunc i64 %b64 to i32
  %sadd32 = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %x32, i32 %y32)
  %sadd32.v = extractvalue { i32, i1 } %sadd32, 0
  %sadd32.o = extractvalue { i32, i1 } %sadd32, 1
  %sadd32.ve = zext i32 %sadd32.v to i64
  %sadd32.oe = zext i1 %sadd32.o to i64
  %uadd32 = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %x32, i32 %y32)
  %uadd32.v = extractvalue { i32, i1 } %uadd32, 0
  %uadd32.o = extractvalue { i32, i1 } %uadd32, 1
  %uadd32.ve = zext i32 %uadd32.v to i64
  %uadd32.oe = zext i1 %uadd32.o to i64
  %ssub32 = call { i32, i1 } @llvm.ssub.with.overflow.i32(i32 %x32, i32 %y32)
  %ssub32.v = extractvalue { i32, i1 } %ssub32, 0
  %ssub32.o = extractvalue { i32, i1 } %ssub32, 1
  %ssub32.ve = zext i32 %ssub32.v to i64
  %ssub32.oe = zext i1 %ssub32.o to i64
  %usub32 = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %x32, i32 %y32)
  %usub32.v = extractvalue { i32, i1 } %usub32, 0
  %usub32.o = extractvalue { i32, i1 } %usub32, 1
  %usub32.ve = zext i32 %usub32.v to i64
  %usub32.oe = zext i1 %usub32.o to i64
  %smul32 = call { i32, i1 } @llvm.smul.with.overflow.i32(i32 %x32, i32 %y32)
  %smul32.v = extractvalue { i32, i1 } %smul32, 0
  %smul32.o = extractvalue { i32, i1 } %smul32, 1
  %smul32.ve = zext i32 %smul32.v to i64
  %smul32.oe = zext i1 %smul32.o to i64
  %umul32 = call { i32, i1 } @llvm.umul.with.overflow.i32(i32 %x32, i32 %y32)
  %umul32.v = extractvalue { i32, i1 } %umul32, 0
  %umul32.o = extractvalue { i32, i1 } %umul32, 1
  %umul32.ve = zext i32 %umul32.v to i64
  %umul32.oe = zext i1 %umul32.o to i64
  %x64 = add i64 %a64, 0
  %y64 = add i64 %b64, 0
  %sadd64 = call { i64, i1 } @llvm.sadd.with.overflow.i64(i64 %x64, i64 %y64)
  %sadd64.v = extractvalue { i64, i1 } %sadd64, 0
  %sadd64.o = extractvalue { i64, i1 } %sadd64, 1
  %sadd64.ve = add i64 %sadd64.v, 0
  %sadd64.oe = zext i1 %sadd64.o to i64
  %uadd64 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %x64, i64 %y64)
  %uadd64.v = extractvalue { i64, i1 } %uadd64, 0
  %uadd64.o = extractvalue { i64, i1 } %uadd64, 1
  %uadd64.ve = add i64 %uadd64.v, 0
  %uadd64.oe = zext i1 %uadd64.o to i64
  %ssub64 = call { i64, i1 } @llvm.ssub.with.overflow.i64(i64 %x64, i64 %y64)
  %ssub64.v = extractvalue { i64, i1 } %ssub64, 0
  %ssub64.o = extractvalue { i64, i1 } %ssub64, 1
  %ssub64.ve = add i64 %ssub64.v, 0
  %ssub64.oe = zext i1 %ssub64.o to i64
  %usub64 = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %x64, i64 %y64)
  %usub64.v = extractvalue { i64, i1 } %usub64, 0
  %usub64.o = extractvalue { i64, i1 } %usub64, 1
  %usub64.ve = add i64 %usub64.v, 0
  %usub64.oe = zext i1 %usub64.o to i64
  %smul64 = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %x64, i64 %y64)
  %smul64.v = extractvalue { i64, i1 } %smul64, 0
  %smul64.o = extractvalue { i64, i1 } %smul64, 1
  %smul64.ve = add i64 %smul64.v, 0
  %smul64.oe = zext i1 %smul64.o to i64
  %umul64 = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %x64, i64 %y64)
  %umul64.v = extractvalue { i64, i1 } %umul64, 0
  %umul64.o = extractvalue { i64, i1 } %umul64, 1
  %umul64.ve = add i64 %umul64.v, 0
  %umul64.oe = zext i1 %umul64.o to i64
  %acc0.m1 = mul i64 %sadd8.ve, 31
  %acc0.1 = add i64 %acc0.m1, %sadd8.oe
  %acc0.m2 = mul i64 %acc0.1, 31
  %acc0.2 = add i64 %acc0.m2, %uadd8.ve
  %acc0.m3 = mul i64 %acc0.2, 31
  %acc0.3 = add i64 %acc0.m3, %uadd8.oe
  %acc0.m4 = mul i64 %acc0.3, 31
  %acc0.4 = add i64 %acc0.m4, %ssub8.ve
  %acc0.m5 = mul i64 %acc0.4, 31
  %acc0.5 = add i64 %acc0.m5, %ssub8.oe
  %acc0.m6 = mul i64 %acc0.5, 31
  %acc0.6 = add i64 %acc0.m6, %usub8.ve
  %acc0.m7 = mul i64 %acc0.6, 31
  %acc0.7 = add i64 %acc0.m7, %usub8.oe
  %acc0.m8 = mul i64 %acc0.7, 31
  %acc0.8 = add i64 %acc0.m8, %smul8.ve
  %acc0.m9 = mul i64 %acc0.8, 31
  %acc0.9 = add i64 %acc0.m9, %smul8.oe
  %acc0.m10 = mul i64 %acc0.9, 31
  %acc0.10 = add i64 %acc0.m10, %umul8.ve
  %acc0.m11 = mul i64 %acc0.10, 31
  %acc0.11 = add i64 %acc0.m11, %umul8.oe
  %acc0.m12 = mul i64 %acc0.11, 31
  %acc0.12 = add i64 %acc0.m12, %sadd16.ve
  %acc0.m13 = mul i64 %acc0.12, 31
  %acc0.13 = add i64 %acc0.m13, %sadd16.oe
  %acc0.m14 = mul i64 %acc0.13, 31
  %acc0.14 = add i64 %acc0.m14, %uadd16.ve
  %acc0.m15 = mul i64 %acc0.14, 31
  %acc0.15 = add i64 %acc0.m15, %uadd16.oe
  %acc0.m16 = mul i64 %acc0.15, 31
  %acc0.16 = add i64 %acc0.m16, %ssub16.ve
  %acc0.m17 = mul i64 %acc0.16, 31
  %acc0.17 = add i64 %acc0.m17, %ssub16.oe
  %acc0.m18 = mul i64 %acc0.17, 31
  %acc0.18 = add i64 %acc0.m18, %usub16.ve
  %acc0.m19 = mul i64 %acc0.18, 31
  %acc0.19 = add i64 %acc0.m19, %usub16.oe
  %acc0.m20 = mul i64 %acc0.19, 31
  %acc0.20 = add i64 %acc0.m20, %smul16.ve
  %acc0.m21 = mul i64 %acc0.20, 31
  %acc0.21 = add i64 %acc0.m21, %smul16.oe
  %acc0.m22 = mul i64 %acc0.21, 31
  %acc0.22 = add i64 %acc0.m22, %umul16.ve
  %acc0.m23 = mul i64 %acc0.22, 31
  %acc0.23 = add i64 %acc0.m23, %umul16.oe
  %acc0.m24 = mul i64 %acc0.23, 31
  %acc0.24 = add i64 %acc0.m24, %sadd32.ve
  %acc0.m25 = mul i64 %acc0.24, 31
  %acc0.25 = add i64 %acc0.m25, %sadd32.oe
  %acc0.m26 = mul i64 %acc0.25, 31
  %acc0.26 = add i64 %acc0.m26, %uadd32.ve
  %acc0.m27 = mul i64 %acc0.26, 31
  %acc0.27 = add i64 %acc0.m27, %uadd32.oe
  %acc0.m28 = mul i64 %acc0.27, 31
  %acc0.28 = add i64 %acc0.m28, %ssub32.ve
  %acc0.m29 = mul i64 %acc0.28, 31
  %acc0.29 = add i64 %acc0.m29, %ssub32.oe
  %acc0.m30 = mul i64 %acc0.29, 31
  %acc0.30 = add i64 %acc0.m30, %usub32.ve
  %acc0.m31 = mul i64 %acc0.30, 31
  %acc0.31 = add i64 %acc0.m31, %usub32.oe
  %acc0.m32 = mul i64 %acc0.31, 31
  %acc0.32 = add i64 %acc0.m32, %smul32.ve
  %acc0.m33 = mul i64 %acc0.32, 31
  %acc0.33 = add i64 %acc0.m33, %smul32.oe
  %acc0.m34 = mul i64 %acc0.33, 31
  %acc0.34 = add i64 %acc0.m34, %umul32.ve
  %acc0.m35 = mul i64 %acc0.34, 31
  %acc0.35 = add i64 %acc0.m35, %umul32.oe
  %acc0.m36 = mul i64 %acc0.35, 31
  %acc0.36 = add i64 %acc0.m36, %sadd64.ve
  %acc0.m37 = mul i64 %acc0.36, 31
  %acc0.37 = add i64 %acc0.m37, %sadd64.oe
  %acc0.m38 = mul i64 %acc0.37, 31
  %acc0.38 = add i64 %acc0.m38, %uadd64.ve
  %acc0.m39 = mul i64 %acc0.38, 31
  %acc0.39 = add i64 %acc0.m39, %uadd64.oe
  %acc0.m40 = mul i64 %acc0.39, 31
  %acc0.40 = add i64 %acc0.m40, %ssub64.ve
  %acc0.m41 = mul i64 %acc0.40, 31
  %acc0.41 = add i64 %acc0.m41, %ssub64.oe
  %acc0.m42 = mul i64 %acc0.41, 31
  %acc0.42 = add i64 %acc0.m42, %usub64.ve
  %acc0.m43 = mul i64 %acc0.42, 31
  %acc0.43 = add i64 %acc0.m43, %usub64.oe
  %acc0.m44 = mul i64 %acc0.43, 31
  %acc0.44 = add i64 %acc0.m44, %smul64.ve
  %acc0.m45 = mul i64 %acc0.44, 31
  %acc0.45 = add i64 %acc0.m45, %smul64.oe
  %acc0.m46 = mul i64 %acc0.45, 31
  %acc0.46 = add i64 %acc0.m46, %umul64.ve
  %acc0.m47 = mul i64 %acc0.46, 31
  %acc0.47 = add i64 %acc0.m47, %umul64.oe
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

