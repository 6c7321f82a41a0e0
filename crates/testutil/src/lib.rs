//! Test support shared by the workspace's test suites: where the corpus is, what its
//! manifest and run table say.
//!
//! The corpus lives outside the repository, at `../shared/corpus` relative to the
//! workspace root. Tests that need it call [`corpus_dir`], which fails with a clear message
//! when it is missing, so no test can pass vacuously.

pub mod browser;
pub mod guest;
pub mod intrinsic_programs;
pub mod wasm;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root exists")
}

/// The corpus directory. Panics with instructions when it is missing.
pub fn corpus_dir() -> PathBuf {
    let dir = std::env::var_os("PNACL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/corpus"));
    assert!(
        dir.join("MANIFEST.tsv").is_file(),
        "the test corpus is missing: expected {}/MANIFEST.tsv (clone the shared material next to the \
         repository, or set PNACL_CORPUS to the corpus directory)",
        dir.display()
    );
    dir
}

/// The spec directory (`../shared/spec`). Panics with instructions when it is missing.
pub fn spec_dir() -> PathBuf {
    let dir = corpus_dir().join("../spec");
    assert!(
        dir.join("pnacl-bitcode-files.txt").is_file(),
        "the spec documents are missing: expected {}/pnacl-bitcode-files.txt",
        dir.display()
    );
    dir
}

/// The design notes directory (`../shared/design`). Panics when it is missing.
pub fn design_dir() -> PathBuf {
    let dir = corpus_dir().join("../design");
    assert!(
        dir.join("tools-facts.md").is_file(),
        "the design notes are missing: expected {}/tools-facts.md",
        dir.display()
    );
    dir
}

/// One row of `MANIFEST.tsv`.
#[derive(Clone, Debug)]
pub struct ManifestEntry {
    /// Path relative to the corpus directory, e.g. `cli/fact.pexe`.
    pub file: String,
    /// `cli`, `tiny`, `ppapi` or `llvm`.
    pub kind: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Hex SHA-256 of the file.
    pub sha256: String,
    /// Where it came from.
    pub origin: String,
}

impl ManifestEntry {
    /// The file's full path.
    pub fn path(&self) -> PathBuf {
        corpus_dir().join(&self.file)
    }

    /// True for PNaCl files (every kind but `llvm`).
    pub fn is_pexe(&self) -> bool {
        self.kind != "llvm"
    }
}

/// Every file the manifest lists, checked to exist with the listed size.
pub fn manifest() -> Vec<ManifestEntry> {
    let dir = corpus_dir();
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
    let mut out = Vec::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "bad manifest line: {line}");
        let e = ManifestEntry {
            file: f[0].into(),
            kind: f[1].into(),
            bytes: f[2].parse().expect("size"),
            sha256: f[3].into(),
            origin: f[4].into(),
        };
        let len = std::fs::metadata(e.path()).unwrap_or_else(|err| panic!("{}: {err}", e.file)).len();
        assert_eq!(len, e.bytes, "{} has {len} bytes, the manifest says {}", e.file, e.bytes);
        out.push(e);
    }
    assert!(!out.is_empty(), "the manifest lists no files");
    out
}

/// Every PNaCl file of the manifest.
pub fn pexes() -> Vec<ManifestEntry> {
    manifest().into_iter().filter(ManifestEntry::is_pexe).collect()
}

/// One row of `RUNS.tsv`.
#[derive(Clone, Debug)]
pub struct RunCase {
    /// The pexe, relative to the corpus directory.
    pub file: String,
    /// Guest arguments.
    pub args: Vec<String>,
    /// `test` or `bench`.
    pub role: String,
    /// A file under `expected/`, or `sha256:HEX:LENGTH`.
    pub expected_stdout: String,
    /// Expected exit status.
    pub expected_exit: i32,
    /// Median native run time (bench rows).
    pub native_seconds: Option<f64>,
}

impl RunCase {
    /// The case for messages: FILE and its arguments.
    pub fn name(&self) -> String {
        format!("{} {}", self.file, self.args.join(" "))
    }

    /// Every way a run of the case differs from what it expects: its exit status, then its
    /// standard output (a file under `expected/`, or a length and sha256 digest).
    pub fn differences(&self, out: &std::process::Output) -> Vec<String> {
        let name = self.name();
        let mut found = Vec::new();
        if out.status.code() != Some(self.expected_exit) {
            found.push(format!(
                "{name}: exit status {:?}, expected {}; stderr: {}",
                out.status.code(),
                self.expected_exit,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if let Err(e) = self.check_stdout(&out.stdout) {
            found.push(format!("{name}: {e}"));
        }
        found
    }

    /// Checks a run's standard output against the expected one.
    pub fn check_stdout(&self, stdout: &[u8]) -> Result<(), String> {
        let expected = &self.expected_stdout;
        if let Some(rest) = expected.strip_prefix("sha256:") {
            let (hash, len) = rest.split_once(':').ok_or("bad sha256 field")?;
            let len: usize = len.parse().map_err(|_| "bad length")?;
            if stdout.len() != len {
                return Err(format!("{} bytes, expected {len}", stdout.len()));
            }
            let got = sha256_hex(stdout);
            return if got == hash { Ok(()) } else { Err(format!("sha256 {got}, expected {hash}")) };
        }
        let want = std::fs::read(corpus_dir().join(expected)).map_err(|e| format!("{expected}: {e}"))?;
        if want == stdout {
            Ok(())
        } else {
            Err(format!(
                "stdout differs from {expected}:\n--- expected\n{}\n--- got\n{}",
                String::from_utf8_lossy(&want),
                String::from_utf8_lossy(stdout)
            ))
        }
    }
}

/// The sha256 digest of `data` in hex, by `sha256sum` (coreutils).
fn sha256_hex(data: &[u8]) -> String {
    let out = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(data)?;
            child.wait_with_output()
        })
        .expect("sha256sum");
    String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap_or_default().to_string()
}

/// Every run case.
pub fn runs() -> Vec<RunCase> {
    let text = std::fs::read_to_string(corpus_dir().join("RUNS.tsv")).expect("read RUNS.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 5, "bad RUNS.tsv line: {line}");
            RunCase {
                file: f[0].into(),
                args: f[1].split(' ').filter(|a| !a.is_empty()).map(String::from).collect(),
                role: f[2].into(),
                expected_stdout: f[3].into(),
                expected_exit: f[4].parse().expect("exit status"),
                native_seconds: f.get(5).and_then(|s| s.parse().ok()),
            }
        })
        .collect()
}

/// Path of a binary built by this workspace (for tests that run the `pnacl` command).
pub fn pnacl_binary() -> PathBuf {
    // Integration tests of the `pnacl` package get CARGO_BIN_EXE_pnacl; others look next to
    // the test executable.
    let exe = std::env::current_exe().expect("test executable");
    let dir = exe.parent().and_then(Path::parent).expect("target dir");
    let bin = dir.join("pnacl");
    assert!(bin.is_file(), "the pnacl binary is not built at {}", bin.display());
    bin
}

/// The path of an LLVM tool of a given major version (`llvm_tool("llvm-as", 14)`):
/// `NAME-VERSION` on the PATH, or `/usr/lib/llvm-VERSION/bin/NAME`. Panics with what to
/// install when neither exists, so that a test needing it fails rather than passes.
pub fn llvm_tool(name: &str, version: u32) -> PathBuf {
    let versioned = format!("{name}-{version}");
    if let Some(p) = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(&versioned))
        .find(|p| p.is_file())
    {
        return p;
    }
    let p = PathBuf::from(format!("/usr/lib/llvm-{version}/bin/{name}"));
    assert!(
        p.is_file(),
        "{versioned} is not installed: this test needs LLVM {version}'s {name} \
         (Debian: apt-get install llvm-{version}{})",
        if name == "FileCheck" { "-tools" } else { "" }
    );
    p
}

/// The conformance material directory (`../shared/conformance`). Panics when missing.
pub fn conformance_dir() -> PathBuf {
    let dir = corpus_dir().join("../conformance");
    assert!(
        dir.join("freeze_goldens.py").is_file(),
        "the conformance material is missing: expected {}/freeze_goldens.py",
        dir.display()
    );
    dir
}

/// A `pnacl` command whose translation cache is the test cache (`XDG_CACHE_HOME` set to
/// cargo's temporary directory under the target directory), never the user's.
pub fn pnacl_command() -> Command {
    let mut c = Command::new(pnacl_binary());
    c.env("XDG_CACHE_HOME", test_cache_home());
    c
}

/// The `XDG_CACHE_HOME` of [`pnacl_command`]: `target/tmp/test-cache`.
pub fn test_cache_home() -> PathBuf {
    let bin = pnacl_binary();
    let target = bin.parent().and_then(Path::parent).expect("target dir");
    target.join("tmp").join("test-cache")
}

/// Copies the directory `from` into `to` (files and subdirectories).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a directory");
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let path = entry.expect("directory entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}
