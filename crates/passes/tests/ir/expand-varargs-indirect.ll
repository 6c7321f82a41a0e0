; PASSES: expand-varargs
; Calls through a pointer of variadic function type, va_copy, and a call without
; variable arguments.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

declare void @llvm.va_start(i8*)
declare void @llvm.va_copy(i8*, i8*)
declare void @llvm.va_end(i8*)

; CHECK-LABEL: define i32 @call_ptr(i32 (i32, ...)* %fp)
define i32 @call_ptr(i32 (i32, ...)* %fp) {
; CHECK: call i32 {{.*}}(i32 0, i8* {{.*}})
  %r = call i32 (i32, ...) %fp(i32 0, i32 7)
; CHECK: call i32 {{.*}}(i32 1, i8* {{.*}})
  %s = call i32 (i32, ...) %fp(i32 1)
  %t = add i32 %r, %s
  ret i32 %t
}

; CHECK-LABEL: define i32 @copy(i32 %n, i8* %0)
define i32 @copy(i32 %n, ...) {
  %ap = alloca i8*
  %aq = alloca i8*
  %ap8 = bitcast i8** %ap to i8*
  %aq8 = bitcast i8** %aq to i8*
  call void @llvm.va_start(i8* %ap8)
; CHECK-NOT: llvm.va_copy
  call void @llvm.va_copy(i8* %aq8, i8* %ap8)
  %x = va_arg i8** %aq, i32
  call void @llvm.va_end(i8* %aq8)
  call void @llvm.va_end(i8* %ap8)
  ret i32 %x
}
