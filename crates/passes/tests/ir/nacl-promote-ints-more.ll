; PASSES: nacl-promote-ints
; Shifts, division and phis on odd widths; an i40 load and store touch five bytes.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @shifts(i32 %x, i32 %n)
define i32 @shifts(i32 %x, i32 %n) {
; CHECK-NOT: i24
; The logical shift right clears the upper bits first, the arithmetic one sign-fills.
; CHECK: and i32 %x, 16777215
; CHECK: lshr i32
  %a = trunc i32 %x to i24
  %s = trunc i32 %n to i24
  %b = lshr i24 %a, %s
  %c = ashr i24 %a, %s
  %d = udiv i24 %b, 3
  %e = sdiv i24 %c, 3
  %f = add i24 %d, %e
  %r = sext i24 %f to i32
  ret i32 %r
}

; CHECK-LABEL: define i64 @phi(i1 %c, i64 %x)
define i64 @phi(i1 %c, i64 %x) {
entry:
  %a = trunc i64 %x to i40
  br i1 %c, label %t, label %j
t:
  %b = add i40 %a, 1
  br label %j
j:
; CHECK: phi i64
  %p = phi i40 [ %a, %entry ], [ %b, %t ]
  %r = zext i40 %p to i64
  ret i64 %r
}

; CHECK-LABEL: define void @mem40(i40* %p, i40* %q)
define void @mem40(i40* %p, i40* %q) {
; CHECK-NOT: load i64
; CHECK-NOT: store i64
; CHECK: load i32
; CHECK: load i8
; CHECK: store i32
; CHECK: store i8
  %v = load i40, i40* %p
  store i40 %v, i40* %q
  ret void
}

; CHECK-LABEL: define i32 @sw(i32 %x)
define i32 @sw(i32 %x) {
  %a = trunc i32 %x to i20
; CHECK: switch i32
  switch i20 %a, label %d [ i20 1, label %one
                            i20 -1, label %minus ]
one:
  ret i32 1
minus:
  ret i32 2
d:
  ret i32 0
}
