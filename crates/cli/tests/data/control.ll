; Loops, phis, switches, selects, vectors, floating point, aggregates and metadata.
%pair = type { i32, double }

@table = internal constant [4 x i16] [i16 1, i16 2, i16 3, i16 5]
@pairs = global [2 x %pair] [%pair { i32 1, double 2.5 }, %pair { i32 3, double -0.0 }]

define i32 @sum(i32* %a, i32 %n) #0 {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %ptr = getelementptr inbounds i32, i32* %a, i32 %i
  %v = load i32, i32* %ptr, align 4, !tbaa !2
  %acc2 = add i32 %acc, %v
  %next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !5

done:
  %res = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  ret i32 %res
}

define i32 @pick(i32 %x) {
  switch i32 %x, label %other [
    i32 0, label %zero
    i32 7, label %seven
    i32 -3, label %seven
  ]
zero:
  ret i32 10
seven:
  ret i32 70
other:
  %neg = icmp slt i32 %x, 0
  %s = select i1 %neg, i32 -1, i32 1
  ret i32 %s
}

define <4 x float> @vec(<4 x float> %a, <4 x float> %b, float %s) {
  %m = fmul <4 x float> %a, %b
  %e = extractelement <4 x float> %m, i32 2
  %t = fadd float %e, %s
  %r = insertelement <4 x float> %m, float %t, i32 0
  %q = fdiv double 1.0, 3.0
  %f = fptrunc double %q to float
  %r2 = insertelement <4 x float> %r, float %f, i32 3
  ret <4 x float> %r2
}

define { i32, i1 } @checked(i32 %a, i32 %b) {
  %r = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  ret { i32, i1 } %r
}

declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)

attributes #0 = { nounwind readonly }

!llvm.ident = !{!0}
!llvm.module.flags = !{!1}
!0 = !{!"hand-written test"}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{!3, !3, i64 0}
!3 = !{!"int", !4, i64 0}
!4 = !{!"omnipotent char", !6, i64 0}
!5 = distinct !{!5}
!6 = !{!"Simple C/C++ TBAA"}
