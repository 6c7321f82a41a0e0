; PASSES: expand-struct-regs
; Struct loads, stores, phis, selects, insertvalue and extractvalue become per-field
; scalars.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%pair = type { i32, double }
%nested = type { i8, { i16, i32 } }

; CHECK-LABEL: define void @copy(%pair* %src, %pair* %dst)
define void @copy(%pair* %src, %pair* %dst) {
; CHECK-NOT: load %pair
; CHECK-NOT: store %pair
; CHECK: load i32, i32*
; CHECK: load double, double*
; CHECK: store i32
; CHECK: store double
  %v = load %pair, %pair* %src
  store %pair %v, %pair* %dst
  ret void
}

; CHECK-LABEL: define double @select_field(i1 %c, %pair* %a, %pair* %b)
define double @select_field(i1 %c, %pair* %a, %pair* %b) {
; CHECK-NOT: select i1 %c, %pair
; CHECK: select i1 %c, double
  %va = load %pair, %pair* %a
  %vb = load %pair, %pair* %b
  %s = select i1 %c, %pair %va, %pair %vb
  %f = extractvalue %pair %s, 1
  ret double %f
}

; CHECK-LABEL: define i32 @build(i32 %x, i1 %c)
define i32 @build(i32 %x, i1 %c) {
entry:
  %a = insertvalue %pair undef, i32 %x, 0
  %b = insertvalue %pair %a, double 2.0, 1
  br i1 %c, label %l, label %join
l:
  %d = insertvalue %pair %b, i32 5, 0
  br label %join
join:
; CHECK-NOT: phi %pair
; CHECK: phi i32 [ %x, %entry ], [ 5, %l ]
  %p = phi %pair [ %b, %entry ], [ %d, %l ]
; CHECK-NOT: extractvalue
  %r = extractvalue %pair %p, 0
  ret i32 %r
}

; CHECK-LABEL: define i32 @nested(%nested* %p)
define i32 @nested(%nested* %p) {
; CHECK-NOT: load %nested
; CHECK: load i8,
; CHECK: load i16,
; CHECK: load i32,
  %v = load %nested, %nested* %p
  %w = extractvalue %nested %v, 1, 1
  ret i32 %w
}
