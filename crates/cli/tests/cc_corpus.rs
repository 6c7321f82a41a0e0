//! Real C programs of `../shared/corpus/c` (unmodified sources), built by `pnacl cc` with
//! newlib and run by `pnacl run`, against gcc builds of the same sources: Lua from its
//! separate .c files running the scripts of `tests/lua`, zlib's minigzip and example,
//! bzip2 on its sample files, every cJSON unit test, CoreMark's CRCs.
//!
//! The native builds are 32-bit (`gcc -m32`, Debian's gcc-multilib) with a 64-bit
//! `off_t` (`-D_FILE_OFFSET_BITS=64`): ILP32 with NaCl's `off_t`, as le32 is, so that
//! what a program prints about its own types (zlib's compile flags) is the same.

use pnacl_testutil::{corpus_dir, llvm_tool, pnacl_command, workspace_root};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// `../shared/corpus/c/NAME`, or a clear failure.
fn program_dir(name: &str) -> PathBuf {
    let dir = corpus_dir().join("c").join(name);
    assert!(dir.is_dir(), "the C corpus is missing: expected {} (../shared/corpus/c)", dir.display());
    dir
}

/// Builds `sources` with pnacl cc into `out`; the error is clang's or pnacl's message.
fn pnacl_cc(sources: &[PathBuf], flags: &[String], out: &Path) -> Result<(), String> {
    llvm_tool("clang", 14);
    let o = pnacl_command()
        .args(["cc", "-O2", "-w"])
        .args(flags)
        .args(sources)
        .arg("-o")
        .arg(out)
        .output()
        .expect("run pnacl cc");
    if o.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&o.stderr).into_owned()) }
}

/// Builds `sources` with gcc -m32 into `out`.
fn gcc(sources: &[PathBuf], flags: &[String], out: &Path) {
    let o = Command::new("gcc")
        .args(["-m32", "-D_FILE_OFFSET_BITS=64", "-O2", "-w"])
        .args(flags)
        .args(sources)
        .arg("-o")
        .arg(out)
        .arg("-lm")
        .output()
        .expect("run gcc (Debian: apt-get install gcc gcc-multilib)");
    assert!(
        o.status.success(),
        "gcc -m32: {} (32-bit builds need Debian's gcc-multilib)",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs `cmd` in `dir` with `input` on standard input.
fn run_in(mut cmd: Command, dir: &Path, input: &[u8]) -> Output {
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

/// `pnacl run` of `pexe` with `dir` as the guest's root (and working directory).
fn guest(pexe: &Path, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut c = pnacl_command();
    c.arg("run").arg("--dir").arg(format!("{}::/", dir.display()));
    for (k, v) in env {
        c.arg("--env").arg(format!("{k}={v}"));
    }
    c.arg(pexe).args(args);
    c
}

fn native(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut c = Command::new(exe);
    c.env_clear().envs(env.iter().copied()).args(args);
    c
}

fn ending(o: &Output) -> (Option<i32>, Option<i32>) {
    (o.status.code(), o.status.signal())
}

fn sources(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names.iter().map(|n| dir.join(n)).collect()
}

/// Lua from its separate .c files (lua.c's command line, the core and the libraries),
/// with LUA_USE_POSIX (Linux's options less dlopen, which NaCl has not), in its default
/// build (the VM dispatches through its computed-goto jump table), runs every script
/// of tests/lua as the gcc build does: the same stdout, the same exit status, and for the
/// script that fails, the same message.
#[test]
fn lua_runs_scripts_like_gcc() {
    let lua = program_dir("lua");
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(&lua)
        .expect("lua sources")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "c")
                && !matches!(p.file_name().and_then(|n| n.to_str()), Some("onelua.c" | "ltests.c"))
        })
        .collect();
    srcs.sort();
    assert!(srcs.len() >= 30, "lua: {} sources", srcs.len());
    let flags: Vec<String> = ["-std=c99", "-DLUA_USE_POSIX"].map(String::from).to_vec();
    let work = scratch();
    let pexe = work.path().join("lua.pexe");
    let exe = work.path().join("lua.native");
    pnacl_cc(&srcs, &flags, &pexe).unwrap_or_else(|e| panic!("pnacl cc of Lua's .c files: {e}"));
    gcc(&srcs, &flags, &exe);
    let scripts = workspace_root().join("tests/lua");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&scripts)
        .expect("tests/lua")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "tests/lua has {} scripts", names.len());
    let env = [("LUA_BENCH_VAR", "set"), ("LUA_INIT", "")];
    let mut problems = Vec::new();
    for script in names {
        let name = script.file_name().expect("name").to_string_lossy().into_owned();
        let (gdir, ndir) = (scratch(), scratch());
        for d in [&gdir, &ndir] {
            std::fs::copy(&script, d.path().join(&name)).expect("copy the script");
            std::fs::create_dir_all(d.path().join("tmp")).expect("tmp");
        }
        let got = run_in(guest(&pexe, gdir.path(), &[&name, "one", "two"], &env), gdir.path(), b"");
        let want = run_in(native(&exe, &[&name, "one", "two"], &env), ndir.path(), b"");
        if got.stdout != want.stdout || ending(&got) != ending(&want) {
            problems.push(format!(
                "{name}: ends {:?} (gcc {:?})\n--- pnacl\n{}{}\n--- gcc\n{}{}",
                ending(&got),
                ending(&want),
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&got.stderr),
                String::from_utf8_lossy(&want.stdout),
                String::from_utf8_lossy(&want.stderr)
            ));
        }
        // The first line of an error message names the script and the line; the program
        // name before it is argv[0], which differs.
        let first = |o: &Output| {
            String::from_utf8_lossy(&o.stderr).lines().next().map(|l| l.split_once(": ").map_or(l, |x| x.1).to_string())
        };
        if first(&got) != first(&want) {
            problems.push(format!("{name}: stderr {:?}, gcc's {:?}", first(&got), first(&want)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

const ZLIB: &[&str] = &[
    "adler32.c",
    "compress.c",
    "crc32.c",
    "deflate.c",
    "gzclose.c",
    "gzlib.c",
    "gzread.c",
    "gzwrite.c",
    "infback.c",
    "inffast.c",
    "inflate.c",
    "inftrees.c",
    "trees.c",
    "uncompr.c",
    "zutil.c",
];

/// A few hundred KB of text: the corpus's C sources.
fn sample_text() -> Vec<u8> {
    let mut text = Vec::new();
    for name in ["lua/lvm.c", "lua/lparser.c", "zlib/deflate.c", "bzip2/compress.c", "cjson/cJSON.c"] {
        text.extend(std::fs::read(corpus_dir().join("c").join(name)).expect("corpus source"));
    }
    text
}

/// zlib (configured as its ./configure does on Linux: unistd.h and stdarg.h present):
/// `example` prints what the gcc build prints (its own self-test, gz files included);
/// `minigzip` at levels 1, 6 and 9 writes the same .gz bytes as the gcc build, and
/// `minigzip -d` gives the input back.
#[test]
fn zlib_minigzip_and_example_match_gcc() {
    let z = program_dir("zlib");
    let flags: Vec<String> = vec![format!("-I{}", z.display()), "-DZ_HAVE_UNISTD_H".into(), "-DZ_HAVE_STDARG_H".into()];
    let work = scratch();
    let mut built = Vec::new();
    for prog in ["example", "minigzip"] {
        let mut srcs = sources(&z, ZLIB);
        srcs.push(z.join("test").join(format!("{prog}.c")));
        let pexe = work.path().join(format!("{prog}.pexe"));
        let exe = work.path().join(format!("{prog}.native"));
        pnacl_cc(&srcs, &flags, &pexe).unwrap_or_else(|e| panic!("pnacl cc of zlib's {prog}: {e}"));
        gcc(&srcs, &flags, &exe);
        built.push((pexe, exe));
    }
    let (gdir, ndir) = (scratch(), scratch());
    let got = run_in(guest(&built[0].0, gdir.path(), &[], &[]), gdir.path(), b"");
    let want = run_in(native(&built[0].1, &[], &[]), ndir.path(), b"");
    assert_eq!(
        (ending(&got), String::from_utf8_lossy(&got.stdout)),
        (ending(&want), String::from_utf8_lossy(&want.stdout)),
        "zlib example; stderr: {}",
        String::from_utf8_lossy(&got.stderr)
    );
    let text = sample_text();
    for level in ["-1", "-6", "-9"] {
        let got = run_in(guest(&built[1].0, gdir.path(), &[level], &[]), gdir.path(), &text);
        let want = run_in(native(&built[1].1, &[level], &[]), ndir.path(), &text);
        assert!(got.status.success(), "minigzip {level}: {}", String::from_utf8_lossy(&got.stderr));
        assert!(got.stdout == want.stdout, "minigzip {level}: the .gz differs from gcc's build's");
        let back = run_in(guest(&built[1].0, gdir.path(), &["-d"], &[]), gdir.path(), &got.stdout);
        assert!(back.stdout == text, "minigzip -d {level}: not the input");
    }
}

/// bzip2's command (meson's defines for Unix): `bzip2 -N < sampleN.ref` is `sampleN.bz2`
/// for N = 1, 2, 3 (its own test), `-d` gives the sample back, and compressing a file in
/// place (`bzip2 -k`) writes what the gcc build writes.
#[test]
fn bzip2_compresses_the_samples() {
    let b = program_dir("bzip2");
    let work = scratch();
    std::fs::write(work.path().join("bz_version.h"), "#define BZ_VERSION \"1.1.0\"\n").expect("bz_version.h");
    let flags: Vec<String> = vec![
        format!("-I{}", work.path().display()),
        format!("-I{}", b.display()),
        "-D_GNU_SOURCE".into(),
        "-DBZ_UNIX=1".into(),
        "-DBZ_LCCWIN32=0".into(),
    ];
    let srcs = sources(
        &b,
        &["blocksort.c", "huffman.c", "crctable.c", "randtable.c", "compress.c", "decompress.c", "bzlib.c", "bzip2.c"],
    );
    let pexe = work.path().join("bzip2.pexe");
    let exe = work.path().join("bzip2.native");
    pnacl_cc(&srcs, &flags, &pexe).unwrap_or_else(|e| panic!("pnacl cc of bzip2: {e}"));
    gcc(&srcs, &flags, &exe);
    let dir = scratch();
    for n in 1..=3 {
        let reference = std::fs::read(b.join(format!("tests/sample{n}.ref"))).expect("sample");
        let compressed = std::fs::read(b.join(format!("tests/sample{n}.bz2"))).expect("sample");
        let got = run_in(guest(&pexe, dir.path(), &[&format!("-{n}")], &[]), dir.path(), &reference);
        assert!(got.status.success(), "bzip2 -{n}: {}", String::from_utf8_lossy(&got.stderr));
        assert!(got.stdout == compressed, "bzip2 -{n} < sample{n}.ref is not sample{n}.bz2");
        let back = run_in(guest(&pexe, dir.path(), &["-d"], &[]), dir.path(), &compressed);
        assert!(back.stdout == reference, "bzip2 -d < sample{n}.bz2 is not sample{n}.ref");
    }
    let (gdir, ndir) = (scratch(), scratch());
    let text = sample_text();
    for d in [&gdir, &ndir] {
        std::fs::write(d.path().join("text"), &text).expect("write the text");
    }
    let got = run_in(guest(&pexe, gdir.path(), &["-k", "-9", "text"], &[]), gdir.path(), b"");
    let want = run_in(native(&exe, &["-k", "-9", "text"], &[]), ndir.path(), b"");
    assert_eq!(ending(&got), ending(&want), "bzip2 -k text: {}", String::from_utf8_lossy(&got.stderr));
    let read = |d: &tempfile::TempDir| std::fs::read(d.path().join("text.bz2")).expect("text.bz2 written");
    assert!(read(&gdir) == read(&ndir), "bzip2 -k text: text.bz2 differs from gcc's build's");
    assert_eq!(std::fs::read(gdir.path().join("text")).expect("kept"), text, "bzip2 -k did not keep text");
}

/// The cJSON unit tests of its CMakeLists (Unity), the cJSON_Utils ones included: each
/// built from its file (which includes cJSON.c) and Unity, run in the tests directory
/// (they read inputs/ and json-patch-tests/), must pass and print what the gcc build
/// prints. Reported test by test.
#[test]
fn cjson_unit_tests_pass() {
    let c = program_dir("cjson");
    let tests = c.join("tests");
    let unity = tests.join("unity/src");
    let names = [
        "parse_examples",
        "parse_number",
        "parse_hex4",
        "parse_string",
        "parse_array",
        "parse_object",
        "parse_value",
        "print_string",
        "print_number",
        "print_array",
        "print_object",
        "print_value",
        "misc_tests",
        "parse_with_opts",
        "compare_tests",
        "cjson_add",
        "readme_examples",
        "minify_tests",
        "json_patch_tests",
        "old_utils_tests",
        "misc_utils_tests",
    ];
    let flags: Vec<String> = vec![format!("-I{}", c.display()), format!("-I{}", unity.display())];
    let work = scratch();
    let mut failures = Vec::new();
    for name in names {
        let mut srcs = vec![tests.join(format!("{name}.c")), unity.join("unity.c")];
        if name.ends_with("utils_tests") || name == "json_patch_tests" {
            srcs.push(c.join("cJSON_Utils.c"));
        }
        let pexe = work.path().join(format!("{name}.pexe"));
        let exe = work.path().join(format!("{name}.native"));
        if let Err(e) = pnacl_cc(&srcs, &flags, &pexe) {
            failures.push(format!("{name}: pnacl cc failed: {e}"));
            continue;
        }
        gcc(&srcs, &flags, &exe);
        let got = run_in(guest(&pexe, &tests, &[], &[]), &tests, b"");
        let want = run_in(native(&exe, &[], &[]), &tests, b"");
        let summary =
            |o: &Output| String::from_utf8_lossy(&o.stdout).lines().rev().nth(1).unwrap_or_default().to_string();
        if !got.status.success() || !summary(&got).contains(" 0 Failures") {
            failures.push(format!("{name}: {:?}, {}", ending(&got), String::from_utf8_lossy(&got.stdout)));
        } else if got.stdout != want.stdout {
            failures.push(format!(
                "{name}: output differs from gcc's build's:\n{}\n---\n{}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want.stdout)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// CoreMark's posix port: the seed CRC and the list, matrix, state and final CRCs of the
/// three standard parameter sets are the gcc build's (its timing lines differ, and a run
/// this short reports "Must execute for at least 10 secs", as the native one does).
#[test]
fn coremark_crcs_match_gcc() {
    let m = program_dir("coremark");
    let srcs = sources(
        &m,
        &["core_list_join.c", "core_main.c", "core_matrix.c", "core_state.c", "core_util.c", "posix/core_portme.c"],
    );
    let flags: Vec<String> = vec![
        format!("-I{}", m.display()),
        format!("-I{}", m.join("posix").display()),
        "-DFLAGS_STR=\"-O2\"".into(),
        "-DITERATIONS=300".into(),
    ];
    let work = scratch();
    let pexe = work.path().join("coremark.pexe");
    let exe = work.path().join("coremark.native");
    pnacl_cc(&srcs, &flags, &pexe).unwrap_or_else(|e| panic!("pnacl cc of CoreMark: {e}"));
    gcc(&srcs, &flags, &exe);
    let crcs = |o: &Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.contains("crc")).map(String::from).collect()
    };
    for params in [["0x0", "0x0", "0x66"], ["0x3415", "0x3415", "0x66"], ["8", "8", "8"]] {
        let args = [params[0], params[1], params[2], "300", "7", "1", "2000"];
        let got = run_in(guest(&pexe, work.path(), &args, &[]), work.path(), b"");
        let want = run_in(native(&exe, &args, &[]), work.path(), b"");
        assert!(crcs(&want).len() >= 5, "the native CoreMark printed {:?}", String::from_utf8_lossy(&want.stdout));
        assert_eq!(crcs(&got), crcs(&want), "CoreMark {params:?}: {}", String::from_utf8_lossy(&got.stderr));
        assert_eq!(ending(&got), ending(&want), "CoreMark {params:?}");
    }
}
