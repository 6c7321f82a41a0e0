//! `pnacl rewrite`: the three abbreviation modes, and never a half-written output.

use std::path::PathBuf;
use std::process::Command;

fn pnacl() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pnacl"))
}

fn rewrite(input: &std::path::Path, output: &std::path::Path, mode: &str) -> std::process::Output {
    Command::new(pnacl()).args(["rewrite", "--abbrevs", mode]).arg(input).arg("-o").arg(output).output().unwrap()
}

#[test]
fn keep_standard_and_none() {
    let dir = tempfile::tempdir().unwrap();
    let input = pnacl_testutil::corpus_dir().join("cli/puts.pexe");
    let original = std::fs::read(&input).unwrap();
    for mode in ["keep", "standard", "none"] {
        let out = dir.path().join(format!("{mode}.pexe"));
        let o = rewrite(&input, &out, mode);
        assert!(o.status.success(), "{mode}: {}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(&out).unwrap();
        let m = pnacl_bitcode::read(&bytes).unwrap();
        assert!(m.same_contents(&pnacl_bitcode::read(&original).unwrap()), "{mode}");
        match mode {
            "none" => assert!(bytes.len() > original.len()),
            _ => assert_eq!(bytes, original, "{mode}: puts.pexe uses the standard set"),
        }
    }
    // none, then standard, gives the original back.
    let back = dir.path().join("back.pexe");
    assert!(rewrite(&dir.path().join("none.pexe"), &back, "standard").status.success());
    assert_eq!(std::fs::read(&back).unwrap(), original);
}

#[test]
fn a_failed_rewrite_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pexe");
    let mut data = std::fs::read(pnacl_testutil::corpus_dir().join("tiny/start.pexe")).unwrap();
    data[40] ^= 0xff;
    std::fs::write(&bad, &data).unwrap();
    let out = dir.path().join("out.pexe");
    let o = rewrite(&bad, &out, "standard");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("Error(") && err.contains("rule "), "{err}");
    assert!(!out.exists());
    // Nor any temporary file.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn an_existing_output_survives_a_failed_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.pexe");
    std::fs::write(&out, b"precious").unwrap();
    let o = rewrite(&dir.path().join("missing.pexe"), &out, "keep");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
}
