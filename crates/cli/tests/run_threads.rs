//! Threads under `pnacl run`: real host threads over shared guest memory, atomics under
//! contention, futexes, thread pointers and `thread_exit`'s stack flag.

use pnacl_testutil::guest::{Case, Function, Ty, Val};

/// A C string as a PNaClAsm constant initializer.
fn c_string(s: &str) -> String {
    let bytes: Vec<String> = s.bytes().chain([0]).map(|b| b.to_string()).collect();
    format!("{{ {} }}", bytes.join(", "))
}

/// The worker thread, `@f2`: checks that `llvm.nacl.read.tp` and the IRT's `tls_get`
/// agree; then, M times, adds 1 to four shared counters with four kinds of atomics
/// (`rmw add` i32, a compare-exchange loop, `rmw add` i64 and i8); then counts itself done,
/// wakes the futex on the done counter and leaves with `thread_exit`, naming its stack flag
/// (found from its thread pointer, which is its stack top).
const WORKER: &str = "  function void @f2() {
    blocks 7;
    constants {
      i32:
        %c0 = i32 0;
        %c1 = i32 1;
        %c2 = i32 4;
        %c3 = i32 6;
        %c4 = i32 8;
        %c5 = i32 16;
        %c6 = i32 20;
        %c7 = i32 24;
        %c8 = i32 65536;
        %c9 = i32 28;
        %c10 = i32 32;
        %c11 = i32 2147483647;
        %c12 = i32 48;
      i64:
        %c13 = i64 1;
      i8:
        %c14 = i8 1;
    }
  %b0:
    %v0 = call i32 @f8();
    %v1 = add i32 @g7, %c10;
    %v2 = add i32 %v1, %c2;
    %v3 = load i32* %v2, align 1;
    %v4 = call i32 %v3();
    %v5 = icmp eq i32 %v0, %v4;
    br i1 %v5, label %b2, label %b1;
  %b1:
    %v6 = add i32 @g10, %c9;
    %v7 = call i32 @f4(i32 %c1, i32 %v6, i32 %c1, i32 %c3);
    br label %b2;
  %b2:
    %v8 = add i32 @g10, %c7;
    %v9 = load i32* %v8, align 1;
    br label %b3;
  %b3:
    declare i32 %v21;
    %v10 = phi i32 [%c0, %b2], [%v21, %b5];
    %v11 = call i32 @f4(i32 %c1, i32 @g10, i32 %c1, i32 %c3);
    br label %b4;
  %b4:
    %v12 = add i32 @g10, %c2;
    %v13 = call i32 @f3(i32 %v12, i32 %c3);
    %v14 = add i32 %v13, %c1;
    %v15 = call i32 @f5(i32 %v12, i32 %v13, i32 %v14, i32 %c3, i32 %c3);
    %v16 = icmp eq i32 %v15, %v13;
    br i1 %v16, label %b5, label %b4;
  %b5:
    %v17 = add i32 @g10, %c4;
    %v18 = call i64 @f6(i32 %c1, i32 %v17, i64 %c13, i32 %c3);
    %v19 = add i32 @g10, %c5;
    %v20 = call i8 @f7(i32 %c1, i32 %v19, i8 %c14, i32 %c3);
    %v21 = add i32 %v10, %c1;
    %v22 = icmp eq i32 %v21, %v9;
    br i1 %v22, label %b6, label %b3;
  %b6:
    %v23 = add i32 @g10, %c6;
    %v24 = call i32 @f4(i32 %c1, i32 %v23, i32 %c1, i32 %c3);
    %v25 = add i32 @g7, %c5;
    %v26 = add i32 %v25, %c2;
    %v27 = load i32* %v26, align 1;
    %v28 = add i32 @g7, %c12;
    %v29 = call i32 %v27(i32 %v23, i32 %c11, i32 %v28);
    %v30 = sub i32 %v0, @g9;
    %v31 = udiv i32 %v30, %c8;
    %v32 = sub i32 %v31, %c1;
    %v33 = mul i32 %v32, %c2;
    %v34 = add i32 @g11, %v33;
    %v35 = add i32 @g7, %c2;
    %v36 = load i32* %v35, align 1;
    call void %v36(i32 %v34);
    unreachable;
  }";

/// `@f0(N = 4, M, zero vector)`: queries the thread, futex and tls interfaces, starts 4
/// workers (each with a 64 KiB stack carved from `@g9` and its stack top as thread
/// pointer), waits on the done counter with `futex_wait_abs`, then for every stack flag
/// to be cleared, and returns `<A, B, C, D | errors << 16>`.
const MAIN: &str = "  %b0:
    %v0 = add i32 @g4, %c2;
    %v1 = load i32* %v0, align 1;
    %v2 = call i32 %v1(i32 @g8, i32 @g7, i32 %c3);
    %v3 = add i32 @g7, %c5;
    %v4 = call i32 %v1(i32 @g12, i32 %v3, i32 %c4);
    %v5 = add i32 @g7, %c10;
    %v6 = call i32 %v1(i32 @g13, i32 %v5, i32 %c4);
    %v7 = load i32* @g7, align 1;
    %v8 = add i32 @g10, %c6;
    store i32 %p1, i32* %v8, align 1;
    br label %b1;
  %b1:
    declare i32 %v10;
    %v9 = phi i32 [%c0, %b0], [%v10, %b1];
    %v10 = add i32 %v9, %c1;
    %v11 = mul i32 %v9, %c2;
    %v12 = add i32 @g11, %v11;
    store i32 %c1, i32* %v12, align 1;
    %v13 = mul i32 %v10, %c7;
    %v14 = add i32 @g9, %v13;
    %v15 = call i32 %v7(i32 @f2, i32 %v14, i32 %v14);
    %v16 = icmp eq i32 %v10, %p0;
    br i1 %v16, label %b2, label %b1;
  %b2:
    %v17 = add i32 @g10, %c9;
    %v18 = call i32 @f3(i32 %v17, i32 %c8);
    %v19 = icmp eq i32 %v18, %p0;
    br i1 %v19, label %b4, label %b3;
  %b3:
    %v20 = load i32* %v3, align 1;
    %v21 = call i32 %v20(i32 %v17, i32 %v18, i32 %c0);
    br label %b2;
  %b4:
    %v22 = call i32 @f3(i32 @g11, i32 %c8);
    %v23 = add i32 @g11, %c2;
    %v24 = call i32 @f3(i32 %v23, i32 %c8);
    %v25 = add i32 @g11, %c4;
    %v26 = call i32 @f3(i32 %v25, i32 %c8);
    %v27 = add i32 @g11, %c3;
    %v28 = call i32 @f3(i32 %v27, i32 %c8);
    %v29 = or i32 %v22, %v24;
    %v30 = or i32 %v29, %v26;
    %v31 = or i32 %v30, %v28;
    %v32 = icmp eq i32 %v31, %c0;
    br i1 %v32, label %b6, label %b5;
  %b5:
    %v33 = add i32 @g3, %c5;
    %v34 = load i32* %v33, align 1;
    %v35 = call i32 %v34();
    br label %b4;
  %b6:
    %v36 = load i32* @g10, align 1;
    %v37 = add i32 @g10, %c2;
    %v38 = load i32* %v37, align 1;
    %v39 = add i32 @g10, %c4;
    %v40 = load i64* %v39, align 1;
    %v41 = trunc i64 %v40 to i32;
    %v42 = add i32 @g10, %c5;
    %v43 = load i8* %v42, align 1;
    %v44 = zext i8 %v43 to i32;
    %v45 = add i32 @g10, %c11;
    %v46 = load i32* %v45, align 1;
    %v47 = shl i32 %v46, %c5;
    %v48 = or i32 %v44, %v47;
    %v49 = insertelement <4 x i32> %p2, i32 %v36, i32 %c0;
    %v50 = insertelement <4 x i32> %v49, i32 %v38, i32 %c1;
    %v51 = insertelement <4 x i32> %v50, i32 %v41, i32 %c12;
    %v52 = insertelement <4 x i32> %v51, i32 %v48, i32 %c13;
    ret <4 x i32> %v52;";

fn threads_case(iterations: u32) -> Case {
    let constants: Vec<(&str, String)> =
        [0u32, 1, 4, 12, 8, 16, 24, 65536, 6, 20, 32, 28, 2, 3].iter().map(|v| ("i32", v.to_string())).collect();
    let constants: Vec<(&str, &str)> = constants.iter().map(|(t, v)| (*t, v.as_str())).collect();
    Case::new(&[Ty::I32, Ty::I32, Ty::V4I32], Ty::V4I32, &constants, MAIN)
        .functions(vec![
            Function::helper("void", &[], WORKER),
            Function::intrinsic("llvm.nacl.atomic.load.i32", "i32", &["i32", "i32"]),
            Function::intrinsic("llvm.nacl.atomic.rmw.i32", "i32", &["i32", "i32", "i32", "i32"]),
            Function::intrinsic("llvm.nacl.atomic.cmpxchg.i32", "i32", &["i32", "i32", "i32", "i32", "i32"]),
            Function::intrinsic("llvm.nacl.atomic.rmw.i64", "i64", &["i32", "i32", "i64", "i32"]),
            Function::intrinsic("llvm.nacl.atomic.rmw.i8", "i8", &["i32", "i32", "i8", "i32"]),
            Function::intrinsic("llvm.nacl.read.tp", "i32", &[]),
        ])
        .globals(vec![
            format!("const @g8, align 1, {}", c_string("nacl-irt-thread-0.1")),
            "var @g9, align 16, zerofill 327680;".into(),
            "var @g10, align 8, zerofill 32;".into(),
            "var @g11, align 4, zerofill 16;".into(),
            format!("const @g12, align 1, {}", c_string("nacl-irt-futex-0.1")),
            format!("const @g13, align 1, {}", c_string("nacl-irt-tls-0.1")),
        ])
        .inputs(vec![vec![Val::i32(4), Val::i32(iterations), Val::v4i32([0; 4])]])
}

#[test]
fn atomics_under_contention_from_four_threads_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    for iterations in [1u32, 1000, 200_000] {
        let total = 4 * iterations;
        threads_case(iterations).check(dir.path(), &format!("threads{iterations}"), |_| {
            // A, B, the low half of C, then D (mod 256) with no thread-pointer mismatch and
            // every stack flag cleared.
            Val::v4i32([total, total, total, total % 256])
        });
    }
}
