//! `pnacl cc` used as a C compiler is: separate compilation (`-c` writes an LLVM bitcode
//! object, objects link into a pexe), archives (`pnacl ar`, `llvm-ar-14`'s too) linked with
//! `-L`/`-l` as a linker takes their members, dependency files for make (`-MD`, `-MMD`,
//! `-MF`, `-MT`, `-MP`), and every undefined symbol reported with the files using it.
//!
//! The programs are the repository's multi-file ones (`tests/c/link`), checked against gcc's
//! 32-bit build of the same files.

#[path = "common/multifile.rs"]
mod multifile;

use multifile::{difference, native, require_compilers, run_pexe};
use pnacl_testutil::{llvm_tool, pnacl_command, workspace_root};
use std::path::{Path, PathBuf};
use std::process::Output;

/// `pnacl ARGS` in `dir`; its output.
fn pnacl(dir: &Path, args: &[&str]) -> Output {
    pnacl_command().current_dir(dir).args(args).output().expect("run pnacl")
}

/// `pnacl ARGS` in `dir`, which must succeed.
fn pnacl_ok(dir: &Path, args: &[&str]) -> Output {
    let o = pnacl(dir, args);
    assert!(o.status.success(), "pnacl {}: {}", args.join(" "), String::from_utf8_lossy(&o.stderr));
    o
}

/// The C files of `tests/c/link/CASE`, copied into `dir` (sorted, by name).
fn case_sources(case: &str, dir: &Path) -> Vec<String> {
    let src = workspace_root().join("tests/c/link").join(case);
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        std::fs::copy(&path, dir.join(&name)).expect("copy a source");
        if name.ends_with(".c") {
            names.push(name);
        }
    }
    names.sort();
    names
}

/// What the gcc -m32 build of the C files in `dir` prints.
fn native_run(dir: &Path, sources: &[String]) -> Output {
    let files: Vec<PathBuf> = sources.iter().map(|s| dir.join(s)).collect();
    let exe = dir.join("native");
    native(&files, &[], &exe).unwrap_or_else(|e| panic!("{e}"));
    std::process::Command::new(&exe).output().expect("run the native program")
}

fn check_run(what: &str, pexe: &Path, want: &Output) {
    let got = run_pexe(pexe).unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(d) = difference(what, &got, want) {
        panic!("{d}");
    }
}

/// Each file of a multi-file program compiled alone with `-c` (into `obj/` with `-o`, or
/// into the current directory without it), the objects linked, and the same through an
/// archive of all but `main`'s object, made by `pnacl ar` and by `llvm-ar-14`, found with
/// `-L`/`-l`: every pexe prints what gcc's build prints.
#[test]
fn objects_and_archives_link_into_the_program_gcc_builds() {
    require_compilers();
    let llvm_ar = llvm_tool("llvm-ar", 14);
    for case in ["recursive-structs", "byval-across-files", "weak-symbols"] {
        let d = tempfile::tempdir().expect("temporary directory");
        let dir = d.path();
        let sources = case_sources(case, dir);
        let want = native_run(dir, &sources);
        std::fs::create_dir(dir.join("obj")).expect("obj/");
        let mut objects = Vec::new();
        for s in &sources {
            let o = format!("obj/{}", s.replace(".c", ".o"));
            pnacl_ok(dir, &["cc", "-O2", "-w", "-c", s, "-o", &o]);
            let bytes = std::fs::read(dir.join(&o)).expect("the object");
            assert!(bytes.starts_with(b"BC\xc0\xde"), "{case}: {o} is not LLVM bitcode");
            objects.push(o);
        }
        let objs: Vec<&str> = objects.iter().map(String::as_str).collect();
        pnacl_ok(dir, &[&["cc"][..], &objs, &["-o", "objects.pexe"]].concat());
        check_run(&format!("{case}: objects"), &dir.join("objects.pexe"), &want);

        // -c of every source at once, without -o: SOURCE.o here, as cc writes them.
        let srcs: Vec<&str> = sources.iter().map(String::as_str).collect();
        pnacl_ok(dir, &[&["cc", "-O2", "-w", "-c"][..], &srcs].concat());
        let here: Vec<String> = sources.iter().map(|s| s.replace(".c", ".o")).collect();
        for o in &here {
            assert!(dir.join(o).is_file(), "{case}: -c without -o did not write {o}");
        }

        // An archive of the objects other than main's, by pnacl ar and by llvm-ar-14.
        let (main, rest): (Vec<&str>, Vec<&str>) = objs.iter().partition(|o| o.ends_with("main.o"));
        assert_eq!(main.len(), 1, "{case}: one main.c");
        pnacl_ok(dir, &[&["ar", "rcs", "obj/libparts.a"][..], &rest].concat());
        let listed = pnacl_ok(dir, &["ar", "t", "obj/libparts.a"]);
        let names: Vec<String> = rest.iter().map(|o| o.trim_start_matches("obj/").to_string()).collect();
        assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().collect::<Vec<_>>(), names, "{case}: ar t");
        let made = std::process::Command::new(&llvm_ar)
            .current_dir(dir)
            .args(["rcs", "obj/libllvm.a"])
            .args(&rest)
            .status()
            .expect("run llvm-ar-14");
        assert!(made.success(), "llvm-ar-14 rcs failed");
        for lib in ["-lparts", "-lllvm"] {
            pnacl_ok(dir, &["cc", main[0], "-L", "obj", lib, "-lm", "-lc", "-lpthread", "-o", "lib.pexe"]);
            check_run(&format!("{case}: {lib}"), &dir.join("lib.pexe"), &want);
        }
        // An archive is also an input by its name, and sources mix with objects.
        let main_source = sources.iter().find(|s| s.as_str() == "main.c").expect("main.c");
        pnacl_ok(dir, &["cc", "-O2", "-w", main_source, "obj/libparts.a", "-o", "mixed.pexe"]);
        check_run(&format!("{case}: main.c with the archive"), &dir.join("mixed.pexe"), &want);

        // `ar x` gives the members back as they went in.
        let out = dir.join("out");
        std::fs::create_dir(&out).expect("out/");
        pnacl_ok(&out, &["ar", "x", "../obj/libparts.a"]);
        for (name, object) in names.iter().zip(&rest) {
            let back = std::fs::read(out.join(name)).expect("an extracted member");
            assert!(back == std::fs::read(dir.join(object)).expect("the object"), "{case}: ar x {name}");
        }
    }
}

/// Only the archive members a program needs are linked: a member that defines nothing
/// the program uses is left out, even if it uses a symbol nothing defines; a member needed
/// by a member taken is taken too, whatever the archives' order.
#[test]
fn archive_members_are_taken_as_a_linker_takes_them() {
    require_compilers();
    let d = tempfile::tempdir().expect("temporary directory");
    let dir = d.path();
    let files = [
        ("main.c", "#include <stdio.h>\nint twice(int);\nint main(void) { printf(\"%d\\n\", twice(20)); return 0; }\n"),
        ("twice.c", "int add(int, int);\nint twice(int x) { return add(x, x) + 2; }\n"),
        ("add.c", "int add(int a, int b) { return a + b; }\n"),
        ("unused.c", "int nowhere(void);\nint unused(void) { return nowhere(); }\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write a source");
    }
    pnacl_ok(dir, &["cc", "-c", "twice.c", "add.c", "unused.c", "main.c"]);
    pnacl_ok(dir, &["ar", "rcs", "libadd.a", "add.o", "unused.o"]);
    pnacl_ok(dir, &["ar", "rc", "libtwice.a", "twice.o"]);
    // libadd.a comes before the archive whose member needs it.
    pnacl_ok(dir, &["cc", "main.o", "-L.", "-ladd", "-ltwice", "-o", "p.pexe"]);
    let got = run_pexe(&dir.join("p.pexe")).expect("run");
    assert_eq!(String::from_utf8_lossy(&got.stdout), "42\n");
    // Without the archive, both symbols main's file needs are reported.
    let o = pnacl(dir, &["cc", "main.o", "unused.o", "-o", "q.pexe"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("undefined: twice (called from main.o)"), "{err}");
    assert!(err.contains("undefined: nowhere (called from unused.o)"), "{err}");
    assert!(!dir.join("q.pexe").exists(), "a pexe was written");
    // A library nowhere to be found.
    let o = pnacl(dir, &["cc", "main.o", "-L.", "-lnothere", "-o", "q.pexe"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot find -lnothere"), "{o:?}");
}

/// Every undefined symbol is reported in one run, each with every file that uses it (and
/// every symbol defined twice, with the files defining it); a function called without a
/// declaration gets clang's warning, then that message (never an ABI violation), and
/// nothing is written.
#[test]
fn every_undefined_symbol_is_reported_with_its_users() {
    require_compilers();
    let d = tempfile::tempdir().expect("temporary directory");
    let dir = d.path();
    std::fs::write(
        dir.join("main.c"),
        "int helper(void);\nint main(void) { return helper() + shared_missing() + only_in_main(); }\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("helper.c"),
        "extern int missing_count;\nint shared_missing(void);\n\
         int helper(void) { return shared_missing() + missing_count; }\n",
    )
    .expect("write");
    std::fs::write(dir.join("again.c"), "int helper(void) { return 0; }\n").expect("write");
    pnacl_ok(dir, &["cc", "-c", "again.c"]);
    let o = pnacl(dir, &["cc", "main.c", "helper.c", "again.o", "-o", "p.pexe"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("implicit declaration of function 'shared_missing'"), "no clang warning: {err}");
    for line in [
        "pnacl cc: defined more than once: helper (in helper.c, again.o)",
        "pnacl cc: undefined: missing_count (used by helper.c)",
        "pnacl cc: undefined: only_in_main (called from main.c)",
        "pnacl cc: undefined: shared_missing (called from main.c, helper.c)",
    ] {
        assert!(err.lines().any(|l| l == line), "missing `{line}` in:\n{err}");
    }
    assert!(!dir.join("p.pexe").exists(), "a pexe was written");
}

/// `-MD`/`-MMD` write make's dependency file next to the object (or to `-MF`'s file), its
/// target the object (or `-MT`'s), with `-MP`'s phony targets; `-fPIC`, `-pipe`, `-Wall`,
/// `-std=`, `-D`, `-U`, `-I` and `-include` are taken as cc takes them.
#[test]
fn dependency_files_are_written_for_make() {
    require_compilers();
    let d = tempfile::tempdir().expect("temporary directory");
    let dir = d.path();
    std::fs::create_dir_all(dir.join("inc")).expect("inc/");
    std::fs::create_dir_all(dir.join("obj")).expect("obj/");
    std::fs::write(dir.join("inc/value.h"), "#define VALUE 41\n").expect("write");
    std::fs::write(dir.join("pre.h"), "#define PRE 1\n").expect("write");
    std::fs::write(
        dir.join("prog.c"),
        "#include <stdio.h>\n#include \"value.h\"\n#ifdef GONE\n#error GONE\n#endif\n\
         int main(void) { printf(\"%d\\n\", VALUE + PRE + EXTRA); return 0; }\n",
    )
    .expect("write");
    let common = ["-O2", "-Wall", "-std=c99", "-fPIC", "-pipe", "-DEXTRA=0", "-DGONE", "-UGONE", "-I", "inc"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        [&["cc"][..], &common, &["-include", "pre.h", "-c", "prog.c"], extra].concat()
    };
    pnacl_ok(dir, &with(&["-MMD", "-MP", "-o", "obj/prog.o"]));
    let deps = std::fs::read_to_string(dir.join("obj/prog.d")).expect("obj/prog.d, as -MMD names it");
    assert!(deps.starts_with("obj/prog.o: prog.c"), "{deps}");
    assert!(deps.contains("inc/value.h") && deps.contains("pre.h"), "{deps}");
    assert!(!deps.contains("stdio.h"), "-MMD lists system headers: {deps}");
    assert!(deps.contains("\ninc/value.h:"), "no -MP phony target: {deps}");
    pnacl_ok(dir, &with(&["-MD", "-MF", "deps.txt", "-MT", "target", "-o", "obj/other.o"]));
    let deps = std::fs::read_to_string(dir.join("deps.txt")).expect("-MF's file");
    assert!(deps.starts_with("target: prog.c"), "{deps}");
    assert!(deps.contains("stdio.h"), "-MD lists system headers: {deps}");
    // -MM alone: the dependencies on standard output, as with cc; -E: the preprocessed source.
    let mm = pnacl_ok(dir, &["cc", "-MM", "-I", "inc", "prog.c"]);
    let mm = String::from_utf8_lossy(&mm.stdout);
    assert!(mm.starts_with("prog.o: prog.c") && mm.contains("inc/value.h"), "{mm}");
    let pre = pnacl_ok(dir, &["cc", "-E", "-I", "inc", "-DEXTRA=0", "prog.c"]);
    assert!(String::from_utf8_lossy(&pre.stdout).contains("printf(\"%d\\n\", 41 + PRE + 0)"), "-E");
    pnacl_ok(dir, &["cc", "obj/prog.o", "-o", "prog.pexe", "-lm"]);
    let got = run_pexe(&dir.join("prog.pexe")).expect("run");
    assert_eq!(String::from_utf8_lossy(&got.stdout), "42\n");
}

/// One `ar` member header and its data, as GNU `ar` writes them.
fn ar_member(name: &str, data: &[u8]) -> Vec<u8> {
    let mut v = format!("{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", name, 0, 0, 0, 644, data.len()).into_bytes();
    v.extend_from_slice(data);
    if data.len() % 2 == 1 {
        v.push(b'\n');
    }
    v
}

/// What is not an archive is refused as one, by `pnacl ar` and by `pnacl cc`; `ar x` never
/// writes outside the current directory, and `ar r` takes only regular files.
#[test]
fn archives_that_are_not_what_they_say_are_refused() {
    let d = tempfile::tempdir().expect("temporary directory");
    let dir = d.path();
    std::fs::write(dir.join("notes.txt"), "not an archive\n").expect("write");
    std::fs::write(dir.join("libbogus.a"), "not an archive either\n").expect("write");
    let o = pnacl(dir, &["ar", "t", "notes.txt"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an archive"), "{o:?}");
    std::fs::write(dir.join("main.c"), "int main(void) { return 0; }\n").expect("write");
    let o = pnacl(dir, &["cc", "main.c", "-L.", "-lbogus", "-o", "p.pexe"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("libbogus.a: not an archive"), "{o:?}");
    assert!(!dir.join("p.pexe").exists());

    let inner = dir.join("inner");
    std::fs::create_dir(&inner).expect("inner/");
    let mut evil = b"!<arch>\n".to_vec();
    evil.extend(ar_member("../escaped/", b"outside"));
    std::fs::write(inner.join("evil.a"), evil).expect("write");
    let o = pnacl(&inner, &["ar", "x", "evil.a"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a plain file name"), "{o:?}");
    assert!(!dir.join("escaped").exists(), "ar x wrote outside its directory");

    let o = pnacl(dir, &["ar", "rc", "lib.a", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a regular file"), "{o:?}");
    assert!(!dir.join("lib.a").exists());
}
