; PASSES: cleanup-used-globals-metadata
; llvm.used goes; what it named stays.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-NOT: llvm.used
@llvm.used = appending global [1 x i8*] [i8* bitcast (i32* @kept to i8*)], section "llvm.metadata"
; CHECK: @kept = internal global i32 1
@kept = internal global i32 1
