//! Names in traps: `pnacl cc --keep-names` (and `-g`) keeps function names in the pexe, and
//! `pnacl run` prints a trap with a backtrace of them; a stripped pexe's backtrace numbers
//! the functions (`@fN`); a stack overflow's backtrace is cut to its two ends. Also: a pexe
//! `pnacl cc` builds is clean for `pnacl check`, whichever `main` the program defines (the
//! start-up code's call of `main` used to be a warning).

use pnacl_testutil::{llvm_tool, pnacl_command};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The trapping program's call chain, innermost first: its C source is made from this
/// list, so the names the backtrace must show come from the source.
const CHAIN: [&str; 3] = ["divide_by_zero", "add_one", "twice"];

/// Frames a backtrace shows from each end (`pnacl_runtime`'s HEAD and TAIL).
const HEAD: usize = 16;
const TAIL: usize = 8;

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// `CHAIN[0]` divides by zero; each next function calls the one before it; `main` calls
/// the last.
fn chain_source() -> String {
    let mut src = String::from("#include <stdio.h>\nvolatile int zero = 0;\n");
    src.push_str(&format!("__attribute__((noinline)) int {}(int x) {{ return x / zero; }}\n", CHAIN[0]));
    for w in CHAIN.windows(2) {
        src.push_str(&format!("__attribute__((noinline)) int {}(int x) {{ return {}(x + 1) + 1; }}\n", w[1], w[0]));
    }
    src.push_str(&format!(
        "int main(int argc, char **argv) {{ printf(\"%d\\n\", {}(argc)); return 0; }}\n",
        CHAIN[CHAIN.len() - 1]
    ));
    src
}

/// Writes `src` to `dir` and builds it with `pnacl cc` and `options`; the pexe.
fn build(dir: &Path, src: &str, options: &[&str]) -> PathBuf {
    llvm_tool("clang", 14);
    let c = dir.join("prog.c");
    std::fs::write(&c, src).expect("write the source");
    let pexe = dir.join(format!("prog{}.pexe", options.join("").replace(['-', '='], "_")));
    let o = pnacl_command().arg("cc").args(options).arg(&c).arg("-o").arg(&pexe).output().expect("run pnacl cc");
    assert!(o.status.success(), "pnacl cc {options:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    pexe
}

fn run(pexe: &Path) -> Output {
    pnacl_command().arg("run").arg(pexe).output().expect("run pnacl run")
}

/// The trap line and the frames' names of a trap's standard error.
fn trap(o: &Output) -> (String, Vec<String>) {
    assert_eq!(o.status.code(), Some(134), "the program should trap; stderr: {}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let line = err.lines().find(|l| l.starts_with("pnacl: trap: ")).unwrap_or_else(|| panic!("no trap line in {err}"));
    let frames = err
        .lines()
        .skip_while(|l| !l.starts_with("pnacl: backtrace"))
        .skip(1)
        .filter(|l| l.starts_with("  #"))
        .map(|l| {
            l.split_once(' ').map(|x| x.1).unwrap_or("").trim_start().split_once(' ').expect("#N name").1.to_string()
        })
        .collect();
    (line.to_string(), frames)
}

#[test]
fn kept_names_name_the_trap_and_every_frame() {
    let dir = scratch();
    let mut expected: Vec<&str> = CHAIN.to_vec();
    expected.push("main");
    for options in [&["-O0", "--keep-names"][..], &["-O2", "--keep-names"], &["-O2", "-g"]] {
        let (line, frames) = trap(&run(&build(dir.path(), &chain_source(), options)));
        assert!(line.ends_with(&format!(" in function {}", CHAIN[0])), "{options:?}: {line}");
        assert!(frames.len() > expected.len(), "{options:?}: the frames below main are missing: {frames:?}");
        assert_eq!(frames[..expected.len()], expected[..], "{options:?}: {frames:?}");
    }
}

#[test]
fn a_stripped_pexe_numbers_its_functions() {
    let dir = scratch();
    for options in [&["-O2"][..], &["-O2", "-g", "-g0"]] {
        let (line, frames) = trap(&run(&build(dir.path(), &chain_source(), options)));
        let number =
            |s: &str| s.strip_prefix("@f").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        assert!(line.rsplit(' ').next().is_some_and(number), "{options:?}: {line}");
        assert!(frames.len() > CHAIN.len() + 1, "{options:?}: {frames:?}");
        let ours = &frames[..CHAIN.len() + 1];
        assert!(ours.iter().all(|f| number(f)), "{options:?}: {frames:?}");
        let distinct: std::collections::HashSet<&String> = ours.iter().collect();
        assert_eq!(distinct.len(), ours.len(), "{options:?}: {frames:?}");
    }
}

#[test]
fn a_stack_overflow_backtrace_shows_both_ends() {
    let dir = scratch();
    let src = "#include <stdio.h>\n\
               __attribute__((noinline)) int recurse(int n) { volatile int pad[4]; pad[0] = n; \
               if (n == -1) return 0; return recurse(n + 1) + pad[0]; }\n\
               int main(void) { printf(\"%d\\n\", recurse(0)); return 0; }\n";
    let o = run(&build(dir.path(), src, &["-O2", "--keep-names"]));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let (line, frames) = trap(&o);
    assert!(line.contains("in function recurse"), "{line}");
    assert_eq!(frames.len(), HEAD + TAIL, "{err}");
    assert!(frames[..HEAD].iter().all(|f| f == "recurse"), "{err}");
    assert!(frames[HEAD..].contains(&"main".to_string()), "{err}");
    let elided = err.lines().find_map(|l| l.trim().strip_prefix("... ")).expect("an elided count");
    let n: usize = elided.strip_suffix(" frames elided").and_then(|n| n.parse().ok()).expect("a count");
    // A 64 MiB host stack holds far more than a thousand frames of this function.
    assert!(n > 1000, "{err}");
}

#[test]
fn pnacl_cc_pexes_are_clean_for_check() {
    let dir = scratch();
    let mains = [
        "int main(void) { return 0; }",
        "int main() { return 0; }",
        "int main(int argc, char **argv) { return argc - 1; }",
        "int main(int argc, char **argv, char **envp) { return argc - 1 + (envp == 0); }",
    ];
    for (k, main) in mains.iter().enumerate() {
        for options in [&["-O0"][..], &["-O2", "--keep-names"]] {
            let src = format!("#include <stdio.h>\n{main}\n");
            let sub = dir.path().join(k.to_string());
            std::fs::create_dir_all(&sub).expect("directory");
            let pexe = build(&sub, &src, options);
            let o = pnacl_command().arg("check").arg(&pexe).output().expect("run pnacl check");
            assert!(
                o.status.success() && o.stdout.is_empty() && o.stderr.is_empty(),
                "{main} {options:?}: pnacl check says:\n{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            let ran = run(&pexe);
            assert_eq!(ran.status.code(), Some(0), "{main} {options:?}: {}", String::from_utf8_lossy(&ran.stderr));
        }
    }
}
