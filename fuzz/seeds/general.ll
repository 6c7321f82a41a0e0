; A little of everything clang writes for C and C++ (LLVM 14 syntax, typed pointers).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

%struct.S = type { i32, [4 x i8], double, %struct.S* }
%union.U = type { i64 }

@counter = internal global i32 0, align 4
@table = global [3 x i32] [i32 1, i32 2, i32 3], align 4
@str = private unnamed_addr constant [6 x i8] c"hello\00", align 1
@ptr = global i8* getelementptr inbounds ([6 x i8], [6 x i8]* @str, i32 0, i32 2), align 4
@s = global %struct.S { i32 7, [4 x i8] zeroinitializer, double 1.5, %struct.S* null }, align 8
@addr = global i32 ptrtoint (i32* @counter to i32), align 4
@vec = global <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, align 16
@ext = external global i32
@alias = alias i32, i32* @counter

declare i32 @printf(i8*, ...)
declare void @llvm.memcpy.p0i8.p0i8.i32(i8*, i8*, i32, i1)
declare void @llvm.va_start(i8*)
declare void @llvm.va_end(i8*)
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()

define i32 @sum(i32 %n, ...) {
entry:
  %ap = alloca i8*, align 4
  %ap1 = bitcast i8** %ap to i8*
  call void @llvm.va_start(i8* %ap1)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %v = va_arg i8** %ap, i32
  %acc.next = add nsw i32 %acc, %v
  %i.next = add i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  call void @llvm.va_end(i8* %ap1)
  ret i32 %acc.next
}

define double @math(double %x, float %y, i64 %z) {
  %a = fadd double %x, 1.0
  %b = fpext float %y to double
  %c = fmul double %a, %b
  %d = sitofp i64 %z to double
  %e = fdiv double %c, %d
  %f = fcmp olt double %e, 0.0
  %g = select i1 %f, double %e, double %x
  %h = fneg double %g
  ret double %h
}

define i32 @fields(%struct.S* %p, <4 x i32> %v) {
  %f0 = getelementptr inbounds %struct.S, %struct.S* %p, i32 0, i32 0
  %x = load i32, i32* %f0, align 4
  %f3 = getelementptr inbounds %struct.S, %struct.S* %p, i32 0, i32 3
  %next = load %struct.S*, %struct.S** %f3, align 4
  %agg = insertvalue { i32, i8 } undef, i32 %x, 0
  %y = extractvalue { i32, i8 } %agg, 0
  %e = extractelement <4 x i32> %v, i32 1
  %v2 = insertelement <4 x i32> %v, i32 %y, i32 0
  %sh = shufflevector <4 x i32> %v2, <4 x i32> %v, <4 x i32> <i32 0, i32 5, i32 2, i32 7>
  %e2 = extractelement <4 x i32> %sh, i32 3
  %sum = add i32 %e, %e2
  %old = atomicrmw add i32* @counter, i32 %sum seq_cst
  %pair = cmpxchg i32* @counter, i32 %old, i32 0 acq_rel monotonic
  %ok = extractvalue { i32, i1 } %pair, 0
  fence seq_cst
  store atomic i32 %ok, i32* @counter release, align 4
  switch i32 %ok, label %def [ i32 0, label %zero
                               i32 5, label %five ]
zero:
  ret i32 0
five:
  %t = trunc i32 %sum to i8
  %z = zext i8 %t to i32
  ret i32 %z
def:
  %cast = bitcast %struct.S* %next to i8*
  %src = bitcast %struct.S* %p to i8*
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %cast, i8* %src, i32 24, i1 false)
  %r = call i32 (i8*, ...) @printf(i8* getelementptr inbounds ([6 x i8], [6 x i8]* @str, i32 0, i32 0), i32 %sum)
  ret i32 %r
}

define void @eh() personality i32 (...)* @__gxx_personality_v0 {
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  ret void
lpad:
  %lp = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %lp
}

define internal fastcc i1 @cmp(i16 signext %a, i7 %b) noinline nounwind {
  %w = sext i7 %b to i16
  %c = icmp ult i16 %a, %w
  %u = udiv i16 %a, 3
  %s = srem i16 %u, 5
  %l = shl i16 %s, 2
  %x = xor i16 %l, %a
  %d = icmp eq i16 %x, 0
  %r = and i1 %c, %d
  unreachable
}
