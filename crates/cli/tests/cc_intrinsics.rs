//! Today's intrinsics through the whole of `pnacl cc` and `pnacl run`: the programs of
//! `pnacl_testutil::intrinsic_programs` (every integer intrinsic family at `i1`, odd and
//! PNaCl widths, on PNaCl's vector types, the reductions and `llvm.is.fpclass`), assembled
//! by `llvm-as-19`, built by `pnacl cc -O0` (expansion at the intrinsic's width, then
//! integer promotion, the other passes, the translator) and run; their printed hashes must
//! be those `lli-19` prints for the original. The expansion alone is checked the same way
//! by the passes' `intrinsic_expansion` test, on vector types PNaCl lacks too.

use pnacl_testutil::intrinsic_programs::programs;
use pnacl_testutil::{llvm_tool, pnacl_command};
use std::process::Command;

fn output(cmd: &mut Command, what: &str) -> Result<Vec<u8>, String> {
    let o = cmd.output().map_err(|e| format!("{what}: cannot run: {e}"))?;
    if !o.status.success() {
        return Err(format!("{what} failed ({}): {}", o.status, String::from_utf8_lossy(&o.stderr)));
    }
    Ok(o.stdout)
}

#[test]
fn intrinsics_built_by_pnacl_cc_compute_what_lli_computes() {
    llvm_tool("clang", 14);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let programs: Vec<_> = programs().into_iter().filter(|p| p.pnacl_vectors).collect();
    assert!(programs.len() >= 25, "only {} programs", programs.len());
    let mut failures = Vec::new();
    let mut compared = 0;
    for p in &programs {
        let (ll, bc, pexe) = (
            dir.path().join(format!("{}.ll", p.name)),
            dir.path().join(format!("{}.bc", p.name)),
            dir.path().join(format!("{}.pexe", p.name)),
        );
        std::fs::write(&ll, &p.text).expect("write the program");
        let result = output(Command::new(llvm_tool("llvm-as", 19)).arg(&ll).arg("-o").arg(&bc), "llvm-as-19")
            .and_then(|_| output(Command::new(llvm_tool("lli", 19)).arg(&ll), "lli-19"))
            .and_then(|want| {
                output(pnacl_command().args(["cc", "-O0"]).arg(&bc).arg("-o").arg(&pexe), "pnacl cc")?;
                let got = output(pnacl_command().arg("run").arg(&pexe), "pnacl run")?;
                Ok((want, got))
            });
        match result {
            Ok((want, got)) if want == got => compared += String::from_utf8_lossy(&want).lines().count(),
            Ok((want, got)) => {
                let (want, got) = (String::from_utf8_lossy(&want), String::from_utf8_lossy(&got));
                let differ: Vec<&str> = want
                    .lines()
                    .zip(got.lines())
                    .filter(|(a, b)| a != b)
                    .filter_map(|(a, _)| a.split(' ').next()?.parse::<usize>().ok())
                    .filter_map(|k| p.calls.get(k).map(String::as_str))
                    .collect();
                failures.push(format!("{}: results differ for {}", p.name, differ.join(", ")));
            }
            Err(e) => failures.push(format!("{}: {e}", p.name)),
        }
    }
    println!("{} programs, {compared} intrinsic calls compared with lli-19", programs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
