//! The sandbox of `pnacl run`: whatever a guest does, it ends with its trap message and
//! status 134 (never a host signal), and it reaches no host file outside `--dir`.
//!
//! Each program is a PNaClAsm function `@f0` run by the `guest` harness's driver, so trap
//! messages name `@f0` (test functions have no symbol-table names).

use pnacl_testutil::guest::{Case, Function, Ty, Val};
use pnacl_testutil::{corpus_dir, pnacl_command};
use std::path::Path;
use std::process::Output;

const EXIT_TRAP: i32 = 134;

/// Runs `case` (with `flags` before the file) and returns the output.
fn run(case: &Case, dir: &Path, name: &str, flags: &[&str]) -> Output {
    if flags.is_empty() {
        // The harness's own run (which the `wasm_sandbox` suite also runs under Node).
        return pnacl_testutil::guest::run_text(&case.module(), dir, name, &[]);
    }
    let path = dir.join(format!("{name}.pnaclasm"));
    std::fs::write(&path, case.module()).unwrap();
    pnacl_command().arg("run").args(flags).arg(&path).output().expect("run pnacl")
}

/// Asserts that the program trapped with exactly this message, followed by a backtrace
/// whose innermost frame is the trapping function (none when host code trapped on the
/// guest's behalf, as the memory intrinsics do).
fn assert_trap(out: &Output, message: &str, function: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(EXIT_TRAP), "expected a trap ({message}); stderr: {stderr}");
    let (first, backtrace) = stderr.split_once('\n').unwrap_or((&stderr, ""));
    assert_eq!(first, format!("pnacl: trap: {message} in function {function}"));
    assert!(
        backtrace.is_empty()
            || backtrace.starts_with(&format!("pnacl: backtrace (innermost first):\n  #0 {function}\n")),
        "stderr: {stderr}"
    );
}

fn trap_case(params: &[Ty], constants: &[(&str, &str)], body: &str, row: Vec<Val>) -> Case {
    Case::new(params, Ty::I32, constants, body).inputs(vec![row])
}

const LOAD: &str = "  %b0:\n    %v0 = load i32* %p0, align 1;\n    ret i32 %v0;";

#[test]
fn loads_outside_mapped_memory_trap() {
    let dir = tempfile::tempdir().unwrap();
    // The null page, the unmapped page above the main stack, the last word of the space,
    // and a heap address nothing was mapped at.
    for (i, addr) in [0u32, 0x8000, 0xffff_0000, 0xffff_fffc, 0x4000_0000].into_iter().enumerate() {
        let case = trap_case(&[Ty::I32], &[], LOAD, vec![Val::i32(addr)]);
        assert_trap(&run(&case, dir.path(), &format!("load{i}"), &[]), "memory access out of bounds", "@f0");
    }
}

#[test]
fn an_access_crossing_the_end_of_the_space_traps() {
    let dir = tempfile::tempdir().unwrap();
    let body = "  %b0:\n    %v0 = load i64* %p0, align 1;\n    %v1 = trunc i64 %v0 to i32;\n    ret i32 %v1;";
    let case = trap_case(&[Ty::I32], &[], body, vec![Val::i32(0xffff_fffc)]);
    assert_trap(&run(&case, dir.path(), "cross", &[]), "memory access out of bounds", "@f0");
    let body = "  %b0:\n    store <4 x i32> %p1, <4 x i32>* %p0, align 4;\n    ret i32 %p0;";
    let case = trap_case(&[Ty::I32, Ty::V4I32], &[], body, vec![Val::i32(0xffff_fff8), Val::v4i32([1; 4])]);
    assert_trap(&run(&case, dir.path(), "cross_vector", &[]), "memory access out of bounds", "@f0");
}

#[test]
fn wrapped_addresses_stay_in_the_guest_space() {
    let dir = tempfile::tempdir().unwrap();
    // 0xfffffff0 + 0x20 wraps to 0x10 (in the null page), not to 4 GiB + 0x10.
    let body = "  %b0:\n    %v0 = add i32 %p0, %p1;\n    store i32 %p1, i32* %v0, align 1;\n    ret i32 %v0;";
    let case = trap_case(&[Ty::I32, Ty::I32], &[], body, vec![Val::i32(0xffff_fff0), Val::i32(0x20)]);
    assert_trap(&run(&case, dir.path(), "wrap", &[]), "memory access out of bounds", "@f0");
}

/// A constant offset added to a pointer is folded into the access (up to 65520): the access
/// is made 4 GiB past the wrapped address when the sum wraps, which lands in the guard
/// region instead of the null page. Either way it traps the same, for every access size;
/// a negative offset (a wrap the other way) is not folded, and stays in the guest space.
#[test]
fn constant_offsets_folded_into_accesses_trap_like_wrapped_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("i32", "32", 0xffff_fff0u32),
        ("i32", "65520", 0xffff_0100),
        ("i64", "65520", 0xffff_ffff),
        ("<4 x i32>", "65520", 0xffff_fff1),
        ("i32", "-8", 4),
        ("i32", "-65536", 0x100),
    ];
    for (i, (ty, c, p)) in cases.into_iter().enumerate() {
        let vector = ty.starts_with('<');
        let align = if vector { 4 } else { 1 };
        let load = format!("%v1 = load {ty}* %v0, align {align};");
        let store = format!("store {ty} %c1, {ty}* %v0, align 1;");
        for (op, access) in [("load", load), ("store", store)] {
            if vector && op == "store" {
                continue;
            }
            let body = format!("  %b0:\n    %v0 = add i32 %p0, %c0;\n    {access}\n    ret i32 %v0;");
            let constants = [("i32", c), (if vector { "i32" } else { ty }, "0")];
            let case = trap_case(&[Ty::I32], &constants, &body, vec![Val::i32(p)]);
            let out = run(&case, dir.path(), &format!("fold{i}_{op}"), &[]);
            assert_trap(&out, "memory access out of bounds", "@f0");
        }
    }
}

#[test]
fn calls_through_bad_function_values_trap() {
    let dir = tempfile::tempdir().unwrap();
    let helper = Function::helper(
        "i32",
        &["i32"],
        "  function i32 @f2(i32 %p0) {\n    blocks 1;\n  %b0:\n    ret i32 %p0;\n  }",
    );
    let call = "  %b0:\n    %v0 = add i32 %p0, %p1;\n    %v1 = call i32 %v0(i32 %p1);\n    ret i32 %v1;";
    // Through 0, through a data address (the scratch global), through the middle of a
    // function value.
    for (i, (target, extra)) in [("0", 0u32), ("@g7", 0), ("@f2", 4)].into_iter().enumerate() {
        let body = call.replace("%v0 = add i32 %p0, %p1", &format!("%v0 = add i32 {target}, %p1"));
        let body = if target == "0" { body.replace("add i32 0, %p1", "add i32 %p0, %p1") } else { body };
        let case = trap_case(&[Ty::I32, Ty::I32], &[], &body, vec![Val::i32(0), Val::i32(extra)])
            .functions(vec![helper.clone()]);
        assert_trap(&run(&case, dir.path(), &format!("target{i}"), &[]), "indirect call to a non-function", "@f0");
    }
    // A real function, called with another signature.
    let body = "  %b0:\n    %v0 = add i32 @f2, %p1;\n    %v1 = call float %v0(i32 %p1);\n    %v2 = fptosi float %v1 to i32;\n    ret i32 %v2;";
    let case =
        trap_case(&[Ty::I32, Ty::I32], &[], body, vec![Val::i32(0), Val::i32(0)]).functions(vec![helper.clone()]);
    assert_trap(&run(&case, dir.path(), "signature", &[]), "indirect call signature mismatch", "@f0");
    // An IRT function (exit, slot 0 of the basic table), called with another signature.
    let body = "  %b0:\n    %v0 = load i32* @g3, align 1;\n    %v1 = call i32 %v0(i64 %p0);\n    ret i32 %v1;";
    let case = trap_case(&[Ty::I64], &[], body, vec![Val::i64(0)]);
    assert_trap(&run(&case, dir.path(), "irt_signature", &[]), "indirect call signature mismatch", "@f0");
}

/// A call through a function's address with more arguments than the function declares
/// drops the extra ones (PNaCl's `_start` calls `main` so); a result the call wants and the
/// function lacks is zero, one the function has and the call does not want is dropped
/// (real pexes call `void` thread functions through `void *(*)(void *)`: iguana_small);
/// every other mismatch traps, whether the callee is known when translating (its own
/// address) or only when running (a computed value).
#[test]
fn calls_with_extra_arguments_drop_them_and_other_mismatches_trap() {
    let dir = tempfile::tempdir().unwrap();
    let inc = Function::helper(
        "i32",
        &["i32"],
        "  function i32 @f2(i32 %p0) {\n    blocks 1;\n    constants {\n      i32:\n        %c0 = i32 1;\n    }\n  %b0:\n    %v0 = add i32 %p0, %c0;\n    ret i32 %v0;\n  }",
    );
    // %v0 is @f2's address: computed from %p1 (0) at run time, or @f2 itself.
    let computed = "%v0 = add i32 @f2, %p1;";
    let own = "%v0 = add i32 %p1, %p1;";
    for (address, callee) in [(computed, "%v0"), (own, "@f2")] {
        let body =
            format!("  %b0:\n    {address}\n    %v1 = call i32 {callee}(i32 %p0, i32 %p1, i64 %p2);\n    ret i32 %v1;");
        let rows = [5u32, 0xffff_ffff].map(|x| vec![Val::i32(x), Val::i32(0), Val::i64(9)]).to_vec();
        let case =
            Case::new(&[Ty::I32, Ty::I32, Ty::I64], Ty::I32, &[], &body).inputs(rows).functions(vec![inc.clone()]);
        case.check(dir.path(), &format!("extra_{callee}"), |row| {
            Val::i32(u32::from_le_bytes(row[0].as_bytes()[..4].try_into().unwrap()).wrapping_add(1))
        });
        // The result dropped: 4 * %p0, after the call.
        let body = format!(
            "  %b0:\n    {address}\n    call void {callee}(i32 %p0, i32 %p1);\n    %v1 = add i32 %p0, %p0;\n    \
             %v2 = add i32 %v1, %v1;\n    ret i32 %v2;"
        );
        let rows = [5u32, 7].map(|x| vec![Val::i32(x), Val::i32(0), Val::i64(9)]).to_vec();
        let case =
            Case::new(&[Ty::I32, Ty::I32, Ty::I64], Ty::I32, &[], &body).inputs(rows).functions(vec![inc.clone()]);
        case.check(dir.path(), &format!("dropped_{callee}"), |row| {
            Val::i32(u32::from_le_bytes(row[0].as_bytes()[..4].try_into().unwrap()).wrapping_mul(4))
        });
        for (i, call) in [
            "%v1 = call i32 CALLEE();\n    %v2 = add i32 %v1, %v1;",
            "%v1 = call i32 CALLEE(i64 %p2, i32 %p0);\n    %v2 = add i32 %v1, %v1;",
            "%v1 = call float CALLEE(i32 %p0, i32 %p1);\n    %v2 = fptosi float %v1 to i32;",
            "%v1 = call i64 CALLEE(i32 %p0, i32 %p1);\n    %v2 = trunc i64 %v1 to i32;",
        ]
        .into_iter()
        .enumerate()
        {
            let body = format!("  %b0:\n    {address}\n    {}\n    ret i32 %v2;", call.replace("CALLEE", callee));
            let case = trap_case(&[Ty::I32, Ty::I32, Ty::I64], &[], &body, vec![Val::i32(1), Val::i32(0), Val::i64(2)])
                .functions(vec![inc.clone()]);
            let out = run(&case, dir.path(), &format!("mismatch{i}_{}", callee.trim_start_matches(['@', '%'])), &[]);
            assert_trap(&out, "indirect call signature mismatch", "@f0");
        }
    }
}

/// A `void` function called as returning a value gives the call zero (with extra arguments
/// dropped too), whether its address is known when translating or only when running.
#[test]
fn calls_of_void_functions_for_a_value_get_zero() {
    let dir = tempfile::tempdir().unwrap();
    // @f2 stores its argument in the scratch global, so the call is seen to happen.
    let store = Function::helper(
        "void",
        &["i32"],
        "  function void @f2(i32 %p0) {\n    blocks 1;\n  %b0:\n    store i32 %p0, i32* @g7, align 1;\n    ret void;\n  }",
    );
    let computed = "%v0 = add i32 @f2, %p1;";
    let own = "%v0 = add i32 %p1, %p1;";
    for (address, callee) in [(computed, "%v0"), (own, "@f2")] {
        let body = format!(
            "  %b0:\n    {address}\n    %v1 = call i32 {callee}(i32 %p0, i32 %p1);\n    \
             %v2 = load i32* @g7, align 1;\n    %v3 = add i32 %v1, %v2;\n    ret i32 %v3;"
        );
        let rows = [5u32, 0xffff_fff0].map(|x| vec![Val::i32(x), Val::i32(0)]).to_vec();
        let case = Case::new(&[Ty::I32, Ty::I32], Ty::I32, &[], &body).inputs(rows).functions(vec![store.clone()]);
        case.check(dir.path(), &format!("void_{}", callee.trim_start_matches(['@', '%'])), |row| row[0]);
    }
}

/// `_start` calls `@f2(0)`, the recursive function `f2` (an `i32 (i32)`), which must exhaust
/// the call stack and trap in `@f2`.
fn assert_recursion_traps(name: &str, f2: &str) {
    let dir = tempfile::tempdir().unwrap();
    let recurse = Function::helper("i32", &["i32"], f2);
    let body = "  %b0:\n    %v0 = call i32 @f2(i32 %p0);\n    ret i32 %v0;";
    let case = trap_case(&[Ty::I32], &[], body, vec![Val::i32(0)]).functions(vec![recurse]);
    assert_trap(&run(&case, dir.path(), name, &[]), "call stack exhausted", "@f2");
}

#[test]
fn infinite_recursion_exhausts_the_call_stack() {
    assert_recursion_traps(
        "recursion",
        "  function i32 @f2(i32 %p0) {\n    blocks 1;\n    constants {\n      i32:\n        %c0 = i32 1;\n    }\n  %b0:\n    %v0 = add i32 %p0, %c0;\n    %v1 = call i32 @f2(i32 %v0);\n    %v2 = add i32 %v1, %p0;\n    ret i32 %v2;\n  }",
    );
}

/// A recursion whose call is not in the entry block: the function checks the host stack
/// before its call rather than in its prologue, and still traps.
#[test]
fn infinite_recursion_behind_a_branch_exhausts_the_call_stack() {
    assert_recursion_traps(
        "recursion_behind_a_branch",
        "  function i32 @f2(i32 %p0) {\n    blocks 3;\n    constants {\n      i32:\n        %c0 = i32 1;\n        \
         %c1 = i32 0;\n    }\n  %b0:\n    %v0 = icmp sge i32 %p0, %c1;\n    br i1 %v0, label %b1, label %b2;\n  \
         %b1:\n    %v1 = add i32 %p0, %c0;\n    %v2 = call i32 @f2(i32 %v1);\n    %v3 = add i32 %v2, %p0;\n    \
         ret i32 %v3;\n  %b2:\n    ret i32 %p0;\n  }",
    );
}

#[test]
fn a_huge_alloca_exhausts_the_guest_stack() {
    let dir = tempfile::tempdir().unwrap();
    let body =
        "  %b0:\n    %v0 = alloca i8, i32 %p0, align 4;\n    store i32 %p0, i32* %v0, align 1;\n    ret i32 %v0;";
    for (i, size) in [0x7fff_ffffu32, 0xffff_ffff, 17 << 20].into_iter().enumerate() {
        let case = trap_case(&[Ty::I32], &[], body, vec![Val::i32(size)]);
        assert_trap(&run(&case, dir.path(), &format!("alloca{i}"), &[]), "guest stack exhausted", "@f0");
    }
}

#[test]
fn a_static_frame_first_needed_on_one_path_is_checked_there() {
    // The entry block's constant alloca (larger than the whole main stack) is used on one
    // path only: its frame is allocated there, and exhausts the guest stack there; the
    // other path never needs it.
    let dir = tempfile::tempdir().unwrap();
    let body = "  %b0:\n    %v0 = alloca i8, i32 %c0, align 16;\n    %v1 = icmp eq i32 %p0, %c1;\n    \
                br i1 %v1, label %b1, label %b2;\n  %b1:\n    ret i32 %c1;\n  %b2:\n    \
                store i32 %p0, i32* %v0, align 1;\n    %v2 = load i32* %v0, align 1;\n    ret i32 %v2;";
    let constants = [("i32", "16777200"), ("i32", "0")];
    let case = trap_case(&[Ty::I32], &constants, body, vec![Val::i32(0)]);
    assert_eq!(exit_value(&run(&case, dir.path(), "late_frame_unused", &[])), 0);
    let case = trap_case(&[Ty::I32], &constants, body, vec![Val::i32(1)]);
    assert_trap(&run(&case, dir.path(), "late_frame_used", &[]), "guest stack exhausted", "@f0");
    let constants = [("i32", "4096"), ("i32", "0")];
    let case = trap_case(&[Ty::I32], &constants, body, vec![Val::i32(7)]);
    assert_eq!(exit_value(&run(&case, dir.path(), "late_frame_small", &[])), 7);
}

#[test]
fn division_by_zero_and_overflow_trap() {
    let dir = tempfile::tempdir().unwrap();
    for (i, op) in ["udiv", "sdiv", "urem", "srem"].into_iter().enumerate() {
        let body = format!("  %b0:\n    %v0 = {op} i32 %p0, %p1;\n    ret i32 %v0;");
        let case = trap_case(&[Ty::I32, Ty::I32], &[], &body, vec![Val::i32(7), Val::i32(0)]);
        assert_trap(&run(&case, dir.path(), &format!("div{i}"), &[]), "integer divide by zero", "@f0");
    }
    let body = "  %b0:\n    %v0 = sdiv i64 %p0, %p1;\n    %v1 = trunc i64 %v0 to i32;\n    ret i32 %v1;";
    let case = trap_case(&[Ty::I64, Ty::I64], &[], body, vec![Val::i64(1 << 63), Val::i64(u64::MAX)]);
    assert_trap(&run(&case, dir.path(), "overflow", &[]), "integer overflow", "@f0");
}

#[test]
fn unreachable_and_llvm_trap_trap() {
    let dir = tempfile::tempdir().unwrap();
    let case = trap_case(&[Ty::I32], &[], "  %b0:\n    unreachable;", vec![Val::i32(0)]);
    assert_trap(&run(&case, dir.path(), "unreachable", &[]), "unreachable executed", "@f0");
    let case = trap_case(&[Ty::I32], &[], "  %b0:\n    call void @f2();\n    ret i32 %p0;", vec![Val::i32(0)])
        .functions(vec![Function::intrinsic("llvm.trap", "void", &[])]);
    assert_trap(&run(&case, dir.path(), "trap", &[]), "llvm.trap called", "@f0");
}

#[test]
fn memory_intrinsics_stay_in_the_guest_space() {
    let dir = tempfile::tempdir().unwrap();
    let memcpy = Function::intrinsic("llvm.memcpy.p0i8.p0i8.i32", "void", &["i32", "i32", "i32", "i32", "i1"]);
    let memset = Function::intrinsic("llvm.memset.p0i8.i32", "void", &["i32", "i8", "i32", "i32", "i1"]);
    let constants = [("i32", "1"), ("i1", "0"), ("i8", "7")];
    // A range running past 4 GiB.
    let body = "  %b0:\n    call void @f2(i32 %p0, i32 @g7, i32 %p1, i32 %c0, i1 %c1);\n    ret i32 %p0;";
    let case = Case::new(&[Ty::I32, Ty::I32], Ty::I32, &constants, body)
        .inputs(vec![vec![Val::i32(0xffff_ff00), Val::i32(0x200)]])
        .functions(vec![memcpy.clone(), memset.clone()]);
    assert_trap(&run(&case, dir.path(), "memcpy_end", &[]), "memory intrinsic out of bounds", "@f0");
    // Into the null page, and from unmapped memory: the fault in host code names the
    // guest function all the same.
    let body = "  %b0:\n    call void @f3(i32 %p0, i8 %c2, i32 %p1, i32 %c0, i1 %c1);\n    ret i32 %p0;";
    let case = Case::new(&[Ty::I32, Ty::I32], Ty::I32, &constants, body)
        .inputs(vec![vec![Val::i32(0x100), Val::i32(16)]])
        .functions(vec![memcpy.clone(), memset]);
    assert_trap(&run(&case, dir.path(), "memset_null", &[]), "memory access out of bounds", "@f0");
    let body = "  %b0:\n    call void @f2(i32 @g7, i32 %p0, i32 %p1, i32 %c0, i1 %c1);\n    ret i32 %p0;";
    let case = Case::new(&[Ty::I32, Ty::I32], Ty::I32, &constants, body)
        .inputs(vec![vec![Val::i32(0x4000_0000), Val::i32(64)]])
        .functions(vec![
            memcpy,
            Function::intrinsic("llvm.memset.p0i8.i32", "void", &["i32", "i8", "i32", "i32", "i1"]),
        ]);
    assert_trap(&run(&case, dir.path(), "memcpy_unmapped", &[]), "memory access out of bounds", "@f0");
}

#[test]
fn longjmp_to_a_buffer_no_setjmp_filled_traps() {
    let dir = tempfile::tempdir().unwrap();
    let body = "  %b0:\n    call void @f2(i32 @g7, i32 %p0);\n    ret i32 %p0;";
    let case = trap_case(&[Ty::I32], &[], body, vec![Val::i32(1)]).functions(vec![Function::intrinsic(
        "llvm.nacl.longjmp",
        "void",
        &["i32", "i32"],
    )]);
    assert_trap(&run(&case, dir.path(), "longjmp", &[]), "longjmp to an invalid jmp_buf", "@f0");
}

/// A C string as a PNaClAsm constant initializer.
fn c_string(s: &str) -> String {
    let bytes: Vec<String> = s.bytes().chain([0]).map(|b| b.to_string()).collect();
    format!("{{ {} }}", bytes.join(", "))
}

/// `@f0(size)`: queries nacl-irt-memory-0.3 (into the scratch area) and maps `size`-byte
/// anonymous regions until mmap fails, touching the first byte of each; returns
/// `count << 8 | errno`.
fn mmap_until_failure() -> Case {
    let body = "  %b0:
    %v0 = add i32 @g4, %c0;
    %v1 = load i32* %v0, align 1;
    %v2 = call i32 %v1(i32 @g8, i32 @g7, i32 %c1);
    %v3 = load i32* @g7, align 1;
    %v4 = add i32 @g7, %c2;
    br label %b1;
  %b1:
    declare i32 %v9;
    %v5 = phi i32 [%c3, %b0], [%v9, %b2];
    %v6 = call i32 %v3(i32 %v4, i32 %p0, i32 %c4, i32 %c5, i32 %c6, i64 %c7);
    %v7 = icmp eq i32 %v6, %c3;
    br i1 %v7, label %b2, label %b3;
  %b2:
    %v8 = load i32* %v4, align 1;
    store i32 %v5, i32* %v8, align 1;
    %v9 = add i32 %v5, %c8;
    br label %b1;
  %b3:
    %v10 = shl i32 %v5, %c9;
    %v11 = or i32 %v10, %v6;
    ret i32 %v11;";
    let constants = [
        ("i32", "4"),
        ("i32", "12"),
        ("i32", "64"),
        ("i32", "0"),
        ("i32", "3"),
        ("i32", "34"),
        ("i32", "-1"),
        ("i64", "0"),
        ("i32", "1"),
        ("i32", "8"),
    ];
    Case::new(&[Ty::I32], Ty::I32, &constants, body)
        .globals(vec![format!("const @g8, align 1, {}", c_string("nacl-irt-memory-0.3"))])
}

fn exit_value(out: &Output) -> u32 {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    u32::from_le_bytes(out.stdout[..4].try_into().unwrap())
}

#[test]
fn mmap_until_exhaustion_gives_enomem() {
    let dir = tempfile::tempdir().unwrap();
    const ENOMEM: u32 = 12;
    // The whole address space: 256 MiB regions until the heap is full (never touched
    // beyond one byte each, so the host does not commit them).
    let case = mmap_until_failure().inputs(vec![vec![Val::i32(256 << 20)]]);
    let v = exit_value(&run(&case, dir.path(), "mmap_all", &[]));
    assert_eq!(v & 0xff, ENOMEM);
    // 4 GiB less the null page, globals, the 16 MiB main stack and guard pages.
    assert_eq!(v >> 8, 15, "256 MiB regions mapped");
    // With a limit on committed memory: 16 MiB regions; the main stack (16 MiB) and the
    // globals are committed already.
    let case = mmap_until_failure().inputs(vec![vec![Val::i32(16 << 20)]]);
    let v = exit_value(&run(&case, dir.path(), "mmap_limit", &["--max-memory", "64M"]));
    assert_eq!(v & 0xff, ENOMEM);
    assert_eq!(v >> 8, 2, "16 MiB regions mapped under a 64 MiB limit");
}

/// `@f0(flags)`: queries nacl-irt-dev-filename-0.3 and opens the path in `@g8` with
/// `flags` and mode 0644; returns the errno (0 if it opened).
fn open_path(path: &str) -> Case {
    let body = "  %b0:
    %v0 = add i32 @g4, %c0;
    %v1 = load i32* %v0, align 1;
    %v2 = call i32 %v1(i32 @g9, i32 @g7, i32 %c1);
    %v3 = load i32* @g7, align 1;
    %v4 = add i32 @g7, %c2;
    %v5 = call i32 %v3(i32 @g8, i32 %p0, i32 %c3, i32 %v4);
    ret i32 %v5;";
    Case::new(&[Ty::I32], Ty::I32, &[("i32", "4"), ("i32", "64"), ("i32", "128"), ("i32", "420")], body).globals(vec![
        format!("const @g8, align 1, {}", c_string(path)),
        format!("const @g9, align 1, {}", c_string("nacl-irt-dev-filename-0.3")),
    ])
}

const O_RDONLY: u32 = 0;
const O_WRONLY_CREAT: u32 = 0o101;
const ENOENT: u32 = 2;

#[test]
fn files_outside_the_dir_options_are_unreachable() {
    let dir = tempfile::tempdir().unwrap();
    let open = |path: &str, flags: u32, opts: &[&str], name: &str| {
        let case = open_path(path).inputs(vec![vec![Val::i32(flags)]]);
        exit_value(&run(&case, dir.path(), name, opts))
    };
    // No --dir: nothing exists.
    assert_eq!(open("/etc/passwd", O_RDONLY, &[], "passwd"), ENOENT);
    assert_eq!(open("etc/passwd", O_RDONLY, &[], "passwd_relative"), ENOENT);
    // With a directory mounted at /data: its files are reachable, nothing else.
    let mounted = tempfile::tempdir().unwrap();
    std::fs::write(mounted.path().join("inside.txt"), b"hello").unwrap();
    let spec = format!("{}::/data", mounted.path().display());
    let with_dir = ["--dir", spec.as_str()];
    assert_eq!(open("/data/inside.txt", O_RDONLY, &with_dir, "inside"), 0);
    assert_eq!(open("/data/../../../etc/passwd", O_RDONLY, &with_dir, "dotdot"), ENOENT);
    assert_eq!(open("/etc/passwd", O_RDONLY, &with_dir, "passwd_with_dir"), ENOENT);
    std::os::unix::fs::symlink("/etc/passwd", mounted.path().join("link")).unwrap();
    assert_ne!(open("/data/link", O_RDONLY, &with_dir, "symlink"), 0, "a symbolic link out of the directory");
    // Creating files: inside works, outside touches nothing.
    assert_eq!(open("/data/new.txt", O_WRONLY_CREAT, &with_dir, "create_inside"), 0);
    assert!(mounted.path().join("new.txt").is_file());
    let outside = dir.path().join("outside.txt");
    let escape = format!("/data/../{}", outside.display());
    assert_ne!(open(&escape, O_WRONLY_CREAT, &with_dir, "create_outside"), 0);
    assert_ne!(open(&outside.display().to_string(), O_WRONLY_CREAT, &with_dir, "create_absolute"), 0);
    assert!(!outside.exists(), "no file was created outside --dir");
}

/// Every browser pexe of the corpus is refused with status 126, before translation (the
/// time it takes is in `scripts/bench run`).
#[test]
fn browser_pexes_are_refused_cleanly() {
    let browser: Vec<_> = pnacl_testutil::pexes().into_iter().filter(|p| p.kind == "ppapi").collect();
    assert_eq!(browser.len(), 12);
    for pexe in browser {
        let out = pnacl_command().current_dir(corpus_dir()).args(["run", &pexe.file]).output().expect("run pnacl");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(126), "{}: stderr: {stderr}", pexe.file);
        assert_eq!(
            stderr,
            format!(
                "pnacl run: {}: a browser (PPAPI) application: it uses the nacl-irt-ppapihook interface. pnacl \
                 runs command-line pexes only.\n",
                pexe.file
            )
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn modules_that_break_the_abi_are_refused_before_running() {
    let dir = tempfile::tempdir().unwrap();
    // Arithmetic on i1 is not in the ABI.
    let body = "  %b0:\n    %v0 = trunc i32 %p0 to i1;\n    %v1 = add i1 %v0, %v0;\n    %v2 = zext i1 %v1 to i32;\n    ret i32 %v2;";
    let case = trap_case(&[Ty::I32], &[], body, vec![Val::i32(1)]);
    let out = run(&case, dir.path(), "abi", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "stderr: {stderr}");
    assert!(stderr.contains("[abi.int-arith-i1]"), "{stderr}");
    assert!(stderr.contains("not ABI-clean"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn constants_are_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let body = "  %b0:\n    %v0 = load i32* @g8, align 1;\n    store i32 %p0, i32* @g8, align 1;\n    ret i32 %v0;";
    let case =
        trap_case(&[Ty::I32], &[], body, vec![Val::i32(5)]).globals(vec!["const @g8, align 4, { 1, 2, 3, 4 }".into()]);
    assert_trap(&run(&case, dir.path(), "const", &[]), "write to read-only memory", "@f0");
}

/// `@f0(buf, count)`: the IRT's `write(1, buf, count, &n)`; returns its result.
const WRITE: &str = "  %b0:
    %v0 = add i32 @g2, %c0;
    %v1 = load i32* %v0, align 1;
    %v2 = call i32 %v1(i32 %c1, i32 %p0, i32 %p1, i32 @g7);
    ret i32 %v2;";

#[test]
fn bad_pointers_passed_to_the_irt_give_efault() {
    let dir = tempfile::tempdir().unwrap();
    const EFAULT: u32 = 14;
    let rows = [(0x10u32, 5u32), (0xffff_fff0, 0x100), (0x4000_0000, 8), (0xffff_0000, 1)];
    let case = Case::new(&[Ty::I32, Ty::I32], Ty::I32, &[("i32", "16"), ("i32", "1")], WRITE)
        .inputs(rows.iter().map(|&(a, n)| vec![Val::i32(a), Val::i32(n)]).collect());
    case.check(dir.path(), "efault", |_| Val::i32(EFAULT));
}

#[test]
fn futex_wait_checks_the_value_and_the_absolute_deadline() {
    let dir = tempfile::tempdir().unwrap();
    // @f0(expected, seconds): futex_wait_abs(@g7 (holding 0), expected, {seconds, 0}).
    let body = "  %b0:
    %v0 = add i32 @g4, %c0;
    %v1 = load i32* %v0, align 1;
    %v2 = add i32 @g7, %c1;
    %v3 = call i32 %v1(i32 @g8, i32 %v2, i32 %c2);
    %v4 = load i32* %v2, align 1;
    %v5 = add i32 @g7, %c3;
    %v6 = zext i32 %p1 to i64;
    store i64 %v6, i64* %v5, align 1;
    %v7 = call i32 %v4(i32 @g7, i32 %p0, i32 %v5);
    ret i32 %v7;";
    const EAGAIN: u32 = 11;
    const ETIMEDOUT: u32 = 110;
    let case =
        Case::new(&[Ty::I32, Ty::I32], Ty::I32, &[("i32", "4"), ("i32", "64"), ("i32", "8"), ("i32", "32")], body)
            .globals(vec![format!("const @g8, align 1, {}", c_string("nacl-irt-futex-0.1"))])
            .inputs(vec![vec![Val::i32(0), Val::i32(1)], vec![Val::i32(5), Val::i32(1)]]);
    // A deadline in 1970 has passed; a value that differs returns at once.
    case.check(dir.path(), "futex", |row| Val::i32(if row[0] == Val::i32(0) { ETIMEDOUT } else { EAGAIN }));
}

#[test]
fn exit_from_any_thread_ends_the_process_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    // The main thread starts a thread that calls exit(7), then yields forever.
    let body = "  %b0:
    %v0 = add i32 @g4, %c0;
    %v1 = load i32* %v0, align 1;
    %v2 = call i32 %v1(i32 @g8, i32 @g7, i32 %c1);
    %v3 = load i32* @g7, align 1;
    %v4 = add i32 @g9, %c2;
    %v5 = call i32 %v3(i32 @f2, i32 %v4, i32 %c3);
    br label %b1;
  %b1:
    %v6 = add i32 @g3, %c4;
    %v7 = load i32* %v6, align 1;
    %v8 = call i32 %v7();
    br label %b1;";
    let worker = "  function void @f2() {
    blocks 1;
    constants {
      i32:
        %c0 = i32 7;
    }
  %b0:
    %v0 = load i32* @g3, align 1;
    call void %v0(i32 %c0);
    unreachable;
  }";
    let case = Case::new(
        &[Ty::I32],
        Ty::I32,
        &[("i32", "4"), ("i32", "12"), ("i32", "65536"), ("i32", "0"), ("i32", "16")],
        body,
    )
    .functions(vec![Function::helper("void", &[], worker)])
    .globals(vec![
        format!("const @g8, align 1, {}", c_string("nacl-irt-thread-0.1")),
        "var @g9, align 16, zerofill 65536;".into(),
    ])
    .inputs(vec![vec![Val::i32(0)]]);
    let out = run(&case, dir.path(), "exit_thread", &[]);
    assert_eq!(out.status.code(), Some(7), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}
