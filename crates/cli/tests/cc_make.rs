//! `pnacl cc` and `pnacl ar` as a project's own build uses a C compiler and an archiver,
//! on programs of `../shared/corpus/c` (unmodified, copied into a temporary directory):
//! - zlib, built by its `./configure --static` and `make static` with `CC="pnacl cc"
//!   AR="pnacl ar"`, which compiles each file with `-c`, archives the objects into `libz.a`
//!   and links `example` and `minigzip` with it;
//! - Lua, built by its makefile's `linux` target (`liblua.a` by `$(AR) $@ $?`, then `lua`
//!   linked with it and `-lm -ldl`, `-Wl,-E`; `LUA_USE_LINUX`, whose `dlopen` fails at run
//!   time in a pexe, as `require` of a C library then says);
//! - CoreMark, built by its Makefile for the posix port with `SEPARATE_COMPILE=1` (each
//!   file to an object with `-c`, linked by `LD` with `-lrt`) and run by it too, with
//!   `RUN="pnacl run"`: its two validation logs hold the CRCs of the gcc build's.
//!
//! The pexes then run under `pnacl run` against the gcc -m32 build of the same build files.

#[path = "common/multifile.rs"]
mod multifile;

use multifile::{require, require_compilers};
use pnacl_testutil::{corpus_dir, pnacl_binary, test_cache_home};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `cmd` in `dir`, which must succeed; its output.
fn run_ok(mut cmd: Command, dir: &Path, what: &str) -> Output {
    let o = cmd.current_dir(dir).output().unwrap_or_else(|e| panic!("{what}: cannot run it: {e}"));
    assert!(
        o.status.success(),
        "{what} failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// zlib in `dir`, configured and built by its own configure and Makefile with the compiler
/// `cc` and the archiver `ar`.
fn build_zlib(dir: &Path, cc: &str, ar: &str, cflags: &str) {
    pnacl_testutil::copy_dir(&corpus_dir().join("c/zlib"), dir);
    // The corpus keeps zlib's C sources and build files, but not its pkg-config template,
    // from which configure writes zlib.pc (nothing here reads that).
    std::fs::write(dir.join("zlib.pc.in"), "").expect("write zlib.pc.in");
    let mut configure = Command::new("sh");
    configure.arg("./configure").arg("--static");
    configure.env("CC", cc).env("AR", ar).env("RANLIB", "true").env("CFLAGS", cflags);
    configure.env("XDG_CACHE_HOME", test_cache_home());
    run_ok(configure, dir, &format!("CC=\"{cc}\" ./configure --static"));
    let mut make = Command::new("make");
    make.arg("static").env("XDG_CACHE_HOME", test_cache_home());
    run_ok(make, dir, &format!("make static (CC=\"{cc}\")"));
}

/// Runs `cmd` in `dir` with `input` on standard input.
fn run_with_input(mut cmd: Command, dir: &Path, input: &[u8]) -> Output {
    cmd.current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the program");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, &input);
    });
    let out = child.wait_with_output().expect("run the program");
    feeder.join().expect("stdin writer");
    out
}

/// `pnacl run PEXE ARGS` with `dir` as the guest's root and working directory, and the
/// environment `env`.
fn guest(pexe: &Path, dir: &Path, args: &[&str], env: &[&str]) -> Command {
    let mut c = Command::new(pnacl_binary());
    c.env("XDG_CACHE_HOME", test_cache_home());
    c.arg("run").arg("--dir").arg(format!("{}::/", dir.display()));
    for v in env {
        c.arg("--env").arg(v);
    }
    c.arg(pexe).args(args);
    c
}

#[test]
fn zlib_builds_with_its_own_configure_and_makefile() {
    require_compilers();
    require("make", "make");
    let pnacl = pnacl_binary();
    let (pdir, ndir) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let (pdir, ndir) = (pdir.path(), ndir.path());
    build_zlib(pdir, &format!("{} cc", pnacl.display()), &format!("{} ar", pnacl.display()), "-O2");
    // The native build is ILP32 with a 64-bit off_t, as le32 is, so that what example
    // prints about zlib's types (its compile flags) is the same.
    build_zlib(ndir, "gcc -m32", "ar", "-O2 -D_FILE_OFFSET_BITS=64");
    for prog in ["example", "minigzip"] {
        let bytes = std::fs::read(pdir.join(prog)).expect("make wrote the program");
        assert!(bytes.starts_with(b"PEXE"), "{prog}: make's pnacl build is not a pexe");
    }
    let libz = std::fs::read(pdir.join("libz.a")).expect("libz.a");
    assert!(libz.starts_with(b"!<arch>\n"), "libz.a is not an archive");

    let (grun, nrun) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let got = run_with_input(guest(&pdir.join("example"), grun.path(), &[], &[]), grun.path(), b"");
    let want = run_with_input(Command::new(ndir.join("example")), nrun.path(), b"");
    assert_eq!(
        (got.status.code(), String::from_utf8_lossy(&got.stdout)),
        (want.status.code(), String::from_utf8_lossy(&want.stdout)),
        "zlib's example; stderr: {}",
        String::from_utf8_lossy(&got.stderr)
    );
    let mut text = Vec::new();
    for name in ["deflate.c", "inflate.c", "trees.c", "zlib.h"] {
        text.extend(std::fs::read(pdir.join(name)).expect("a zlib source"));
    }
    for level in ["-1", "-6", "-9"] {
        let got = run_with_input(guest(&pdir.join("minigzip"), grun.path(), &[level], &[]), grun.path(), &text);
        let mut native = Command::new(ndir.join("minigzip"));
        native.arg(level);
        let want = run_with_input(native, nrun.path(), &text);
        assert!(got.status.success(), "minigzip {level}: {}", String::from_utf8_lossy(&got.stderr));
        assert!(got.stdout == want.stdout, "minigzip {level}: the .gz differs from the gcc build's");
        let back = run_with_input(guest(&pdir.join("minigzip"), grun.path(), &["-d"], &[]), grun.path(), &got.stdout);
        assert!(back.stdout == text, "minigzip -d {level}: not the input");
    }
}

/// Lua in `dir`, built by its makefile with the compiler `cc` and the archiver `ar`, and
/// `MYCFLAGS` if given (else the makefile's own).
fn build_lua(dir: &Path, cc: &str, ar: &str, cflags: Option<&str>) {
    pnacl_testutil::copy_dir(&corpus_dir().join("c/lua"), dir);
    let mut make = Command::new("make");
    make.arg(format!("CC={cc}")).arg(format!("AR={ar}")).arg("RANLIB=true");
    if let Some(cflags) = cflags {
        make.arg(format!("MYCFLAGS={cflags}"));
    }
    make.env("XDG_CACHE_HOME", test_cache_home());
    run_ok(make, dir, &format!("make CC=\"{cc}\" (Lua)"));
}

#[test]
fn lua_builds_with_its_own_makefile() {
    require_compilers();
    require("make", "make");
    let pnacl = pnacl_binary();
    let (pdir, ndir) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let (pdir, ndir) = (pdir.path(), ndir.path());
    // pnacl: the makefile as it is (`-std=c99 -DLUA_USE_LINUX`, `-ldl`); gcc: the same
    // options, with NaCl's 64-bit off_t.
    build_lua(pdir, &format!("{} cc", pnacl.display()), &format!("{} ar rc", pnacl.display()), None);
    build_lua(ndir, "gcc -m32", "ar rc", Some("-std=c99 -DLUA_USE_LINUX -D_FILE_OFFSET_BITS=64"));
    let lua = std::fs::read(pdir.join("lua")).expect("make wrote lua");
    assert!(lua.starts_with(b"PEXE"), "make's pnacl build of lua is not a pexe");
    let scripts = pnacl_testutil::workspace_root().join("tests/lua");
    let mut names: Vec<String> = std::fs::read_dir(&scripts)
        .expect("tests/lua")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lua"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "tests/lua has {} scripts", names.len());
    let mut problems = Vec::new();
    for name in &names {
        let (gdir, rdir) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
        for d in [gdir.path(), rdir.path()] {
            std::fs::copy(scripts.join(name), d.join(name)).expect("copy the script");
            std::fs::create_dir_all(d.join("tmp")).expect("tmp");
        }
        let env = ["LUA_BENCH_VAR=set", "LUA_INIT="];
        let got = run_with_input(guest(&pdir.join("lua"), gdir.path(), &[name, "one", "two"], &env), gdir.path(), b"");
        let mut n = Command::new(ndir.join("lua"));
        n.env_clear().env("LUA_BENCH_VAR", "set").env("LUA_INIT", "").args([name.as_str(), "one", "two"]);
        let want = run_with_input(n, rdir.path(), b"");
        if got.stdout != want.stdout || got.status.code() != want.status.code() {
            problems.push(format!(
                "{name}: exit {:?} (gcc {:?})\n--- pnacl\n{}{}\n--- gcc\n{}{}",
                got.status.code(),
                want.status.code(),
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&got.stderr),
                String::from_utf8_lossy(&want.stdout),
                String::from_utf8_lossy(&want.stderr)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The CRC lines of CoreMark's run logs in `dir`.
fn coremark_crcs(dir: &Path) -> Vec<String> {
    let mut crcs = Vec::new();
    for log in ["run1.log", "run2.log"] {
        let text = std::fs::read_to_string(dir.join(log)).unwrap_or_else(|e| panic!("{log}: {e}"));
        crcs.extend(text.lines().filter(|l| l.contains("crc")).map(|l| format!("{log}: {l}")));
    }
    crcs
}

#[test]
fn coremark_builds_and_runs_with_its_own_makefile() {
    require_compilers();
    require("make", "make");
    let pnacl = pnacl_binary();
    let (pdir, ndir) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
    let (pdir, ndir) = (pdir.path(), ndir.path());
    let cc = format!("{} cc", pnacl.display());
    let run = format!("{} run", pnacl.display());
    for (dir, cc, run) in [(pdir, cc.as_str(), run.as_str()), (ndir, "gcc -m32", "")] {
        pnacl_testutil::copy_dir(&corpus_dir().join("c/coremark"), dir);
        let mut make = Command::new("make");
        make.args(["PORT_DIR=posix", "SEPARATE_COMPILE=1", "ITERATIONS=300"])
            .arg(format!("CC={cc}"))
            .arg(format!("LD={cc}"))
            .arg(format!("RUN={run}"))
            .env("XDG_CACHE_HOME", test_cache_home());
        run_ok(make, dir, &format!("make PORT_DIR=posix CC=\"{cc}\" (CoreMark)"));
    }
    let exe = std::fs::read(pdir.join("coremark.exe")).expect("make wrote coremark.exe");
    assert!(exe.starts_with(b"PEXE"), "make's pnacl build of CoreMark is not a pexe");
    assert!(pdir.join("core_main.o").is_file(), "SEPARATE_COMPILE made no objects");
    let want = coremark_crcs(ndir);
    assert!(want.len() >= 10, "the native CoreMark logs hold {want:?}");
    assert_eq!(coremark_crcs(pdir), want);
}
