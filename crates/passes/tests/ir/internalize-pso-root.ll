; PASSES: internalize
; __pnacl_pso_root is exported like _start; llvm.* globals keep their linkage.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK: @__pnacl_pso_root = global i32 0
@__pnacl_pso_root = global i32 0
; CHECK: @llvm.used = appending global
@llvm.used = appending global [1 x i8*] [i8* bitcast (i32* @__pnacl_pso_root to i8*)], section "llvm.metadata"
