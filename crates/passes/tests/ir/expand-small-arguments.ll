; PASSES: expand-small-arguments
; i1, i8 and i16 parameters and results become i32: the caller extends, the callee
; truncates.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: declare {{(zeroext )?}}i32 @ext(i32, i32)
declare zeroext i8 @ext(i16, i1)

; CHECK-LABEL: @narrow(
; CHECK-SAME: i32 [[A:%[a-z0-9]+]], i32 [[B:%[a-z0-9]+]])
define i16 @narrow(i8 %a, i1 %b) {
; CHECK: trunc i32 [[A]] to i8
; CHECK: trunc i32 [[B]] to i1
  %w = zext i8 %a to i16
  %s = select i1 %b, i16 %w, i16 0
; CHECK: ret i32
  ret i16 %s
}

; CHECK: define i32 @caller(i32 %x)
define i32 @caller(i8 %x) {
; CHECK: call i32 @narrow(i32
  %r = call i16 @narrow(i8 %x, i1 true)
; CHECK: trunc i32 {{.*}} to i16
  %e = sext i16 %r to i32
; CHECK: call {{(zeroext )?}}i32 @ext(i32
  %q = call zeroext i8 @ext(i16 3, i1 false)
  %qe = zext i8 %q to i32
  %s = add i32 %e, %qe
  ret i32 %s
}
