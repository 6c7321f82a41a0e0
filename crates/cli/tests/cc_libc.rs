//! The C library `pnacl cc` links (newlib under pnacl's platform layer): the programs of
//! `tests/c/libc`, each built by `pnacl cc` and by gcc and run side by side (files in a
//! scratch directory given with `--dir`, variables with `--env`, the same standard
//! input); the library's bitcode, as built in the cache; pnacl's own headers and platform
//! sources.

use pnacl_testutil::{llvm_tool, pnacl_command, test_cache_home, workspace_root};
use std::collections::BTreeSet;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// Standard input of every program (scanf reads it).
const INPUT: &str = "5 five 2.75 1 2 3 4\n";
/// The environment of every program (getenv reads it).
const ENV: &[(&str, &str)] = &[("PNACL_GREETING", "hello"), ("PNACL_EMPTY", "")];

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Builds `tests/c/examples/hello.c` once, so that the library is in the test cache;
/// returns the cache's library directories (newlib's, the platform's).
fn library() -> &'static (PathBuf, PathBuf) {
    static DIRS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    DIRS.get_or_init(|| {
        llvm_tool("clang", 14);
        let dir = scratch();
        let out = dir.path().join("hello.pexe");
        let o = pnacl_command()
            .args(["cc", "-O2"])
            .arg(workspace_root().join("examples/hello.c"))
            .arg("-o")
            .arg(&out)
            .output()
            .expect("run pnacl cc");
        assert!(o.status.success(), "pnacl cc hello.c: {}", String::from_utf8_lossy(&o.stderr));
        // Other tests build the library with clang-19 in the same cache: take clang-14's
        // (its `done` file holds the `clang --version` that built it).
        let by_clang_14 =
            |dir: &Path| std::fs::read_to_string(dir.join("done")).is_ok_and(|v| v.contains("clang version 14"));
        let newest = |prefix: &str| {
            std::fs::read_dir(test_cache_home().join("pnacl"))
                .expect("the test cache")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix)) && by_clang_14(p))
                .max_by_key(|p| p.join("done").metadata().and_then(|m| m.modified()).ok())
                .unwrap_or_else(|| panic!("no {prefix}* in the test cache"))
        };
        (newest("newlib-"), newest("pnacl-platform-"))
    })
}

fn run(mut cmd: Command, dir: &Path) -> Output {
    cmd.current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the program");
    // A program that never reads its input may end before it is written: a closed pipe
    // then is not a failure.
    match std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), INPUT.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
        _ => {}
    }
    child.wait_with_output().expect("run the program")
}

/// Builds `src` both ways, runs both, and describes every difference.
fn compare(src: &Path) -> Vec<String> {
    let name = src.file_stem().expect("name").to_string_lossy().into_owned();
    let work = scratch();
    let (native_dir, guest_dir) = (work.path().join("native"), work.path().join("guest"));
    for d in [&native_dir, &guest_dir, &guest_dir.join("tmp")] {
        std::fs::create_dir_all(d).expect("scratch directory");
    }
    let exe = work.path().join("native.exe");
    let o = Command::new("gcc")
        .args(["-O2", "-w", "-pthread"])
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("run gcc (Debian: apt-get install gcc)");
    assert!(o.status.success(), "gcc {name}: {}", String::from_utf8_lossy(&o.stderr));
    let pexe = work.path().join("guest.pexe");
    let o = pnacl_command().args(["cc", "-O2"]).arg(src).arg("-o").arg(&pexe).output().expect("run pnacl cc");
    if !o.status.success() {
        return vec![format!("{name}: pnacl cc failed: {}", String::from_utf8_lossy(&o.stderr))];
    }
    let mut native = Command::new(&exe);
    native.env_clear().envs(ENV.iter().copied());
    let want = run(native, &native_dir);
    let mut guest = pnacl_command();
    guest.arg("run").arg("--dir").arg(format!("{}::/", guest_dir.display()));
    for (k, v) in ENV {
        guest.arg("--env").arg(format!("{k}={v}"));
    }
    guest.arg(&pexe);
    let got = run(guest, work.path());
    let mut problems = Vec::new();
    if got.stdout != want.stdout {
        problems.push(format!(
            "{name}: stdout differs:\n--- pnacl\n{}\n--- gcc\n{}",
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want.stdout)
        ));
    }
    let ending = |o: &Output| (o.status.code(), o.status.signal());
    if ending(&got) != ending(&want) {
        problems.push(format!(
            "{name}: ends {:?}, gcc's build {:?}; stderr: {}",
            ending(&got),
            ending(&want),
            String::from_utf8_lossy(&got.stderr)
        ));
    }
    problems
}

/// Every program of tests/c/libc prints what its gcc build prints and ends the same way
/// (signal.c ends by SIGTERM).
#[test]
fn libc_programs_match_gcc() {
    library();
    let dir = workspace_root().join("tests/c/libc");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/c/libc")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 8, "expected the programs in {}", dir.display());
    let problems: Vec<String> = sources.iter().flat_map(|s| compare(s)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Intrinsics clang emits for the library that an ABI simplification pass removes or
/// rewrites (freeze-facts.md §6; pnacl's expansion of newer ones into instructions or
/// calls of the C function; hints that go; FLT_ROUNDS, which is 1).
const REMOVED_BY_PASSES: &[&str] = &[
    "llvm.va_start",
    "llvm.va_end",
    "llvm.va_copy",
    "llvm.lifetime.start.p0i8",
    "llvm.lifetime.end.p0i8",
    "llvm.umul.with.overflow.i32",
    "llvm.umul.with.overflow.i64",
    "llvm.uadd.with.overflow.i32",
    "llvm.smul.with.overflow.i32",
    "llvm.sadd.with.overflow.i32",
    "llvm.ssub.with.overflow.i32",
    "llvm.abs.i32",
    "llvm.abs.i64",
    "llvm.smax.i32",
    "llvm.smin.i32",
    "llvm.umax.i32",
    "llvm.umin.i32",
    "llvm.smax.i64",
    "llvm.smin.i64",
    "llvm.umax.i64",
    "llvm.umin.i64",
    "llvm.usub.sat.i32",
    "llvm.fshl.i32",
    "llvm.fshr.i32",
    "llvm.fshl.i64",
    "llvm.fshr.i64",
    "llvm.floor.f64",
    "llvm.floor.f32",
    "llvm.ceil.f64",
    "llvm.ceil.f32",
    "llvm.trunc.f64",
    "llvm.trunc.f32",
    "llvm.rint.f64",
    "llvm.rint.f32",
    "llvm.round.f64",
    "llvm.round.f32",
    "llvm.copysign.f64",
    "llvm.copysign.f32",
    "llvm.minnum.f64",
    "llvm.maxnum.f64",
    "llvm.minnum.f32",
    "llvm.maxnum.f32",
    "llvm.expect.i32",
    "llvm.expect.i64",
    "llvm.assume",
    "llvm.flt.rounds",
    "llvm.fshl.i16",
    "llvm.nearbyint.f64",
];

/// The intrinsic names of the PNaCl whitelist, from tools-facts.md §3.3.
fn pnacl_allowed_intrinsics() -> BTreeSet<String> {
    let path = pnacl_testutil::design_dir().join("tools-facts.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the design notes are missing ({}: {e})", path.display()));
    let start = text.find("### 3.3").expect("tools-facts.md has §3.3");
    let end = start + text[start..].find("### 3.4").expect("tools-facts.md has §3.4");
    let names: BTreeSet<String> = text[start..end]
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|p| p.starts_with("llvm.") && !p.contains(' '))
        .map(String::from)
        .collect();
    assert!(names.contains("llvm.memcpy.p0i8.p0i8.i32"), "§3.3 parsed: {names:?}");
    names
}

/// True when an IR line mentions a vector type `<N x T>`.
fn has_vector_type(line: &str) -> bool {
    line.match_indices('<').any(|(i, _)| {
        let rest = &line[i + 1..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with(" x ")
    })
}

/// Every member of the library, linked into one module by llvm-link: no inline assembly,
/// no vector type, only intrinsics PNaCl allows or a pass removes, and nothing undefined
/// but `main`, what the passes define (TLS template, constructor arrays) and the
/// intrinsics the passes make of setjmp and longjmp.
#[test]
fn library_bitcode_is_what_pnacl_can_take() {
    let (newlib, platform) = library();
    let work = scratch();
    let mut members = Vec::new();
    for archive in [platform.join("libpnacl.a"), newlib.join("libc.a"), newlib.join("libm.a")] {
        let dir = work.path().join(archive.file_stem().expect("name"));
        std::fs::create_dir_all(&dir).expect("directory");
        let o = Command::new(llvm_tool("llvm-ar", 14)).arg("x").arg(&archive).current_dir(&dir).output().expect("ar");
        assert!(o.status.success(), "llvm-ar x {}: {}", archive.display(), String::from_utf8_lossy(&o.stderr));
        members.extend(std::fs::read_dir(&dir).expect("members").map(|e| e.expect("entry").path()));
    }
    assert!(members.len() > 1000, "only {} members", members.len());
    let linked = work.path().join("all.bc");
    let o = Command::new(llvm_tool("llvm-link", 14)).args(&members).arg("-o").arg(&linked).output().expect("llvm-link");
    assert!(o.status.success(), "llvm-link of the library: {}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(llvm_tool("llvm-dis", 14)).arg(&linked).arg("-o").arg("-").output().expect("llvm-dis");
    let ir = String::from_utf8_lossy(&o.stdout);
    assert!(!ir.contains(" asm "), "inline assembly in the library");
    let vectors: Vec<&str> = ir.lines().filter(|l| has_vector_type(l)).take(5).collect();
    assert!(vectors.is_empty(), "vector types in the library: {vectors:?}");
    let allowed = pnacl_allowed_intrinsics();
    let mut undefined = BTreeSet::new();
    let mut unexpected = BTreeSet::new();
    for line in ir.lines().filter(|l| l.starts_with("declare ")) {
        let Some(name) = line.split('@').nth(1).and_then(|r| r.split('(').next()) else { continue };
        let name = name.trim_matches('"').to_string();
        if name.starts_with("llvm.") {
            if !allowed.contains(&name) && !REMOVED_BY_PASSES.contains(&name.as_str()) {
                unexpected.insert(name);
            }
        } else {
            undefined.insert(name);
        }
    }
    assert!(unexpected.is_empty(), "intrinsics neither allowed nor handled by a pass: {unexpected:?}");
    let expected: BTreeSet<String> = [
        "main",
        "__tls_template_start",
        "__tls_template_tdata_end",
        "__tls_template_end",
        "__tls_template_alignment",
        "__init_array_start",
        "__init_array_end",
        "__fini_array_start",
        "__fini_array_end",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let extra: Vec<&String> = undefined.difference(&expected).collect();
    assert!(extra.is_empty(), "the library leaves undefined: {extra:?}");
}

/// The platform layer compiles for le32 without a warning (-Wall -Wextra), against the
/// library's headers: its _Static_asserts (abi_check.c, irt.h, time.c) hold.
#[test]
fn platform_compiles_without_warnings() {
    let (newlib, _) = library();
    let dir = workspace_root().join("libc/platform");
    let mut sources = Vec::new();
    for d in [dir.clone(), dir.join("pthread")] {
        for e in std::fs::read_dir(&d).expect("libc/platform") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "c") {
                sources.push(p);
            }
        }
    }
    assert!(sources.len() >= 15, "libc/platform has {} sources", sources.len());
    for src in sources {
        let o = Command::new(llvm_tool("clang", 14))
            .args(["-target", "le32-unknown-nacl", "-c", "-emit-llvm", "-O2", "-nostdlibinc", "-fno-math-errno"])
            .args(["-Wall", "-Wextra", "-D_COMPILING_NEWLIB", "-o", "/dev/null"])
            .arg("-I")
            .arg(newlib.join("include/pnacl"))
            .arg("-I")
            .arg(newlib.join("include/newlib"))
            .arg(&src)
            .output()
            .expect("clang-14");
        assert!(
            o.status.success() && o.stderr.is_empty(),
            "{}:\n{}",
            src.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The public headers pnacl's own ones take part in compile alone and together, in C99
/// and C11, with clang's pedantic warnings, as programs include them.
#[test]
fn pnacl_headers_compile_alone_and_together() {
    let (newlib, _) = library();
    let headers = [
        "pthread.h",
        "math.h",
        "setjmp.h",
        "dirent.h",
        "utime.h",
        "sys/mman.h",
        "sys/types.h",
        "sys/stat.h",
        "time.h",
        "sched.h",
        "signal.h",
        "stdio.h",
        "stdlib.h",
        "unistd.h",
        "fcntl.h",
        "malloc.h",
        "locale.h",
        "wchar.h",
        "sys/time.h",
        "sys/times.h",
        "machine/endian.h",
    ];
    let work = scratch();
    let mut all = String::new();
    for (i, h) in headers.iter().enumerate() {
        let line = format!("#include <{h}>\n");
        all.push_str(&line);
        check_header(newlib, &work.path().join(format!("h{i}.c")), &format!("{line}int x;\n"));
    }
    check_header(newlib, &work.path().join("all.c"), &format!("{all}int main(void) {{ return 0; }}\n"));
}

fn check_header(newlib: &Path, path: &Path, text: &str) {
    std::fs::write(path, text).expect("write a header test");
    for std in ["-std=c99", "-std=c11"] {
        let o = Command::new(llvm_tool("clang", 14))
            .args(["-target", "le32-unknown-nacl", "-fsyntax-only", "-nostdlibinc", "-Wall", "-Wextra", "-pedantic"])
            .arg(std)
            .arg("-isystem")
            .arg(newlib.join("include/pnacl"))
            .arg("-isystem")
            .arg(newlib.join("include/newlib"))
            .arg(path)
            .output()
            .expect("clang-14");
        assert!(o.status.success() && o.stderr.is_empty(), "{text} ({std}):\n{}", String::from_utf8_lossy(&o.stderr));
    }
}
