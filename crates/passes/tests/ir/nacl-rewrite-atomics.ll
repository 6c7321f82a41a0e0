; PASSES: nacl-rewrite-atomics
; Atomic and volatile memory operations become the llvm.nacl.atomic intrinsics,
; sequentially consistent (6).
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

; CHECK-LABEL: define i32 @f(i32* %p, i32 %v)
define i32 @f(i32* %p, i32 %v) {
; CHECK: call i32 @llvm.nacl.atomic.load.i32(i32* %p, i32 6)
  %a = load atomic i32, i32* %p seq_cst, align 4
; CHECK: call void @llvm.nacl.atomic.store.i32(i32 %v, i32* %p, i32 6)
  store atomic i32 %v, i32* %p release, align 4
; CHECK: call i32 @llvm.nacl.atomic.rmw.i32(i32 1, i32* %p, i32 %v, i32 6)
  %b = atomicrmw add i32* %p, i32 %v seq_cst
; CHECK: call i32 @llvm.nacl.atomic.cmpxchg.i32(i32* %p, i32 {{%.*}}, i32 %v, i32 6, i32 6)
  %c = cmpxchg i32* %p, i32 %a, i32 %v seq_cst seq_cst
; CHECK: call void @llvm.nacl.atomic.fence(i32 6)
  fence seq_cst
; CHECK: call i32 @llvm.nacl.atomic.load.i32(i32* %p, i32 6)
  %d = load volatile i32, i32* %p
  %c0 = extractvalue { i32, i1 } %c, 0
  %s = add i32 %b, %c0
  %t = add i32 %s, %d
  ret i32 %t
}

; The fence wrapped in asm memory barriers becomes llvm.nacl.atomic.fence.all.
; CHECK-LABEL: define void @full_fence()
define void @full_fence() {
; CHECK: call void @llvm.nacl.atomic.fence.all()
  call void asm sideeffect "", "~{memory}"()
  fence seq_cst
  call void asm sideeffect "", "~{memory}"()
  ret void
}
