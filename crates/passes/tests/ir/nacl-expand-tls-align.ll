; PASSES: nacl-expand-tls
; The template is aligned for its most aligned variable; data comes before zeroed bss.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@a = thread_local global i8 1
@b = thread_local global i32 0, align 16
@c = thread_local global i16 2

; CHECK: @__tls_template_alignment = internal constant i32 16

; CHECK-LABEL: define i32 @get()
define i32 @get() {
; CHECK: call i8* @llvm.nacl.read.tp()
  %x = load i8, i8* @a
  %y = load i32, i32* @b
  %z = load i16, i16* @c
  %xe = zext i8 %x to i32
  %ze = zext i16 %z to i32
  %s = add i32 %xe, %y
  %t = add i32 %s, %ze
  ret i32 %t
}
