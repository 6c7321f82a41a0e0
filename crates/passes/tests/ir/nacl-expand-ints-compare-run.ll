; PASSES: nacl-expand-ints
; Ordered and equality compares of i80, i128 and i160 (two and three limbs), signed and
; unsigned, on 64 x 64 operand pairs whose top limbs are -2, -1, 0 and 1 (16 operands
; share each, so the lower limbs decide often): the printed hash, before and after the
; pass under lli-14, must be the same. Found by csmith seed 201922 (icmp ult i80).
; CHECK-NOT: icmp {{.*}} i80
; CHECK-NOT: icmp {{.*}} i128
; CHECK-NOT: icmp {{.*}} i160
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"
@fmt = private constant [6 x i8] c"%llu\0A\00"
declare i32 @printf(i8*, ...)
define i32 @main() {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %h0 = phi i64 [ 1469598103934665603, %entry ], [ %h.out, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %h = phi i64 [ %h0, %outer ], [ %h.next, %inner ]
  %a.m = mul i64 %i, -7046029254386353131
  %a.s = and i64 %i, 7
  %a.lo = ashr i64 %a.m, %a.s
  %a.m2 = mul i64 %i, 6364136223846793005
  %a.b = lshr i64 %i, 2
  %a.b1 = and i64 %a.b, 1
  %a.mid = mul i64 %a.m2, %a.b1
  %a.q = lshr i64 %i, 4
  %a.hi = sub i64 %a.q, 2
  %b.m = mul i64 %j, -7046029254386353131
  %b.s = and i64 %j, 7
  %b.lo = ashr i64 %b.m, %b.s
  %b.m2 = mul i64 %j, 6364136223846793005
  %b.b = lshr i64 %j, 2
  %b.b1 = and i64 %b.b, 1
  %b.mid = mul i64 %b.m2, %b.b1
  %b.q = lshr i64 %j, 4
  %b.hi = sub i64 %b.q, 2
  %a80.lo = zext i64 %a.lo to i80
  %a80.hi0 = zext i64 %a.hi to i80
  %a80.hi = shl i80 %a80.hi0, 64
  %a80.x = or i80 %a80.hi, %a80.lo
  %a80 = or i80 %a80.x, 0
  %b80.lo = zext i64 %b.lo to i80
  %b80.hi0 = zext i64 %b.hi to i80
  %b80.hi = shl i80 %b80.hi0, 64
  %b80.x = or i80 %b80.hi, %b80.lo
  %b80 = or i80 %b80.x, 0
  %c80eq = icmp eq i80 %a80, %b80
  %z80eq = zext i1 %c80eq to i64
  %m0 = mul i64 0, 3
  %k0 = add i64 %m0, %z80eq
  %c80ne = icmp ne i80 %a80, %b80
  %z80ne = zext i1 %c80ne to i64
  %m1 = mul i64 %k0, 3
  %k1 = add i64 %m1, %z80ne
  %c80ult = icmp ult i80 %a80, %b80
  %z80ult = zext i1 %c80ult to i64
  %m2 = mul i64 %k1, 3
  %k2 = add i64 %m2, %z80ult
  %c80ule = icmp ule i80 %a80, %b80
  %z80ule = zext i1 %c80ule to i64
  %m3 = mul i64 %k2, 3
  %k3 = add i64 %m3, %z80ule
  %c80ugt = icmp ugt i80 %a80, %b80
  %z80ugt = zext i1 %c80ugt to i64
  %m4 = mul i64 %k3, 3
  %k4 = add i64 %m4, %z80ugt
  %c80uge = icmp uge i80 %a80, %b80
  %z80uge = zext i1 %c80uge to i64
  %m5 = mul i64 %k4, 3
  %k5 = add i64 %m5, %z80uge
  %c80slt = icmp slt i80 %a80, %b80
  %z80slt = zext i1 %c80slt to i64
  %m6 = mul i64 %k5, 3
  %k6 = add i64 %m6, %z80slt
  %c80sle = icmp sle i80 %a80, %b80
  %z80sle = zext i1 %c80sle to i64
  %m7 = mul i64 %k6, 3
  %k7 = add i64 %m7, %z80sle
  %c80sgt = icmp sgt i80 %a80, %b80
  %z80sgt = zext i1 %c80sgt to i64
  %m8 = mul i64 %k7, 3
  %k8 = add i64 %m8, %z80sgt
  %c80sge = icmp sge i80 %a80, %b80
  %z80sge = zext i1 %c80sge to i64
  %m9 = mul i64 %k8, 3
  %k9 = add i64 %m9, %z80sge
  %a128.lo = zext i64 %a.lo to i128
  %a128.hi0 = zext i64 %a.hi to i128
  %a128.hi = shl i128 %a128.hi0, 64
  %a128.x = or i128 %a128.hi, %a128.lo
  %a128 = or i128 %a128.x, 0
  %b128.lo = zext i64 %b.lo to i128
  %b128.hi0 = zext i64 %b.hi to i128
  %b128.hi = shl i128 %b128.hi0, 64
  %b128.x = or i128 %b128.hi, %b128.lo
  %b128 = or i128 %b128.x, 0
  %c128eq = icmp eq i128 %a128, %b128
  %z128eq = zext i1 %c128eq to i64
  %m10 = mul i64 %k9, 3
  %k10 = add i64 %m10, %z128eq
  %c128ne = icmp ne i128 %a128, %b128
  %z128ne = zext i1 %c128ne to i64
  %m11 = mul i64 %k10, 3
  %k11 = add i64 %m11, %z128ne
  %c128ult = icmp ult i128 %a128, %b128
  %z128ult = zext i1 %c128ult to i64
  %m12 = mul i64 %k11, 3
  %k12 = add i64 %m12, %z128ult
  %c128ule = icmp ule i128 %a128, %b128
  %z128ule = zext i1 %c128ule to i64
  %m13 = mul i64 %k12, 3
  %k13 = add i64 %m13, %z128ule
  %c128ugt = icmp ugt i128 %a128, %b128
  %z128ugt = zext i1 %c128ugt to i64
  %m14 = mul i64 %k13, 3
  %k14 = add i64 %m14, %z128ugt
  %c128uge = icmp uge i128 %a128, %b128
  %z128uge = zext i1 %c128uge to i64
  %m15 = mul i64 %k14, 3
  %k15 = add i64 %m15, %z128uge
  %c128slt = icmp slt i128 %a128, %b128
  %z128slt = zext i1 %c128slt to i64
  %m16 = mul i64 %k15, 3
  %k16 = add i64 %m16, %z128slt
  %c128sle = icmp sle i128 %a128, %b128
  %z128sle = zext i1 %c128sle to i64
  %m17 = mul i64 %k16, 3
  %k17 = add i64 %m17, %z128sle
  %c128sgt = icmp sgt i128 %a128, %b128
  %z128sgt = zext i1 %c128sgt to i64
  %m18 = mul i64 %k17, 3
  %k18 = add i64 %m18, %z128sgt
  %c128sge = icmp sge i128 %a128, %b128
  %z128sge = zext i1 %c128sge to i64
  %m19 = mul i64 %k18, 3
  %k19 = add i64 %m19, %z128sge
  %a160.lo = zext i64 %a.lo to i160
  %a160.hi0 = zext i64 %a.hi to i160
  %a160.hi = shl i160 %a160.hi0, 128
  %a160.x = or i160 %a160.hi, %a160.lo
  %a160.mid0 = zext i64 %a.mid to i160
  %a160.mid = shl i160 %a160.mid0, 64
  %a160 = or i160 %a160.x, %a160.mid
  %b160.lo = zext i64 %b.lo to i160
  %b160.hi0 = zext i64 %b.hi to i160
  %b160.hi = shl i160 %b160.hi0, 128
  %b160.x = or i160 %b160.hi, %b160.lo
  %b160.mid0 = zext i64 %b.mid to i160
  %b160.mid = shl i160 %b160.mid0, 64
  %b160 = or i160 %b160.x, %b160.mid
  %c160eq = icmp eq i160 %a160, %b160
  %z160eq = zext i1 %c160eq to i64
  %m20 = mul i64 %k19, 3
  %k20 = add i64 %m20, %z160eq
  %c160ne = icmp ne i160 %a160, %b160
  %z160ne = zext i1 %c160ne to i64
  %m21 = mul i64 %k20, 3
  %k21 = add i64 %m21, %z160ne
  %c160ult = icmp ult i160 %a160, %b160
  %z160ult = zext i1 %c160ult to i64
  %m22 = mul i64 %k21, 3
  %k22 = add i64 %m22, %z160ult
  %c160ule = icmp ule i160 %a160, %b160
  %z160ule = zext i1 %c160ule to i64
  %m23 = mul i64 %k22, 3
  %k23 = add i64 %m23, %z160ule
  %c160ugt = icmp ugt i160 %a160, %b160
  %z160ugt = zext i1 %c160ugt to i64
  %m24 = mul i64 %k23, 3
  %k24 = add i64 %m24, %z160ugt
  %c160uge = icmp uge i160 %a160, %b160
  %z160uge = zext i1 %c160uge to i64
  %m25 = mul i64 %k24, 3
  %k25 = add i64 %m25, %z160uge
  %c160slt = icmp slt i160 %a160, %b160
  %z160slt = zext i1 %c160slt to i64
  %m26 = mul i64 %k25, 3
  %k26 = add i64 %m26, %z160slt
  %c160sle = icmp sle i160 %a160, %b160
  %z160sle = zext i1 %c160sle to i64
  %m27 = mul i64 %k26, 3
  %k27 = add i64 %m27, %z160sle
  %c160sgt = icmp sgt i160 %a160, %b160
  %z160sgt = zext i1 %c160sgt to i64
  %m28 = mul i64 %k27, 3
  %k28 = add i64 %m28, %z160sgt
  %c160sge = icmp sge i160 %a160, %b160
  %z160sge = zext i1 %c160sge to i64
  %m29 = mul i64 %k28, 3
  %k29 = add i64 %m29, %z160sge
  %hx = xor i64 %h, %k29
  %h.next = mul i64 %hx, 1099511628211
  %j.next = add i64 %j, 1
  %jd = icmp eq i64 %j.next, 64
  br i1 %jd, label %outer.latch, label %inner
outer.latch:
  %h.out = phi i64 [ %h.next, %inner ]
  %i.next = add i64 %i, 1
  %id = icmp eq i64 %i.next, 64
  br i1 %id, label %done, label %outer
done:
  %p = call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([6 x i8], [6 x i8]* @fmt, i32 0, i32 0), i64 %h.out)
  ret i32 0
}
