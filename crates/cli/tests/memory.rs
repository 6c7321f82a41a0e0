//! Memory follows the input, not the sizes it declares (issue 32): `simplify` refuses, in
//! little memory, small `.bc` files that declare 8 GiB of globals; `pnacl cc -O2` of
//! `char big[400000000] = {1};` works under `ulimit -v 4G`, in memory for its one byte.
//! Each peak memory is printed (`cargo test -- --nocapture`).

mod support;

use pnacl_testutil::llvm_tool;
use std::path::Path;
use support::{mb, measured, pnacl, text};

/// `text` (LLVM IR) assembled by llvm-as-14 into `dir/name.bc`.
fn bitcode(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let ll = dir.join(format!("{name}.ll"));
    std::fs::write(&ll, text).unwrap();
    let bc = dir.join(format!("{name}.bc"));
    let o = std::process::Command::new(llvm_tool("llvm-as", 14)).arg(&ll).arg("-o").arg(&bc).output().unwrap();
    assert!(o.status.success(), "llvm-as-14 {name}: {}", support::text(&o.stderr));
    bc
}

/// A module whose `_start` stores through a pointer to global `@big` of type `ty` with
/// initializer `init` (and to `@other`, of the same type, if `other` is its initializer).
fn module(ty: &str, init: &str, other: Option<&str>) -> String {
    let mut s = format!(
        "target datalayout = \"e-p:32:32-i64:64\"\ntarget triple = \"le32-unknown-nacl\"\n@big = global {ty} {init}\n"
    );
    if let Some(other) = other {
        s.push_str(&format!("@other = global {ty} {other}\n"));
    }
    s.push_str(&format!(
        "define void @_start(i32 %a) {{\n  %p = bitcast {ty}* @big to i32*\n  store i32 %a, i32* %p\n"
    ));
    if other.is_some() {
        s.push_str(&format!("  %q = bitcast {ty}* @other to i32*\n  store i32 %a, i32* %q\n"));
    }
    s.push_str("  ret void\n}\n");
    s
}

#[test]
fn simplify_refuses_globals_larger_than_the_address_space_in_little_memory() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let packed = "<{ i8, [8589934591 x i8] }>";
    let cases = [
        ("zero-i8", module("[8589934592 x i8]", "zeroinitializer", None), "global @big: 8589934592 bytes"),
        ("zero-i32", module("[2147483648 x i32]", "zeroinitializer", None), "global @big: 8589934592 bytes"),
        (
            "packed",
            module(packed, "<{ i8 1, [8589934591 x i8] zeroinitializer }>", None),
            "global @big: 8589934592 bytes",
        ),
        (
            "two-of-3-gib",
            module(
                "<{ i8, [3221225471 x i8] }>",
                "<{ i8 1, [3221225471 x i8] zeroinitializer }>",
                Some("<{ i8 2, [3221225471 x i8] zeroinitializer }>"),
            ),
            "the globals: 6442450944 bytes",
        ),
    ];
    for (name, text, message) in cases {
        let bc = bitcode(dir.path(), name, &text);
        let size = std::fs::metadata(&bc).unwrap().len();
        let mut command = pnacl(home.path());
        command.arg("simplify").arg(&bc).arg("-o").arg(dir.path().join("out.pexe"));
        let (o, peak) = measured(&mut command, Some(1 << 30));
        let stderr = support::text(&o.stderr);
        eprintln!("simplify of {name}.bc ({size} bytes): status {:?}, peak memory {:.1} MB", o.status.code(), mb(peak));
        assert_eq!(o.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(message)
                && stderr.contains("of data: more than the 4 GiB a PNaCl program's 32-bit address space holds"),
            "{name}: {stderr}"
        );
        assert!(size < 2048, "{name}.bc is {size} bytes");
    }
}

#[test]
fn cc_of_a_400_mb_initializer_works_under_a_4_gib_address_space_limit() {
    llvm_tool("clang", 14);
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("big.c");
    std::fs::write(&c, "char big[400000000] = {1};\nint main(void) { return big[0] + big[399999999] + 40; }\n")
        .unwrap();
    let pexe = dir.path().join("big.pexe");
    // The C library is built (by clang, without the limit) first, as any first `pnacl cc`
    // does; the measured run is the program's.
    let warm = dir.path().join("warm.c");
    std::fs::write(&warm, "int main(void) { return 0; }\n").unwrap();
    let o = pnacl(home.path()).arg("cc").arg(&warm).arg("-o").arg(dir.path().join("warm.pexe")).output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut command = pnacl(home.path());
    command.args(["cc", "-O2"]).arg(&c).arg("-o").arg(&pexe);
    let (o, peak) = measured(&mut command, Some(4 << 30));
    eprintln!("pnacl cc -O2 of char big[400000000] = {{1}}; under ulimit -v 4G: peak memory {:.1} MB", mb(peak));
    assert!(o.status.success(), "{:?}: {}", o.status, text(&o.stderr));
    let size = std::fs::metadata(&pexe).unwrap().len();
    eprintln!("the pexe: {size} bytes");
    assert!(size < 64 << 10, "the pexe is {size} bytes");
    assert!(peak < 1 << 30, "peak memory {:.1} MB for one byte of data", mb(peak));
    let run = pnacl(home.path()).arg("run").arg("--stats").arg(&pexe).output().unwrap();
    assert_eq!(run.status.code(), Some(41), "{}", text(&run.stderr));
}
