; A small C-like program: a string, a call, a global counter.
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@.str = private unnamed_addr constant [14 x i8] c"hello, world\0A\00", align 1
@counter = dso_local global i32 0, align 4

declare i32 @printf(i8*, ...)

define dso_local i32 @main(i32 %argc, i8** %argv) {
entry:
  %c = load i32, i32* @counter, align 4
  %inc = add nsw i32 %c, 1
  store i32 %inc, i32* @counter, align 4
  %p = getelementptr inbounds [14 x i8], [14 x i8]* @.str, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %p)
  ret i32 0
}
