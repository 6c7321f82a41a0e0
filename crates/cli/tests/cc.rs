//! `pnacl cc` and `pnacl simplify` through the real binary: C programs built by clang-14,
//! pnacl's C library and the simplification passes, checked, run, and compared with the
//! same programs built natively by gcc; the benchmark-game programs against the corpus's
//! expected output; csmith's random programs; and the refusals.

use pnacl_testutil::{llvm_tool, pnacl_command, runs, workspace_root};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Fails the test when a tool it needs is missing, saying how to install it.
fn require(tool: &str, package: &str) {
    // From a scratch directory: csmith leaves a platform.info file where it runs.
    let dir = scratch();
    let found = Command::new(tool).arg("--version").current_dir(dir.path()).output().is_ok();
    assert!(found, "`{tool}` is not installed: this test needs it (Debian: apt-get install {package})");
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

fn pnacl(args: &[&std::ffi::OsStr]) -> Output {
    pnacl_command().args(args).output().expect("run pnacl")
}

/// `pnacl cc OPT src -o out`; panics with clang's and pnacl's messages on failure.
fn cc(src: &Path, opt: &str, extra: &[&str], out: &Path) {
    let mut cmd = pnacl_command();
    cmd.arg("cc").arg(opt).args(extra).arg(src).arg("-o").arg(out);
    let o = cmd.output().expect("run pnacl cc");
    assert!(o.status.success(), "pnacl cc {opt} {} failed:\n{}", src.display(), String::from_utf8_lossy(&o.stderr));
}

/// gcc -O1 natively for the 32-bit x86 ABI, whose C types have le32's sizes (ILP32) and,
/// with `-malign-double`, its 8-byte alignment of 64-bit values: csmith's programs compute
/// with `long` and `UL` constants, whose results an LP64 build does not share. Returns the
/// executable.
fn native(src: &Path, extra: &[&str], dir: &Path) -> PathBuf {
    let exe = dir.join("native");
    let o = Command::new("gcc")
        .args(["-m32", "-malign-double", "-O1", "-w"])
        .args(extra)
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("run gcc");
    assert!(
        o.status.success(),
        "gcc -m32 {}: {} (32-bit builds need Debian's gcc-multilib)",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    exe
}

fn run_pexe(pexe: &Path, args: &[&str]) -> Output {
    let mut cmd = pnacl_command();
    cmd.arg("run").arg(pexe).args(args);
    cmd.output().expect("run pnacl run")
}

/// Builds `src` with pnacl cc at each level and natively, runs both, compares stdout and
/// exit status; returns a description of every difference.
fn compare_with_native(src: &Path, extra: &[&str]) -> Vec<String> {
    let dir = scratch();
    let exe = native(src, extra, dir.path());
    let want = Command::new(&exe).output().expect("run the native program");
    let mut problems = Vec::new();
    for opt in ["-O0", "-O2"] {
        let pexe = dir.path().join(format!("p{opt}.pexe"));
        let mut cmd = pnacl_command();
        cmd.arg("cc").arg(opt).arg("-w").args(extra).arg(src).arg("-o").arg(&pexe);
        let built = cmd.output().expect("run pnacl cc");
        if !built.status.success() {
            problems.push(format!(
                "{} {opt}: pnacl cc failed: {}",
                src.display(),
                String::from_utf8_lossy(&built.stderr)
            ));
            continue;
        }
        let check = pnacl(&["check".as_ref(), pexe.as_os_str()]);
        if !check.status.success() {
            problems.push(format!("{} {opt}: pnacl check: {}", src.display(), String::from_utf8_lossy(&check.stdout)));
        }
        let got = run_pexe(&pexe, &[]);
        if got.stdout != want.stdout || got.status.code() != want.status.code() {
            problems.push(format!(
                "{} {opt}: exit {:?} (native {:?}), stdout {} bytes (native {}), first difference at byte {:?}; stderr: {}",
                src.display(),
                got.status.code(),
                want.status.code(),
                got.stdout.len(),
                want.stdout.len(),
                got.stdout.iter().zip(&want.stdout).position(|(a, b)| a != b),
                String::from_utf8_lossy(&got.stderr)
            ));
        }
    }
    problems
}

#[test]
fn c_programs_match_gcc() {
    require("gcc", "gcc gcc-multilib");
    llvm_tool("clang", 14);
    let dir = workspace_root().join("tests/c/programs");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/c/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 10, "expected the test programs in {}", dir.display());
    let problems: Vec<String> = sources.iter().flat_map(|s| compare_with_native(s, &[])).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The six benchmark-game programs, built with `pnacl cc -O2`, on every run case of their
/// Google-built pexes (`RUNS.tsv`, role `test`).
#[test]
fn benchmark_game_programs_give_the_expected_output() {
    llvm_tool("clang", 14);
    let dir = scratch();
    let mut checked = 0;
    for name in ["binarytrees", "fannkuchredux", "fasta", "mandelbrot", "nbody", "spectralnorm"] {
        let src = workspace_root().join(format!("tests/c/benchmarks/{name}.c"));
        let pexe = dir.path().join(format!("{name}.pexe"));
        cc(&src, "-O2", &[], &pexe);
        for case in runs().iter().filter(|r| r.role == "test" && r.file == format!("cli/{name}.pexe")) {
            let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
            let differences = case.differences(&run_pexe(&pexe, &args));
            assert!(differences.is_empty(), "pnacl cc -O2 {name}.c: {}", differences.join("\n"));
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} run cases of the benchmark programs in RUNS.tsv");
}

/// csmith seeds: the first 60 seeds whose native build finishes (a few csmith programs run
/// for minutes natively; they are skipped for that reason alone, before pnacl is involved).
/// Known failures, by seed, with the pass they point to, are listed in `CSMITH_KNOWN`.
const CSMITH_SEEDS: usize = 60;

/// Seeds that fail today, and why (see the closing note of issue 18).
const CSMITH_KNOWN: &[(u64, &str)] = &[];

#[test]
fn csmith_programs_match_gcc() {
    require("csmith", "csmith libcsmith-dev");
    require("gcc", "gcc gcc-multilib");
    llvm_tool("clang", 14);
    let include = Path::new("/usr/include/csmith");
    assert!(include.join("csmith.h").is_file(), "csmith.h is missing (Debian: apt-get install libcsmith-dev)");
    let inc = format!("-I{}", include.display());
    let seeds: Vec<u64> = (1..).take(CSMITH_SEEDS * 2).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let taken = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()).min(4) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if k >= seeds.len() || taken.load(std::sync::atomic::Ordering::SeqCst) >= CSMITH_SEEDS {
                        return;
                    }
                    let seed = seeds[k];
                    let dir = scratch();
                    let src = dir.path().join(format!("csmith{seed}.c"));
                    let generated =
                        // In the scratch directory: csmith leaves a platform.info file where it runs.
                        Command::new("csmith")
                            .args(["--seed", &seed.to_string()])
                            .current_dir(dir.path())
                            .output()
                            .expect("run csmith");
                    assert!(generated.status.success(), "csmith --seed {seed} failed");
                    std::fs::write(&src, &generated.stdout).expect("write the program");
                    let exe = native(&src, &[&inc], dir.path());
                    let finished = Command::new("timeout").arg("5").arg(&exe).output().expect("run the native program");
                    if finished.status.code() != Some(0) {
                        continue;
                    }
                    taken.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let problems = compare_with_native(&src, &[&inc]);
                    results.lock().expect("results").push((seed, problems));
                }
            });
        }
    });
    let results = results.into_inner().expect("results");
    assert!(results.len() >= 50, "only {} csmith seeds finished natively", results.len());
    let mut report = Vec::new();
    for (seed, problems) in &results {
        let known = CSMITH_KNOWN.iter().find(|k| k.0 == *seed);
        match (problems.is_empty(), known) {
            (false, None) => report.push(format!("seed {seed}:\n  {}", problems.join("\n  "))),
            (true, Some(_)) => report.push(format!("seed {seed} passes now: remove it from CSMITH_KNOWN")),
            _ => {}
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// IR no pass can bring into the ABI: a clear error naming the function and the
/// construct, exit status 1, and no output file.
#[test]
fn refusals_name_the_function_and_construct() {
    llvm_tool("clang", 14);
    let cases: &[(&str, &str, &[&str])] = &[
        ("int main(void) { __asm__ volatile(\"nop\"); return 0; }", "asm", &["function @main", "inline assembly"]),
        (
            "int main(void) { return (int)__builtin_readcyclecounter(); }",
            "intrinsic",
            &["function @main", "@llvm.readcyclecounter"],
        ),
        (
            "typedef int v2 __attribute__((vector_size(8)));\nv2 g = {1, 2};\n\
             int main(void) { v2 x = g + g; return x[0] + x[1]; }",
            "vector",
            &["function @main", "<2 x i32>"],
        ),
    ];
    let dir = scratch();
    for (source, name, expected) in cases {
        let src = dir.path().join(format!("{name}.c"));
        std::fs::write(&src, source).expect("write source");
        let out = dir.path().join(format!("{name}.pexe"));
        let o = pnacl(&["cc".as_ref(), "-O0".as_ref(), src.as_os_str(), "-o".as_ref(), out.as_os_str()]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{name}: {stderr}");
        for e in *expected {
            assert!(stderr.contains(e), "{name}: the message should name `{e}`:\n{stderr}");
        }
        assert!(!out.exists(), "{name}: a refused program must leave no output");
    }
}

/// `simplify` options: `--passes` with an unknown name, `--emit-llvm` giving IR that
/// LLVM 19 accepts, `--print-after`.
#[test]
fn simplify_options() {
    let clang = llvm_tool("clang", 14);
    let dir = scratch();
    let src = dir.path().join("s.c");
    std::fs::write(
        &src,
        "struct P { int a, b; };\nstruct P mk(int x) { struct P p = {x, x + 1}; return p; }\n\
                          void _start(int *p) { p[0] = mk(p[1]).b; }\n",
    )
    .expect("write");
    let bc = dir.path().join("s.bc");
    let o = Command::new(&clang)
        .args(["-target", "le32-unknown-nacl", "-emit-llvm", "-c", "-O0", "-ffreestanding", "-nostdinc"])
        .arg(&src)
        .arg("-o")
        .arg(&bc)
        .output()
        .expect("clang");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = pnacl(&[
        "simplify".as_ref(),
        bc.as_os_str(),
        "--passes".as_ref(),
        "no-such-pass".as_ref(),
        "-o".as_ref(),
        "-".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2), "an unknown pass is a usage error");
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown pass `no-such-pass`"));

    // Without `_start` nothing is exported, so nothing survives: said as such.
    let lib = dir.path().join("lib.c");
    std::fs::write(&lib, "int twice(int x) { return 2 * x; }\n").expect("write");
    let lib_bc = dir.path().join("lib.bc");
    let o = Command::new(&clang)
        .args(["-target", "le32-unknown-nacl", "-emit-llvm", "-c", "-O0", "-ffreestanding", "-nostdinc"])
        .arg(&lib)
        .arg("-o")
        .arg(&lib_bc)
        .output()
        .expect("clang");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("lib.pexe");
    let o = pnacl(&["simplify".as_ref(), lib_bc.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing defines `_start`"));
    assert!(!out.exists(), "a pexe was written");

    let ll = dir.path().join("s.ll");
    let o = pnacl(&[
        "simplify".as_ref(),
        bc.as_os_str(),
        "--emit-llvm".as_ref(),
        "--print-after".as_ref(),
        "expand-struct-regs".as_ref(),
        "-o".as_ref(),
        ll.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("; *** module after expand-struct-regs ***"));
    let text = std::fs::read_to_string(&ll).expect("IR written");
    let uses = text.lines().filter(|l| l.contains("%struct.P") && !l.starts_with("%struct.P = type")).count();
    assert_eq!(uses, 0, "the simplified module still uses the struct type:\n{text}");
    let o = Command::new(llvm_tool("llvm-as", 19))
        .arg(&ll)
        .arg("-o")
        .arg(dir.path().join("s2.bc"))
        .output()
        .expect("llvm-as-19");
    assert!(o.status.success(), "llvm-as-19 refuses the simplified module: {}", String::from_utf8_lossy(&o.stderr));
}

/// `--compress` (of cc, and so of the finalize step simplify and finalize share) writes the
/// pexe `pnacl compress` makes of the uncompressed one: smaller, the same IR, the same run.
#[test]
fn compress_option_writes_the_compressed_pexe() {
    let dir = scratch();
    let src = workspace_root().join("examples/hello.c");
    let plain = dir.path().join("plain.pexe");
    let small = dir.path().join("small.pexe");
    cc(&src, "-O2", &[], &plain);
    cc(&src, "-O2", &["--compress"], &small);
    let plain_bytes = std::fs::read(&plain).expect("plain pexe");
    let small_bytes = std::fs::read(&small).expect("compressed pexe");
    assert!(small_bytes.len() < plain_bytes.len(), "{} >= {} bytes", small_bytes.len(), plain_bytes.len());

    let again = dir.path().join("again.pexe");
    let o = pnacl(&["compress".as_ref(), plain.as_os_str(), "-o".as_ref(), again.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&again).expect("recompressed"), small_bytes, "cc --compress differs from compress");

    let listing = |p: &Path| {
        let o = pnacl(&[
            "rewrite".as_ref(),
            "--abbrevs".as_ref(),
            "standard".as_ref(),
            p.as_os_str(),
            "-o".as_ref(),
            "-".as_ref(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    assert_eq!(listing(&plain), listing(&small), "compression changed the module");
    let (a, b) = (run_pexe(&plain, &[]), run_pexe(&small, &[]));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!((a.status.code(), a.stdout), (b.status.code(), b.stdout));
}
