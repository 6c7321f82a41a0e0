//! The library against glibc, on the host: the C harness of `libc/test`, built by
//! [`pnacl_libc::native::build_harness`], runs one family of checks per test. Each family
//! prints its figures (run with `--nocapture` to see them) and fails on any mismatch.

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

fn harness() -> &'static PathBuf {
    static HARNESS: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = HARNESS.get_or_init(|| {
        let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libc-native");
        pnacl_libc::native::build_harness(&work)
    });
    match built {
        Ok(path) => path,
        Err(e) => panic!("cannot build the native libc harness: {e}"),
    }
}

fn run_harness(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(harness());
    cmd.args(args).env_remove("HOST_IRT_HIDE").env_remove("HOST_IRT_CAPTURE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the libc harness")
}

/// Runs a family that reports by its exit status; shows its output either way.
fn family(args: &[&str]) {
    let out = run_harness(args, &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(
        out.status.success(),
        "libc family {args:?} failed ({}):\n{text}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn printf_matches_glibc() {
    family(&["printf", "300000", "1"]);
}

#[test]
fn strtod_matches_glibc() {
    family(&["strtod", "60000", "2"]);
}

#[test]
fn strtol_matches_glibc() {
    family(&["strtol", "200000", "3"]);
}

#[test]
fn math_within_one_ulp() {
    family(&["math", "150000", "4"]);
}

#[test]
fn malloc_stress() {
    family(&["malloc", "200000", "5"]);
}

#[test]
fn qsort_matches_glibc() {
    family(&["qsort", "3000", "6"]);
}

#[test]
fn string_functions_match_glibc() {
    family(&["string", "100000", "7"]);
}

#[test]
fn rand_clocks_and_calendar_match_glibc() {
    family(&["misc", "50000", "8"]);
}

#[test]
fn stdio_files_over_the_irt() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libc-stdio");
    std::fs::create_dir_all(&dir).expect("create the stdio test directory");
    family(&["stdio", dir.to_str().expect("utf-8 path")]);
}

fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// _start queries what newlib queries at startup, in newlib's order, with newlib's table
/// sizes (runtime-facts §4.1; the host IRT reports sizes in slots); argv and the
/// environment reach main and getenv.
#[test]
fn startup_queries_argv_and_environment() {
    let out = run_harness(&["startup", "one", "two words"], &[("PNACL_LIBC_TEST", "hello")]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout_of(&out),
        "nacl-irt-fdio-0.1 8 -> 8\n\
         nacl-irt-basic-0.1 6 -> 6\n\
         nacl-irt-memory-0.3 3 -> 3\n\
         nacl-irt-tls-0.1 2 -> 2\n\
         argv[1]=startup\n\
         argv[2]=one\n\
         argv[3]=two words\n\
         getenv=hello missing=(null)\n"
    );
}

/// The thread pointer handed to tls_init: aligned, pointing to itself, with the TLS
/// template (8 initialised bytes, 16 zero bytes) just below it, as ExpandTls lays it out.
#[test]
fn tls_block_follows_expand_tls_layout() {
    let out = run_harness(&["tls"], &[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out), "tp aligned 1 self 1 data ABCDEFGH zero 1\n");
}

/// stdout flushes through the last newline of each write, stderr writes at once (one
/// write per call), atexit handlers run last-registered first, exit flushes stdout and
/// passes its status to the IRT.
#[test]
fn exit_atexit_and_line_buffering() {
    let out = run_harness(&["exit"], &[("HOST_IRT_CAPTURE", "1")]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert_eq!(
        stdout_of(&out),
        "[1:a\n][2:X1][1:bc\n][1:line\n][1:de\n][2:perror: Success\n]\
         [1:fsecond registered, first run;first registered, last run\n]"
    );
}

/// Without fdio-0.1, memory-0.3 and dev-filename-0.3 the library falls back to
/// dev-fdio-0.1, memory-0.2 and dev-filename-0.2, as newlib does.
#[test]
fn older_interfaces_are_used_when_newer_are_missing() {
    let hidden = "nacl-irt-fdio-0.1,nacl-irt-memory-0.3,nacl-irt-dev-filename-0.3";
    let out = run_harness(&["fallback"], &[("HOST_IRT_HIDE", hidden)]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout_of(&out),
        "nacl-irt-fdio-0.1 8 -> 0\n\
         nacl-irt-dev-fdio-0.1 8 -> 8\n\
         nacl-irt-basic-0.1 6 -> 6\n\
         nacl-irt-memory-0.3 3 -> 0\n\
         nacl-irt-memory-0.2 4 -> 4\n\
         nacl-irt-tls-0.1 2 -> 2\n\
         nacl-irt-dev-filename-0.3 16 -> 0\n\
         nacl-irt-dev-filename-0.2 7 -> 7\n\
         malloc ok fopen ok\n"
    );
}

/// A missing essential interface: newlib's message on fd 2, then a trap.
#[test]
fn missing_essential_interface_traps() {
    let out = run_harness(&["printf"], &[("HOST_IRT_HIDE", "nacl-irt-basic-0.1")]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "IRT interface query failed for essential interface\n");
    assert_eq!(out.status.signal(), Some(4), "a trap (SIGILL on x86): {out:?}");
}

/// abort: NaCl newlib's message, then a trap.
#[test]
fn abort_writes_its_message_and_traps() {
    let out = run_harness(&["abort"], &[]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "** abort() called\n");
    assert_eq!(out.status.signal(), Some(4), "a trap (SIGILL on x86): {out:?}");
}

/// assert's failure: glibc's message (program name, place, expression), then abort.
#[test]
fn assert_failure_message() {
    let out = run_harness(&["assert"], &[]);
    let program = harness().to_string_lossy().into_owned();
    assert_eq!(stdout_of(&out), "flushed first\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("{program}: file.c:12: fn: Assertion `1 == 2' failed.\n** abort() called\n")
    );
    assert_eq!(out.status.signal(), Some(4), "a trap (SIGILL on x86): {out:?}");
}
