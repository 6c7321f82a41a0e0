; PASSES: nacl-expand-ints
; A packed struct's 96-bit bitfield storage unit: loaded as an i64 limb and an i32 limb,
; a field extracted by shifts, written back limb by limb; no integer wider than 64 bits
; is left.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @get(
; CHECK-NOT: load {{.*}}i96,
; CHECK: load volatile i64,
; CHECK: load volatile i32,
; CHECK-NOT: {{shl|ashr|trunc}} i96
; CHECK: ret i32
define i32 @get(i96* %p) {
  %w = load volatile i96, i96* %p, align 1
  %s = shl i96 %w, 30
  %a = ashr i96 %s, 70
  %r = trunc i96 %a to i32
  ret i32 %r
}

; CHECK-LABEL: define void @set(
; CHECK-NOT: {{load|store|and|or|shl}} i96
; CHECK: store i64
; CHECK: store i32
; CHECK: ret void
define void @set(i96* %p, i32 %v) {
  %w = load i96, i96* %p, align 1
  %clear = and i96 %w, 79228162495817593519834398719
  %z = zext i32 %v to i96
  %up = shl i96 %z, 64
  %new = or i96 %clear, %up
  store i96 %new, i96* %p, align 1
  ret void
}

; Run before and after under lli (integers only): shifts across the limb boundary,
; arithmetic and logical, sign and zero extension, truncation, equality and select.
; CHECK-LABEL: define i32 @main()
; CHECK-NOT: i128
; CHECK-NOT: i96
define i32 @main() {
  %a = sext i32 -5 to i128
  %b = shl i128 %a, 70
  %c = ashr i128 %b, 3
  %d = lshr i128 %c, 100
  %e = trunc i128 %d to i32
  %f = zext i64 -1 to i96
  %g = shl i96 %f, 33
  %h = lshr i96 %g, 90
  %i = trunc i96 %h to i32
  %j = xor i128 %c, %b
  %k = icmp ne i128 %j, 0
  %l = select i1 %k, i128 %c, i128 %b
  %m = ashr i128 %l, 120
  %n = trunc i128 %m to i32
  %s1 = add i32 %e, %i
  %s2 = add i32 %s1, %n
  %r = and i32 %s2, 255
  ret i32 %r
}
