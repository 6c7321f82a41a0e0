//! Inputs and outputs that are devices (issue 32): an input that never ends (`/dev/zero`,
//! `/dev/urandom`) is refused at its first bytes by every subcommand, and one larger than
//! `--max-input` by its size; an output that cannot be written (`/dev/full`) is an error
//! with status 1 in the usual format for every subcommand, never a panic nor a success;
//! the guest's own writes report the host's error; the perf map is never written through
//! a file someone planted in /tmp.

mod support;

use pnacl_testutil::{corpus_dir, pnacl_command};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use support::{example, give_away, pnacl, run_within, text};

/// `examples/factorial.pnaclasm` assembled into `dir`.
fn factorial(dir: &Path) -> PathBuf {
    let pexe = dir.join("factorial.pexe");
    let o = pnacl_command().arg("asm").arg(example("factorial.pnaclasm")).arg("-o").arg(&pexe).output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    pexe
}

/// A pexe with an ABI violation (a load with an alignment the ABI forbids): `check`
/// reports it on standard output.
fn violating(dir: &Path) -> PathBuf {
    let source = std::fs::read_to_string(example("factorial.pnaclasm")).unwrap();
    let bad = source.replace("load i32* %v0, align 1", "load i32* %v0, align 8");
    assert_ne!(bad, source);
    let path = dir.join("bad.pnaclasm");
    std::fs::write(&path, bad).unwrap();
    let pexe = dir.join("bad.pexe");
    let o = pnacl_command().arg("asm").arg(&path).arg("-o").arg(&pexe).output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    pexe
}

fn args(list: &[&str], substitutions: &[(&str, &Path)]) -> Vec<std::ffi::OsString> {
    list.iter()
        .map(|a| substitutions.iter().find(|(k, _)| k == a).map_or_else(|| a.into(), |(_, p)| p.as_os_str().to_owned()))
        .collect()
}

#[test]
fn an_input_that_never_ends_is_refused_at_its_first_bytes() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // `pnacl cc` reads .bc inputs itself.
    let zero_bc = dir.path().join("zero.bc");
    std::os::unix::fs::symlink("/dev/zero", &zero_bc).unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["analyze", "/dev/zero"], 1),
        (&["asm", "/dev/zero", "-o", "OUT"], 1),
        (&["asm", "/dev/urandom", "-o", "OUT"], 1),
        (&["check", "/dev/urandom"], 1),
        (&["check", "/dev/zero"], 1),
        (&["compile", "/dev/zero", "-o", "OUT"], 1),
        (&["compress", "/dev/zero", "-o", "OUT"], 1),
        (&["dis", "/dev/zero"], 1),
        (&["dis", "/dev/urandom"], 1),
        (&["finalize", "/dev/zero", "-o", "OUT"], 1),
        (&["freeze", "/dev/zero", "-o", "OUT"], 1),
        (&["rewrite", "/dev/zero", "-o", "OUT"], 1),
        (&["run", "/dev/zero"], 125),
        (&["run", "/dev/urandom"], 125),
        (&["simplify", "/dev/zero", "-o", "OUT"], 1),
        (&["thaw", "/dev/zero", "-o", "OUT"], 1),
        (&["cc", "ZERO_BC", "--nostdlib", "-o", "OUT"], 1),
    ];
    let mut subcommands: Vec<&str> = cases.iter().map(|c| c.0[0]).collect();
    subcommands.dedup();
    assert_eq!(subcommands.len(), 13, "every subcommand that reads an input (all but cache): {subcommands:?}");
    for (list, status) in cases {
        let mut command = pnacl(home.path());
        command.args(args(list, &[("OUT", &out), ("ZERO_BC", &zero_bc)])).stdout(Stdio::null());
        let o = run_within(&mut command, Duration::from_secs(60)).unwrap_or_else(|e| panic!("{list:?}: {e}"));
        let stderr = text(&o.stderr);
        assert_eq!(o.status.code(), Some(*status), "{list:?}: {stderr}");
        assert!(stderr.starts_with(&format!("pnacl {}: ", list[0])), "{list:?}: {stderr}");
        assert!(!out.exists(), "{list:?} wrote an output");
    }
}

#[test]
fn an_input_larger_than_max_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = factorial(dir.path());
    let size = std::fs::metadata(&pexe).unwrap().len();
    assert!(size > 256, "{size}");
    let o = pnacl_command().args(["--max-input", "256", "dis"]).arg(&pexe).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        format!("pnacl dis: {}: larger than 256 bytes (raise --max-input to read it)\n", pexe.display())
    );
    // From a pipe too, and for `run` (status 125).
    let mut child = pnacl_command()
        .args(["run", "--max-input", "1K", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, &vec![b' '; 4096]);
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(125));
    assert_eq!(text(&o.stderr), "pnacl run: <stdin>: larger than 1 KiB (raise --max-input to read it)\n");
    // Exactly the limit is read; the default is documented.
    let o = pnacl_command().args(["--max-input", &size.to_string(), "check"]).arg(&pexe).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let help = text(&pnacl_command().arg("--help").output().unwrap().stdout);
    assert!(help.contains("--max-input <SIZE>") && help.contains("default 1G"), "{help}");
}

/// `/dev/full` as standard output.
fn full() -> Stdio {
    Stdio::from(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
}

#[test]
fn a_full_standard_output_is_an_error_for_every_subcommand() {
    pnacl_testutil::llvm_tool("clang", 14);
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pexe = factorial(dir.path());
    let bad = violating(dir.path());
    let llvm = corpus_dir().join("llvm");
    let c = dir.path().join("three.c");
    std::fs::write(&c, "int main(void) { return 3; }\n").unwrap();
    let asm = example("factorial.pnaclasm");
    let (finalize_in, freeze_in) = (llvm.join("part2_unstripped.bc"), llvm.join("Main.bc"));
    let subs: &[(&str, &Path)] =
        &[("PEXE", &pexe), ("BAD", &bad), ("ASM", &asm), ("LL", &finalize_in), ("FR", &freeze_in), ("C", &c)];
    let table = dir.path().join("table.pexe");
    let cases: &[&[&str]] = &[
        &["analyze", "PEXE"],
        &["asm", "ASM", "-o", "-"],
        &["cache", "info"],
        &["cache", "clean"],
        &["cc", "C", "-o", "-"],
        &["check", "BAD"],
        &["check", "--json", "PEXE"],
        &["compile", "PEXE", "-o", "-"],
        &["compress", "PEXE", "-o", "-"],
        &["dis", "PEXE"],
        &["finalize", "LL", "-o", "-"],
        &["freeze", "FR", "-o", "-"],
        &["rewrite", "PEXE", "-o", "-"],
        &["simplify", "LL", "-o", "-"],
        &["thaw", "PEXE", "-o", "-"],
    ];
    for list in cases {
        let o = pnacl(home.path()).args(args(list, subs)).stdout(full()).output().unwrap();
        let stderr = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{list:?}: {:?} {stderr}", o.status);
        let expected = if list[1] == "--json" {
            "{\"command\":\"check\",\"file\":\"<stdout>\",\"message\":\"No space left on device (os error 28)\",\
             \"severity\":\"error\"}\n"
                .to_string()
        } else {
            format!("pnacl {}: <stdout>: No space left on device (os error 28)\n", list[0])
        };
        assert!(stderr.ends_with(&expected), "{list:?}: {stderr}");
    }
    // compress --stats writes its table to standard output when the pexe goes to a file.
    let o = pnacl(home.path())
        .args(["compress", "--stats"])
        .arg(&pexe)
        .arg("-o")
        .arg(&table)
        .stdout(full())
        .output()
        .unwrap();
    assert_eq!(
        (o.status.code(), text(&o.stderr)),
        (Some(1), "pnacl compress: <stdout>: No space left on device (os error 28)\n".into())
    );
    // Help and the version: pnacl's own.
    for list in [&["--help"][..], &["--version"], &["dis", "--help"], &["help", "run"]] {
        let o = pnacl(home.path()).args(list).stdout(full()).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{list:?}");
        assert_eq!(text(&o.stderr), "pnacl: <stdout>: No space left on device (os error 28)\n", "{list:?}");
    }
}

#[test]
fn a_full_standard_error_is_never_a_panic() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bad = violating(dir.path());
    let garbage = dir.path().join("garbage.pexe");
    std::fs::write(&garbage, b"PEXE garbage").unwrap();
    let out = dir.path().join("out");
    let part2 = corpus_dir().join("llvm/part2_unstripped.bc");
    let subs: &[(&str, &Path)] = &[("BAD", &bad), ("GARBAGE", &garbage), ("OUT", &out), ("P2", &part2)];
    let cases: &[(&[&str], i32)] = &[
        (&["check", "BAD"], 3), // the report goes to standard output
        (&["dis", "GARBAGE", "-o", "OUT"], 1),
        (&["compile", "BAD", "-o", "OUT"], 3),
        (&["run", "GARBAGE"], 125),
        (&["asm", "GARBAGE", "-o", "OUT"], 1),
        // Succeeds, but what it had to say on standard error was lost.
        (&["simplify", "P2", "--print-after", "expand-getelementptr", "-o", "OUT"], 1),
    ];
    for (list, status) in cases {
        let o = pnacl(home.path()).args(args(list, subs)).stdout(Stdio::null()).stderr(full()).output().unwrap();
        assert_eq!(o.status.code(), Some(*status), "{list:?}: {:?}", o.status);
    }
}

/// `examples/hello_world.pnaclasm` with its end changed: `writes` writes of its line, then
/// `exit` with the result of the IRT `write` (0, or a NaCl errno) if `exit_with_result`.
fn writer(dir: &Path, writes: usize, exit_with_result: bool) -> PathBuf {
    let source = std::fs::read_to_string(example("hello_world.pnaclasm")).unwrap();
    let old = "    %v17 = call i32 %v16(i32 %c6, i32 @g2, i32 %c7, i32 @g5);
    %v18 = call i32 %v13(i32 @g1, i32 @g4, i32 %c9);
    %v19 = load i32* @g4, align 1;
    call void %v19(i32 %c8);";
    assert!(source.contains(old));
    let mut new = String::new();
    for w in 0..writes {
        new.push_str(&format!("    %v{} = call i32 %v16(i32 %c6, i32 @g2, i32 %c7, i32 @g5);\n", 17 + w));
    }
    let v = 17 + writes;
    new.push_str(&format!("    %v{v} = call i32 %v13(i32 @g1, i32 @g4, i32 %c9);\n"));
    new.push_str(&format!("    %v{} = load i32* @g4, align 1;\n", v + 1));
    let status = if exit_with_result { format!("%v{}", 17 + writes - 1) } else { "%c8".into() };
    new.push_str(&format!("    call void %v{}(i32 {status});", v + 1));
    let path = dir.join(format!("writer{writes}.pnaclasm"));
    std::fs::write(&path, source.replace(old, &new)).unwrap();
    path
}

#[test]
fn a_guest_write_that_fails_reports_the_host_error() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Its one write fails with ENOSPC (28), which it exits with.
    let once = writer(dir.path(), 1, true);
    let o = pnacl(home.path()).arg("run").arg(&once).stdout(full()).output().unwrap();
    assert_eq!(o.status.code(), Some(28), "{}", text(&o.stderr));
    let o = pnacl(home.path()).arg("run").arg(&once).output().unwrap();
    assert_eq!((o.status.code(), text(&o.stdout)), (Some(0), "hello, world\n".to_string()));
    // Two writes to a file that may hold 20 bytes: the first (13 bytes) goes out at once,
    // the second is collected and fails when written out at exit, after the guest could
    // see it. Said on standard error, and exit status 0 becomes 1.
    let twice = writer(dir.path(), 2, false);
    let file = dir.path().join("out.txt");
    let mut command = pnacl(home.path());
    command.args(["run", "--no-cache"]).arg(&twice).stdout(std::fs::File::create(&file).unwrap());
    // SAFETY: only setrlimit and signal between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let rl = libc::rlimit { rlim_cur: 20, rlim_max: 20 };
            libc::setrlimit(libc::RLIMIT_FSIZE, &rl);
            Ok(())
        });
    }
    let o = command.output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        "pnacl run: <stdout>: the guest's last output could not be written: File too large (os error 27)\n"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello, world\nhello, ");
}

/// Runs `pnacl run --perf-map` of hello_world through `sh`, which first runs `prepare`
/// with `$MAP` set to `/tmp/perf-PID.map` for the PID `pnacl` will have (`exec`).
fn run_with_perf_map(prepare: &str) -> (Output, PathBuf) {
    let script = format!("MAP=/tmp/perf-$$.map; {prepare}; echo $MAP >&2; exec \"$0\" run --perf-map \"$1\"");
    let o = Command::new("sh")
        .args(["-c", &script])
        .arg(pnacl_testutil::pnacl_binary())
        .arg(example("hello_world.pnaclasm"))
        .output()
        .unwrap();
    let stderr = text(&o.stderr);
    let map = PathBuf::from(stderr.lines().next().expect("the map's name"));
    (o, map)
}

#[test]
fn the_perf_map_is_never_written_through_a_planted_file() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    // A symbolic link planted where the map will be.
    let (o, map) = run_with_perf_map(&format!("ln -s {} $MAP", victim.display()));
    let _ = std::fs::remove_file(&map);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n", "the map was written through the link");
    let warning = format!("pnacl: warning: no perf map: {}: it exists, as a symbolic link\n", map.display());
    assert!(text(&o.stderr).ends_with(&warning), "{}", text(&o.stderr));
    // A fresh map is written, with the functions' names.
    let (o, map) = run_with_perf_map("true");
    let written = std::fs::read_to_string(&map).unwrap_or_default();
    let _ = std::fs::remove_file(&map);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(written.ends_with(" _start\n"), "{written:?}");
    // A file of another user's is left alone.
    let (o, map) = run_with_perf_map(&format!("cp {} $MAP && chown 12345 $MAP", victim.display()));
    let left = std::fs::read_to_string(&map).unwrap_or_default();
    let _ = std::fs::remove_file(&map);
    give_away(dir.path()); // fails, saying so, when not root (the chown above then failed too)
    assert_eq!(left, "precious\n");
    let warning =
        format!("pnacl: warning: no perf map: {}: it exists, owned by uid 12345, not by you (uid 0)\n", map.display());
    assert!(text(&o.stderr).ends_with(&warning), "{}", text(&o.stderr));
}
