; PASSES: nacl-expand-tls
; The block lies just below the thread pointer: with @d (i32, data, offset 0) and @z
; (i64, zeroed, offset 8) the block is 16 bytes, so @d is at tp - 16 and @z at tp - 8.
; The template is 16 bytes (pnacl keeps the zeroed part in it, so the data to copy is the
; whole template; PNaCl's pass left the zeroed part out).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@d = thread_local global i32 42
@z = thread_local global i64 0
@__tls_template_start = external global i8
@__tls_template_tdata_end = external global i8
@__tls_template_end = external global i8

; CHECK: @__tls_template_alignment = internal constant i32 8

; CHECK-LABEL: define i64 @get()
define i64 @get() {
; CHECK: [[TP:%.*]] = call i8* @llvm.nacl.read.tp()
; CHECK: [[I:%.*]] = ptrtoint i8* [[TP]] to i32
; CHECK: add i32 [[I]], -16
; CHECK: add i32 [[I]], -8
  %a = load i32, i32* @d
  %b = load i64, i64* @z
  %ae = zext i32 %a to i64
  %s = add i64 %ae, %b
  ret i64 %s
}

; CHECK-LABEL: define i32 @sizes()
; CHECK: %t = ptrtoint i8* getelementptr (i8, i8* bitcast ({{.*}}* @__tls_template_start to i8*), i32 16) to i32
; CHECK: %e = ptrtoint i8* getelementptr (i8, i8* bitcast ({{.*}}* @__tls_template_start to i8*), i32 16) to i32
define i32 @sizes() {
  %s = ptrtoint i8* @__tls_template_start to i32
  %t = ptrtoint i8* @__tls_template_tdata_end to i32
  %e = ptrtoint i8* @__tls_template_end to i32
  %data = sub i32 %t, %s
  %all = sub i32 %e, %s
  %r = shl i32 %data, 8
  %q = or i32 %r, %all
  ret i32 %q
}
