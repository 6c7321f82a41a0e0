//! `llvm.nacl.setjmp` / `llvm.nacl.longjmp` under `pnacl run`: jumps from any depth back
//! into a live frame, the same buffer again and again, 0 delivered as 1, guest stack
//! (alloca) memory released, and no jump into a frame that has returned.

use pnacl_testutil::guest::{Case, Function, Ty, Val};

/// `@f5(depth, value)`: allocates 1000 bytes of guest stack at each of `depth` levels of
/// recursion, then longjmps to the buffer at `@g7` with `value`.
const DIVE: &str = "  function void @f5(i32 %p0, i32 %p1) {
    blocks 3;
    constants {
      i32:
        %c0 = i32 1000;
        %c1 = i32 0;
        %c2 = i32 1;
    }
  %b0:
    %v0 = alloca i8, i32 %c0, align 8;
    store i32 %p0, i32* %v0, align 1;
    %v1 = icmp eq i32 %p0, %c1;
    br i1 %v1, label %b1, label %b2;
  %b1:
    call void @f4(i32 @g7, i32 %p1);
    unreachable;
  %b2:
    %v2 = sub i32 %p0, %c2;
    call void @f5(i32 %v2, i32 %p1);
    ret void;
  }";

/// `@f0(n, depth)`: setjmp on `@g7`; each time setjmp returns (directly, then after
/// each longjmp) it adds the returned value to a sum kept in guest memory and checks
/// that the guest stack pointer is back where it was at the first return; until it has
/// returned `n` times it dives `depth` levels and longjmps back with the return count
/// modulo 3 (so 0 is passed every third time). Returns the sum plus 2^20 times the
/// number of stack pointer mismatches.
const BODY: &str = "  %b0:
    %v0 = alloca i8, i32 %c5, align 4;
    store i32 %c0, i32* %v0, align 1;
    %v1 = add i32 %v0, %c3;
    store i32 %c0, i32* %v1, align 1;
    %v2 = add i32 %v0, %c4;
    %v3 = add i32 %v0, %c6;
    store i32 %c0, i32* %v3, align 1;
    %v4 = call i32 @f2(i32 @g7);
    %v5 = call i32 @f3();
    %v6 = load i32* %v1, align 1;
    %v7 = icmp eq i32 %v6, %c0;
    br i1 %v7, label %b1, label %b2;
  %b1:
    store i32 %v5, i32* %v2, align 1;
    br label %b3;
  %b2:
    %v8 = load i32* %v2, align 1;
    %v9 = icmp ne i32 %v8, %v5;
    %v10 = zext i1 %v9 to i32;
    %v11 = load i32* %v3, align 1;
    %v12 = add i32 %v11, %v10;
    store i32 %v12, i32* %v3, align 1;
    br label %b3;
  %b3:
    %v13 = load i32* %v0, align 1;
    %v14 = add i32 %v13, %v4;
    store i32 %v14, i32* %v0, align 1;
    %v15 = add i32 %v6, %c1;
    store i32 %v15, i32* %v1, align 1;
    %v16 = icmp slt i32 %v15, %p0;
    br i1 %v16, label %b4, label %b5;
  %b4:
    %v17 = urem i32 %v15, %c2;
    call void @f5(i32 %p1, i32 %v17);
    unreachable;
  %b5:
    %v18 = load i32* %v0, align 1;
    %v19 = load i32* %v3, align 1;
    %v20 = shl i32 %v19, %c7;
    %v21 = add i32 %v18, %v20;
    ret i32 %v21;";

fn functions() -> Vec<Function> {
    vec![
        Function::intrinsic("llvm.nacl.setjmp", "i32", &["i32"]),
        Function::intrinsic("llvm.stacksave", "i32", &[]),
        Function::intrinsic("llvm.nacl.longjmp", "void", &["i32", "i32"]),
        Function::helper("void", &["i32", "i32"], DIVE),
    ]
}

fn constants() -> Vec<(&'static str, &'static str)> {
    vec![
        ("i32", "0"),
        ("i32", "1"),
        ("i32", "3"),
        ("i32", "4"),
        ("i32", "8"),
        ("i32", "16"),
        ("i32", "12"),
        ("i32", "20"),
    ]
}

#[test]
fn longjmp_returns_to_a_live_frame_again_and_again() {
    let dir = tempfile::tempdir().unwrap();
    // 20,000 jumps from 10 levels down, each level holding 1000 bytes of guest stack: were
    // allocas not released, the 16 MiB guest stack would run out long before the end.
    let rows: Vec<Vec<Val>> = [(1u32, 0u32), (2, 0), (3, 1), (10, 3), (20_000, 10)]
        .iter()
        .map(|&(n, d)| vec![Val::i32(n), Val::i32(d)])
        .collect();
    let case = Case::new(&[Ty::I32, Ty::I32], Ty::I32, &constants(), BODY).functions(functions()).inputs(rows);
    case.check(dir.path(), "setjmp", |row| {
        let n = u32::from_le_bytes(row[0].bytes[..4].try_into().unwrap());
        // The direct return gives 0; the k-th longjmp passes k % 3, and 0 arrives as 1.
        let sum: u32 = (1..n).map(|k| if k % 3 == 0 { 1 } else { k % 3 }).sum();
        Val::i32(sum)
    });
}

/// `@f6()`: calls setjmp on `@g7` and returns, ending the frame.
const SET_AND_RETURN: &str = "  function i32 @f6() {
    blocks 1;
  %b0:
    %v0 = call i32 @f2(i32 @g7);
    ret i32 %v0;
  }";

/// The trap of a longjmp to a buffer no live setjmp filled, in the case's function (`@f0`,
/// unnamed), which the harness's `_start` called.
const INVALID_JMP_BUF: &str = "pnacl: trap: longjmp to an invalid jmp_buf in function @f0\n\
                               pnacl: backtrace (innermost first):\n  #0 @f0\n  #1 _start\n";

#[test]
fn longjmp_into_a_frame_that_returned_traps() {
    let dir = tempfile::tempdir().unwrap();
    let body = "  %b0:\n    %v0 = call i32 @f6();\n    call void @f4(i32 @g7, i32 %p0);\n    ret i32 %v0;";
    let mut f = functions();
    f.push(Function::helper("i32", &[], SET_AND_RETURN));
    let case = Case::new(&[Ty::I32], Ty::I32, &[], body).functions(f).inputs(vec![vec![Val::i32(5)]]);
    let out = case.run_in(dir.path(), "stale");
    assert_eq!(out.status.code(), Some(134), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    // (Under `pnacl wasm` the harness returns the host's output, which has no backtrace.)
    let without = |b: &[u8]| String::from_utf8(pnacl_testutil::guest::without_backtrace(b)).unwrap();
    assert_eq!(without(&out.stderr), without(INVALID_JMP_BUF.as_bytes()));
}

#[test]
fn guest_bytes_in_the_jmp_buf_are_only_a_key() {
    let dir = tempfile::tempdir().unwrap();
    // setjmp, then overwrite the buffer with arbitrary bytes (here, a value that would be
    // a plausible host address) and longjmp: the key no longer names a live setjmp.
    let body = "  %b0:
    %v0 = call i32 @f2(i32 @g7);
    %v1 = icmp eq i32 %v0, %c0;
    br i1 %v1, label %b1, label %b2;
  %b1:
    store i32 %p0, i32* @g7, align 1;
    call void @f4(i32 @g7, i32 %c1);
    unreachable;
  %b2:
    ret i32 %v0;";
    let case = Case::new(&[Ty::I32], Ty::I32, &[("i32", "0"), ("i32", "7")], body)
        .functions(functions())
        .inputs(vec![vec![Val::i32(0x5555_0000)]]);
    let out = case.run_in(dir.path(), "forged");
    assert_eq!(out.status.code(), Some(134), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    // (Under `pnacl wasm` the harness returns the host's output, which has no backtrace.)
    let without = |b: &[u8]| String::from_utf8(pnacl_testutil::guest::without_backtrace(b)).unwrap();
    assert_eq!(without(&out.stderr), without(INVALID_JMP_BUF.as_bytes()));
}
