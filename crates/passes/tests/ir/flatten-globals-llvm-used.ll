; PASSES: flatten-globals
; llvm.used stays an array (appending linkage needs one); the globals it names flatten.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @llvm.used = appending global [2 x i8*] [i8* bitcast ([4 x i8]* @kept to i8*), i8* bitcast (void ()* @f to i8*)], section "llvm.metadata"
@llvm.used = appending global [2 x i8*] [i8* bitcast (i32* @kept to i8*), i8* bitcast (void ()* @f to i8*)], section "llvm.metadata"
; CHECK: @kept = internal global [4 x i8] c"\01\00\00\00"
@kept = internal global i32 1

define void @f() {
  ret void
}
