; PASSES: expand-varargs
; A variadic function takes its variable arguments through one more i8* parameter; va_start
; stores it in the va_list, va_arg loads through it and advances it.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%va_list = type i8*

declare void @llvm.va_start(i8*)
declare void @llvm.va_end(i8*)
declare void @llvm.va_copy(i8*, i8*)

; CHECK: declare i32 @printf(i8*, i8*)
declare i32 @printf(i8*, ...)

; CHECK-LABEL: define i32 @sum(i32 %n, i8* %0)
define i32 @sum(i32 %n, ...) {
entry:
  %ap = alloca i8*
  %ap8 = bitcast i8** %ap to i8*
; CHECK-NOT: llvm.va_start
; CHECK: store i8* {{%0|%[0-9]+}}, i8** %ap
  call void @llvm.va_start(i8* %ap8)
; CHECK-NOT: va_arg
; CHECK: ret i32
  %a = va_arg i8** %ap, i32
  %b = va_arg i8** %ap, i64
  %bt = trunc i64 %b to i32
  %s = add i32 %a, %bt
  call void @llvm.va_end(i8* %ap8)
  ret i32 %s
}

; CHECK-LABEL: define i32 @caller()
define i32 @caller() {
; The caller builds the arguments on its stack, as a struct of the variable arguments.
; CHECK-DAG: alloca { i32, i64 }
; CHECK-DAG: alloca { double }
; CHECK: store i32 1,
; CHECK: store i64 2,
; CHECK: call i32 @sum(i32 2, i8* {{.*}})
  %r = call i32 (i32, ...) @sum(i32 2, i32 1, i64 2)
; CHECK: store double {{1.500000e\+00|0x3FF8000000000000}}
; CHECK: call i32 @printf(i8* null, i8* {{.*}})
  %p = call i32 (i8*, ...) @printf(i8* null, double 1.5)
  ret i32 %r
}
