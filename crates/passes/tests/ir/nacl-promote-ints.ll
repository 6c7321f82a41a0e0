; PASSES: nacl-promote-ints
; Odd-width integers are computed in the next legal width.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i32 %x)
define i32 @f(i32 %x) {
; CHECK-NOT: i24
; CHECK-NOT: {{i3[^0-9]}}
  %a = trunc i32 %x to i24
  %b = add i24 %a, 1
  %c = zext i24 %b to i32
  %d = trunc i32 %x to i3
  %e = icmp ult i3 %d, 5
  %f = zext i1 %e to i32
  %r = add i32 %c, %f
  ret i32 %r
}

; The zero extension clears the upper bits of the promoted value.
; CHECK-LABEL: define i32 @zext24(i32 %x)
define i32 @zext24(i32 %x) {
; CHECK: and i32 {{.*}}, 16777215
  %a = trunc i32 %x to i24
  %b = add i24 %a, 1
  %c = zext i24 %b to i32
  ret i32 %c
}

; The signed comparison sign-fills first.
; CHECK-LABEL: define i1 @slt(i32 %x, i32 %y)
define i1 @slt(i32 %x, i32 %y) {
; CHECK: shl i32 {{.*}}, 8
; CHECK: ashr i32 {{.*}}, 8
; CHECK: icmp slt i32
  %a = trunc i32 %x to i24
  %b = trunc i32 %y to i24
  %c = icmp slt i24 %a, %b
  ret i1 %c
}

; A load and store of i24 touch exactly three bytes.
; CHECK-LABEL: define void @mem(i24* %p, i24* %q)
define void @mem(i24* %p, i24* %q) {
; CHECK-NOT: load i32
; CHECK-NOT: store i32
; CHECK: load i16
; CHECK: load i8
; CHECK: store i16
; CHECK: store i8
  %v = load i24, i24* %p
  store i24 %v, i24* %q
  ret void
}
