; A module in PNaCl's simplified form, as `pnacl freeze` takes it (LLVM 14 syntax).
target datalayout = "e-p:32:32:32-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-p:32:32:32-v128:32:32"
target triple = "le32-unknown-nacl"

@data = internal global [8 x i8] c"abcdefg\00", align 4
@ref = internal global <{ [4 x i8], i32 }> <{ [4 x i8] zeroinitializer, i32 add (i32 ptrtoint ([8 x i8]* @data to i32), i32 4) }>, align 4
@bss = internal global [16 x i8] zeroinitializer, align 8

declare i32 @llvm.nacl.setjmp(i8*)
declare void @llvm.memset.p0i8.i32(i8*, i8, i32, i32, i1)
declare i8* @llvm.nacl.read.tp()
declare i32 @llvm.nacl.atomic.rmw.i32(i32, i32*, i32, i32)
declare void @llvm.trap()

define internal i32 @helper(i32 %p, i32 %n) {
entry:
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %body, label %out
body:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %addr = add i32 %p, %i
  %ptr = inttoptr i32 %addr to i8*
  %b = load i8, i8* %ptr, align 1
  %w = zext i8 %b to i32
  %q = inttoptr i32 %addr to i32*
  %old = call i32 @llvm.nacl.atomic.rmw.i32(i32 1, i32* %q, i32 %w, i32 6)
  %inc = add i32 %i, 1
  %again = icmp slt i32 %inc, %n
  br i1 %again, label %body, label %out
out:
  %r = phi i32 [ 0, %entry ], [ %inc, %body ]
  ret i32 %r
}

define void @_start(i32 %info) {
  %buf = alloca i8, i32 16, align 8
  call void @llvm.memset.p0i8.i32(i8* %buf, i8 0, i32 16, i32 1, i1 false)
  %tp = call i8* @llvm.nacl.read.tp()
  %j = call i32 @llvm.nacl.setjmp(i8* %buf)
  %d = ptrtoint [8 x i8]* @data to i32
  %n = call i32 @helper(i32 %d, i32 7)
  %f = sitofp i32 %n to double
  %g = fmul double %f, 2.5
  %h = fptosi double %g to i32
  %s = select i1 true, i32 %h, i32 %info
  %bssp = bitcast [16 x i8]* @bss to i32*
  store i32 %s, i32* %bssp, align 1
  switch i32 %s, label %trap [ i32 1, label %done ]
done:
  ret void
trap:
  call void @llvm.trap()
  unreachable
}
