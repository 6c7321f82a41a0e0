//! Standard output gathered by the Node host (crates/wasm/js/gather.mjs) keeps the order of
//! what the guest wrote: a C program writing stdout and stderr line by line to one pipe
//! (`2>&1 | cat`) shows the same bytes under `pnacl run` and under `pnacl wasm` and Node,
//! 200,000 lines of it included; a reader that closes the pipe ends it with 141 as
//! SIGPIPE ends `pnacl run`'s guest; and the exit status is the guest's.

use pnacl_testutil::wasm::{node, translate};
use pnacl_testutil::{pnacl_binary, pnacl_command};
use std::path::Path;
use std::process::Command;

/// `sh -c CMD`: standard output and error of `program` on one pipe read by `cat`.
fn through_pipe(program: &str, tail: &str) -> std::process::Output {
    Command::new("sh").arg("-c").arg(format!("({program}) 2>&1 | {tail}")).output().expect("run sh")
}

#[test]
fn gathered_output_keeps_its_order_and_the_guests_ending() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/interleave.c");
    let pexe = dir.path().join("interleave.pexe");
    let out = pnacl_command().args(["cc", "-O2"]).arg(&source).arg("-o").arg(&pexe).output().expect("run pnacl cc");
    assert!(out.status.success(), "pnacl cc: {}", String::from_utf8_lossy(&out.stderr));
    let launcher = translate(&pexe, dir.path(), "interleave", &[]);
    let run = format!("{} run {}", pnacl_binary().display(), pexe.display());
    let wasm = format!("{} {}", node().display(), launcher.display());
    for lines in ["10", "200000"] {
        let native = through_pipe(&format!("{run} {lines}; echo status $?"), "cat");
        let translated = through_pipe(&format!("{wasm} {lines}; echo status $?"), "cat");
        assert!(native.stdout.ends_with(b"done\nstatus 3\n"), "{}", String::from_utf8_lossy(&native.stdout));
        assert!(
            translated.stdout == native.stdout,
            "{lines} lines: the order differs:\n--- pnacl run\n{}\n--- node\n{}",
            String::from_utf8_lossy(&native.stdout[..native.stdout.len().min(400)]),
            String::from_utf8_lossy(&translated.stdout[..translated.stdout.len().min(400)])
        );
    }
    // A reader that stops early: the writer ends as by SIGPIPE (141 from node, which
    // ignores the signal; 128 + 13 from the shell for pnacl run's guest).
    let closed = Command::new("bash")
        .arg("-c")
        .arg(format!("{wasm} 200000 2>/dev/null | head -c 10 >/dev/null; echo ${{PIPESTATUS[0]}}"))
        .output()
        .expect("run bash");
    assert_eq!(String::from_utf8_lossy(&closed.stdout).trim(), "141");
}
