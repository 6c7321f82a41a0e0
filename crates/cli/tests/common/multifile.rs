//! Shared by the multi-file `pnacl cc` suites (`cc_link`, `cc_split`): building one program
//! from several C files in a given order, with `pnacl cc` and natively with gcc for the
//! 32-bit x86 ABI, running both, and describing how they differ.
#![allow(dead_code)]

use pnacl_testutil::{llvm_tool, pnacl_command};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Fails the test when a tool it needs is missing, saying how to install it.
pub fn require(tool: &str, package: &str) {
    // From a scratch directory: csmith leaves a platform.info file where it runs.
    let dir = tempfile::tempdir().expect("temporary directory");
    let found = Command::new(tool).arg("--version").current_dir(dir.path()).output().is_ok();
    assert!(found, "`{tool}` is not installed: this test needs it (Debian: apt-get install {package})");
}

/// Fails the test unless gcc (with 32-bit support) and clang-14 are there.
pub fn require_compilers() {
    require("gcc", "gcc gcc-multilib");
    llvm_tool("clang", 14);
}

/// `files`, in this order, built by gcc -O1 for the 32-bit x86 ABI into `exe`: ILP32 as
/// le32 is, with `-malign-double` for le32's 8-byte alignment of 64-bit values.
pub fn native(files: &[PathBuf], flags: &[String], exe: &Path) -> Result<(), String> {
    let o = Command::new("gcc")
        .args(["-m32", "-malign-double", "-O1", "-w"])
        .args(flags)
        .args(files)
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "gcc -m32 {}: {} (32-bit builds need Debian's gcc-multilib)",
            names(files),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(())
}

/// `pnacl cc OPT FLAGS files -o pexe`, the files in this order.
pub fn pnacl_cc(files: &[PathBuf], opt: &str, flags: &[String], pexe: &Path) -> Result<(), String> {
    let o = pnacl_command()
        .arg("cc")
        .arg(opt)
        .arg("-w")
        .args(flags)
        .args(files)
        .arg("-o")
        .arg(pexe)
        .output()
        .map_err(|e| format!("cannot run pnacl: {e}"))?;
    if !o.status.success() {
        return Err(format!("pnacl cc {opt} {} failed: {}", names(files), String::from_utf8_lossy(&o.stderr)));
    }
    Ok(())
}

/// Runs `cmd` to its end, or kills it after `limit`; its output, or `None` on a timeout.
pub fn output_within(mut cmd: Command, limit: Duration) -> Option<Output> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()));
    // Read both pipes on threads so that a chatty program cannot block on a full pipe.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = (out.join().expect("stdout reader"), err.join().expect("stderr reader"));
    status.map(|status| Output { status, stdout, stderr })
}

/// Runs `pexe` with `pnacl run` (at most a minute: a miscompiled loop must not hang the test).
pub fn run_pexe(pexe: &Path) -> Result<Output, String> {
    let mut cmd = pnacl_command();
    cmd.arg("run").arg(pexe);
    output_within(cmd, Duration::from_secs(60)).ok_or_else(|| format!("pnacl run {} ran over a minute", pexe.display()))
}

/// A difference between a pexe's run and the native one, if any.
pub fn difference(what: &str, got: &Output, want: &Output) -> Option<String> {
    if got.stdout == want.stdout && got.status.code() == want.status.code() {
        return None;
    }
    Some(format!(
        "{what}: exit {:?} (native {:?}); stdout {:?}, native {:?}; stderr: {}",
        got.status.code(),
        want.status.code(),
        String::from_utf8_lossy(&got.stdout),
        String::from_utf8_lossy(&want.stdout),
        String::from_utf8_lossy(&got.stderr)
    ))
}

/// The file names of `files`, space-separated, for messages.
pub fn names(files: &[PathBuf]) -> String {
    files.iter().map(|f| f.file_name().unwrap_or_default().to_string_lossy()).collect::<Vec<_>>().join(" ")
}

/// Every order of `n` items.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            out.push(p);
        }
    }
    out.sort();
    out
}

/// `f` on every item, on up to `threads` threads; the results in the items' order.
pub fn parallel<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(item) = items.get(k) else { return };
                    let r = f(item);
                    results.lock().expect("results").push((k, r));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort_by_key(|r| r.0);
    results.into_iter().map(|r| r.1).collect()
}

/// Threads for a test: the machine's, at most 4.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).min(4)
}
