//! `pnacl compress`: the command line (output in place or elsewhere, refusal of invalid
//! input, statistics), and that the compressed corpus checks and runs as the original.

use pnacl_testutil::{corpus_dir, pnacl_binary, runs};
use std::path::Path;
use std::process::{Command, Output};

fn pnacl(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(pnacl_binary()).args(args).output().expect("run pnacl")
}

fn compress(input: &Path, output: Option<&Path>, extra: &[&str]) -> Output {
    let mut args: Vec<&std::ffi::OsStr> = vec!["compress".as_ref(), input.as_os_str()];
    if let Some(o) = output {
        args.push("-o".as_ref());
        args.push(o.as_os_str());
    }
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    pnacl(&args)
}

#[test]
fn compresses_to_a_file_or_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read(corpus_dir().join("cli/puts.pexe")).unwrap();
    let copy = dir.path().join("puts.pexe");
    std::fs::write(&copy, &original).unwrap();
    let out = dir.path().join("out.pexe");
    let o = compress(&copy, Some(&out), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    let compressed = std::fs::read(&out).unwrap();
    assert!(compressed.len() < original.len());
    assert_eq!(std::fs::read(&copy).unwrap(), original, "-o leaves the input alone");
    // In place: the input is replaced by the same bytes.
    let o = compress(&copy, None, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&copy).unwrap(), compressed);
    // Nothing else is left in the directory (no temporary file).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn stats_show_sizes_blocks_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pexe");
    let input = corpus_dir().join("ppapi/hello_tutorial_decompress.pexe");
    let o = compress(&input, Some(&out), &["--stats", "--effort", "fast"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let size = std::fs::metadata(&out).unwrap().len();
    assert!(text.contains("bytes in         101492"), "{text}");
    assert!(text.contains(&format!("bytes out  {size:>12}")), "{text}");
    for block in ["abbreviations", "module", "constants", "function", "valuesymtab", "types", "globals", "total"] {
        assert!(text.lines().any(|l| l.trim_start().starts_with(block)), "no {block} row:\n{text}");
    }
    assert!(text.contains(" s "), "{text}");
}

#[test]
fn refuses_an_invalid_pexe_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pexe");
    let mut data = std::fs::read(corpus_dir().join("tiny/start.pexe")).unwrap();
    data[40] ^= 0xff;
    std::fs::write(&bad, &data).unwrap();
    let out = dir.path().join("out.pexe");
    for output in [Some(out.as_path()), None] {
        let o = compress(&bad, output, &[]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains("Error(") && err.contains("rule "), "{err}");
    }
    assert!(!out.exists());
    assert_eq!(std::fs::read(&bad).unwrap(), data, "the invalid input is left alone");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// `pnacl check`'s exit status and report on a file, without the file's name and the
/// positions of records (which compression moves).
fn check(file: &Path) -> (Option<i32>, String) {
    let o = pnacl(&["check".as_ref(), file.as_os_str()]);
    let report = String::from_utf8(o.stdout).unwrap().replace(&format!("{}: ", file.display()), "");
    let report: Vec<String> = report
        .lines()
        .map(|l| match (l.find(" (record at bit "), l.rfind(") [")) {
            (Some(a), Some(b)) => format!("{}{}", &l[..a], &l[b + 1..]),
            _ => l.to_string(),
        })
        .collect();
    (o.status.code(), report.join("\n"))
}

#[test]
fn compressed_corpus_checks_like_the_original() {
    let dir = tempfile::tempdir().unwrap();
    for e in pnacl_testutil::pexes() {
        let out = dir.path().join(e.file.replace('/', "_"));
        let o = compress(&e.path(), Some(&out), &[]);
        assert!(o.status.success(), "{}: {}", e.file, String::from_utf8_lossy(&o.stderr));
        assert_eq!(check(&out), check(&e.path()), "{}", e.file);
    }
}

#[test]
fn compressed_cli_pexes_run_like_the_originals() {
    let cases: Vec<_> = runs().into_iter().filter(|r| r.role == "test").collect();
    assert!(cases.len() >= 17, "RUNS.tsv has {} test rows", cases.len());
    // The guest's argv[0] is the file name as given: keep the corpus's relative names.
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<&str> = cases.iter().map(|c| c.file.as_str()).collect();
    files.dedup();
    for file in files {
        let out = dir.path().join(file);
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        let o = compress(&corpus_dir().join(file), Some(&out), &[]);
        assert!(o.status.success(), "{file}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let mut failures = Vec::new();
    for case in &cases {
        let run = |root: &Path| {
            Command::new(pnacl_binary())
                .current_dir(root)
                .arg("run")
                .arg(&case.file)
                .arg("--")
                .args(&case.args)
                .output()
                .expect("run pnacl")
        };
        let (original, compressed) = (run(&corpus_dir()), run(dir.path()));
        let name = format!("{} {}", case.file, case.args.join(" "));
        if compressed.status.code() != Some(case.expected_exit) || compressed.status.code() != original.status.code() {
            failures.push(format!(
                "{name}: exit {:?}, original {:?}, expected {}",
                compressed.status.code(),
                original.status.code(),
                case.expected_exit
            ));
        }
        if compressed.stdout != original.stdout {
            failures.push(format!("{name}: standard output differs from the original's"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
