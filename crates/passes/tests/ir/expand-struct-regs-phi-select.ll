; PASSES: expand-struct-regs
; Nested structs through selects and phis, with undef fields.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%inner = type { i8, i64 }
%outer = type { i32, %inner }

; CHECK-LABEL: define i64 @f(i1 %c, %outer* %p, %outer* %q)
define i64 @f(i1 %c, %outer* %p, %outer* %q) {
entry:
  %a = load %outer, %outer* %p
  %b = insertvalue %outer undef, i32 7, 0
  br i1 %c, label %l, label %join
l:
  br label %join
join:
; CHECK-NOT: phi %outer
; CHECK-NOT: select i1 %c, %outer
  %m = phi %outer [ %a, %entry ], [ %b, %l ]
  %s = select i1 %c, %outer %m, %outer %a
  store %outer %s, %outer* %q
  %in = extractvalue %outer %s, 1
  %v = extractvalue %inner %in, 1
  ret i64 %v
}
