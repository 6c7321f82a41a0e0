; PASSES: nacl-promote-i1-ops
; i1 arithmetic and comparisons compute the same results on i8 (run before and after
; with lli-14).
; CHECK-NOT: {{(add|sub|mul) i1}}
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

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
  %a1 = trunc i64 %a64 to i1
  %b1 = trunc i64 %b64 to i1
  %add1 = add i1 %a1, %b1
  %add1.z = zext i1 %add1 to i64
  %sub1 = sub i1 %a1, %b1
  %sub1.z = zext i1 %sub1 to i64
  %mul1 = mul i1 %a1, %b1
  %mul1.z = zext i1 %mul1 to i64
  %and1 = and i1 %a1, %b1
  %and1.z = zext i1 %and1 to i64
  %or1 = or i1 %a1, %b1
  %or1.z = zext i1 %or1 to i64
  %xor1 = xor i1 %a1, %b1
  %xor1.z = zext i1 %xor1 to i64
  %ceq = icmp eq i1 %a1, %b1
  %ceq.s = sext i1 %ceq to i64
  %cne = icmp ne i1 %a1, %b1
  %cne.s = sext i1 %cne to i64
  %cult = icmp ult i1 %a1, %b1
  %cult.s = sext i1 %cult to i64
  %cule = icmp ule i1 %a1, %b1
  %cule.s = sext i1 %cule to i64
  %cugt = icmp ugt i1 %a1, %b1
  %cugt.s = sext i1 %cugt to i64
  %cuge = icmp uge i1 %a1, %b1
  %cuge.s = sext i1 %cuge to i64
  %cslt = icmp slt i1 %a1, %b1
  %cslt.s = sext i1 %cslt to i64
  %csle = icmp sle i1 %a1, %b1
  %csle.s = sext i1 %csle to i64
  %csgt = icmp sgt i1 %a1, %b1
  %csgt.s = sext i1 %csgt to i64
  %csge = icmp sge i1 %a1, %b1
  %csge.s = sext i1 %csge to i64
  %acc0.m1 = mul i64 %add1.z, 31
  %acc0.1 = add i64 %acc0.m1, %sub1.z
  %acc0.m2 = mul i64 %acc0.1, 31
  %acc0.2 = add i64 %acc0.m2, %mul1.z
  %acc0.m3 = mul i64 %acc0.2, 31
  %acc0.3 = add i64 %acc0.m3, %and1.z
  %acc0.m4 = mul i64 %acc0.3, 31
  %acc0.4 = add i64 %acc0.m4, %or1.z
  %acc0.m5 = mul i64 %acc0.4, 31
  %acc0.5 = add i64 %acc0.m5, %xor1.z
  %acc0.m6 = mul i64 %acc0.5, 31
  %acc0.6 = add i64 %acc0.m6, %ceq.s
  %acc0.m7 = mul i64 %acc0.6, 31
  %acc0.7 = add i64 %acc0.m7, %cne.s
  %acc0.m8 = mul i64 %acc0.7, 31
  %acc0.8 = add i64 %acc0.m8, %cult.s
  %acc0.m9 = mul i64 %acc0.8, 31
  %acc0.9 = add i64 %acc0.m9, %cule.s
  %acc0.m10 = mul i64 %acc0.9, 31
  %acc0.10 = add i64 %acc0.m10, %cugt.s
  %acc0.m11 = mul i64 %acc0.10, 31
  %acc0.11 = add i64 %acc0.m11, %cuge.s
  %acc0.m12 = mul i64 %acc0.11, 31
  %acc0.12 = add i64 %acc0.m12, %cslt.s
  %acc0.m13 = mul i64 %acc0.12, 31
  %acc0.13 = add i64 %acc0.m13, %csle.s
  %acc0.m14 = mul i64 %acc0.13, 31
  %acc0.14 = add i64 %acc0.m14, %csgt.s
  %acc0.m15 = mul i64 %acc0.14, 31
  %acc0.15 = add i64 %acc0.m15, %csge.s
  %hx = xor i64 %h, %acc0.15
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

