//! Shared by the hardening suites (issue 32): running `pnacl` with a cache of its own, with
//! a deadline, under a memory limit, and measuring its peak memory.
#![allow(dead_code)]

use pnacl_testutil::pnacl_binary;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `pnacl` with its cache under `cache_home` (`XDG_CACHE_HOME`), never the user's.
pub fn pnacl(cache_home: &Path) -> Command {
    let mut c = Command::new(pnacl_binary());
    c.env("XDG_CACHE_HOME", cache_home);
    c
}

/// Text of a command's output.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A file of the repository's `examples/`.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

/// True when the tests run as root (they then make files owned by another user).
pub fn is_root() -> bool {
    // SAFETY: a plain query.
    unsafe { libc::geteuid() == 0 }
}

/// A user id that is not the tests' own (for files "owned by another user").
pub const OTHER_UID: u32 = 12345;

/// Gives `path` (and, if a directory, everything in it) to [`OTHER_UID`]. Only root can:
/// anyone else gets a failure saying so, as the issue asks (no silent skip).
pub fn give_away(path: &Path) {
    assert!(
        is_root(),
        "this test makes files owned by another user (chown), which needs root; run the suite as root \
         (the other checks of this test passed)"
    );
    let status = Command::new("chown").arg("-R").arg(OTHER_UID.to_string()).arg(path).status().expect("chown");
    assert!(status.success(), "chown -R {OTHER_UID} {}", path.display());
}

/// Spawns `command` with its output piped; what it wrote, read as it runs.
fn collect(mut child: Child) -> (Child, std::thread::JoinHandle<Vec<u8>>, std::thread::JoinHandle<Vec<u8>>) {
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let o = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let e = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    (child, o, e)
}

/// Runs `command` (standard output as set, standard error piped), killing it if it is still
/// running after `limit`: an error then, with what it wrote to standard error.
pub fn run_within(command: &mut Command, limit: Duration) -> Result<Output, String> {
    let mut child = command.stderr(Stdio::piped()).spawn().map_err(|e| format!("cannot run: {e}"))?;
    let err = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let mut err = err;
        let _ = err.read_to_end(&mut v);
        v
    });
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let stderr = reader.join().unwrap_or_default();
            return Ok(Output { status, stdout: Vec::new(), stderr });
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let stderr = reader.join().unwrap_or_default();
            return Err(format!("still running after {limit:?} (killed); stderr: {}", text(&stderr)));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `command` with its address space limited to `limit` bytes (`ulimit -v`), if
/// given; returns its output and its peak resident memory in bytes (its own, not its
/// children's).
pub fn measured(command: &mut Command, limit: Option<u64>) -> (Output, u64) {
    if let Some(limit) = limit {
        // SAFETY: only setrlimit between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let rl = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                if libc::setrlimit(libc::RLIMIT_AS, &rl) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn pnacl");
    let pid = child.id() as libc::pid_t;
    let (child, out, err) = collect(child);
    let mut status = 0;
    // SAFETY: rusage is plain data, filled by wait4 for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    drop(child); // reaped by wait4 (dropping a child neither waits nor kills)
    let status = std::os::unix::process::ExitStatusExt::from_raw(status);
    let output = Output { status, stdout: out.join().unwrap(), stderr: err.join().unwrap() };
    (output, usage.ru_maxrss as u64 * 1024)
}

/// Megabytes, for messages.
pub fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}
