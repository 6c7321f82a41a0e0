; PASSES: nacl-strip-attributes
; Attributes, calling conventions, sections, alignments and arithmetic flags go.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i32 %x, i8* %p)
; CHECK-NOT: section
; CHECK-NOT: align
; CHECK-NOT: #
define fastcc i32 @f(i32 noundef signext %x, i8* nocapture readonly %p) #0 section ".text.f" align 16 {
; CHECK: %a = add i32 %x, 1
  %a = add nsw nuw i32 %x, 1
; CHECK: %s = shl i32 %a, 2
  %s = shl nsw i32 %a, 2
; CHECK: %d = udiv i32 %s, 3
  %d = udiv exact i32 %s, 3
  ret i32 %d
}

; CHECK-LABEL: define i32 @g(i32 %x)
define i32 @g(i32 %x) {
; CHECK: call i32 @f(i32 %x, i8* null)
  %r = call fastcc i32 @f(i32 signext %x, i8* null) #0
  ret i32 %r
}

attributes #0 = { nounwind readnone }
