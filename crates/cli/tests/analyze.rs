//! `pnacl analyze` agrees with `llvm-bcanalyzer` on the block and record structure of LLVM
//! bitcode made by the machine's `llvm-as`, of the corpus's LLVM files, and of the pexes
//! (which `llvm-bcanalyzer` reads once their PEXE header is replaced by the LLVM magic).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Per block id: instances, records, abbreviation definitions, direct sub-blocks.
type Counts = BTreeMap<u32, [u64; 4]>;

fn pnacl() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pnacl"))
}

fn tool(name: &str) -> PathBuf {
    let found = Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found, "this test needs `{name}` (LLVM 14 tools) on PATH");
    PathBuf::from(name)
}

/// Parses `pnacl analyze --summary`: the summary table and the top-level block count.
fn ours(file: &Path) -> (u64, Counts) {
    let out = Command::new(pnacl()).arg("analyze").arg("--summary").arg(file).output().unwrap();
    assert!(out.status.success(), "pnacl analyze {} failed: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut counts = Counts::new();
    let mut top = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Summary: ") {
            top = rest.split_whitespace().next().and_then(|n| n.parse().ok());
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() == 7
            && let Ok(id) = f[0].parse::<u32>()
        {
            let n: Vec<u64> = f[2..6].iter().map(|v| v.parse().unwrap()).collect();
            counts.insert(id, [n[0], n[1], n[2], n[3]]);
        }
    }
    (top.expect("summary line"), counts)
}

/// Parses the per-block summary `llvm-bcanalyzer -dump` prints after its dump (without
/// `-dump` it skips the insides of function blocks).
fn theirs(file: &Path) -> (u64, Counts) {
    let out = Command::new(tool("llvm-bcanalyzer")).arg("-dump").arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "llvm-bcanalyzer {} failed: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut counts = Counts::new();
    let mut top = None;
    let mut current: Option<u32> = None;
    let summary = text.find("\nSummary of ").map_or(text.as_str(), |i| &text[i..]);
    for line in summary.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("# Toplevel Blocks:") {
            top = rest.trim().parse().ok();
        } else if let Some(rest) = t.strip_prefix("Block ID #") {
            let id = rest.split_whitespace().next().unwrap().trim_end_matches(':').parse().unwrap();
            counts.insert(id, [0; 4]);
            current = Some(id);
        } else if let (Some(id), Some((key, value))) = (current, t.split_once(':')) {
            // One instance prints `Num X: n`; several print `Tot/Avg X: total/average`.
            let slot = match key.trim() {
                "Num Instances" => 0,
                "Num Records" | "Tot/Avg Records" => 1,
                "Num Abbrevs" | "Tot/Avg Abbrevs" => 2,
                "Num SubBlocks" | "Tot/Avg SubBlocks" => 3,
                _ => continue,
            };
            let total = value.trim().split('/').next().unwrap();
            counts.get_mut(&id).unwrap()[slot] = total.parse().unwrap();
        }
    }
    (top.expect("top-level block count"), counts)
}

#[track_caller]
fn same_structure(ours_file: &Path, theirs_file: &Path) {
    let (a_top, a) = ours(ours_file);
    let (b_top, b) = theirs(theirs_file);
    assert_eq!(a_top, b_top, "{}: top-level blocks", ours_file.display());
    assert_eq!(a, b, "{}: per-block [instances, records, abbrevs, subblocks]", ours_file.display());
}

#[test]
fn agrees_with_bcanalyzer_on_llvm_as_output() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut n = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        let ll = entry.unwrap().path();
        if ll.extension().is_none_or(|e| e != "ll") {
            continue;
        }
        let bc = dir.path().join(ll.file_name().unwrap()).with_extension("bc");
        let st = Command::new(tool("llvm-as")).arg(&ll).arg("-o").arg(&bc).status().unwrap();
        assert!(st.success(), "llvm-as {}", ll.display());
        same_structure(&bc, &bc);
        n += 1;
    }
    assert!(n >= 3, "expected the hand-written .ll test programs");
}

#[test]
fn agrees_with_bcanalyzer_on_corpus_llvm_files() {
    let files: Vec<_> = pnacl_testutil::manifest().into_iter().filter(|e| e.kind == "llvm").collect();
    assert_eq!(files.len(), 24);
    for e in files {
        same_structure(&e.path(), &e.path());
    }
}

#[test]
fn agrees_with_bcanalyzer_on_pexes() {
    let dir = tempfile::tempdir().unwrap();
    for e in pnacl_testutil::pexes() {
        let data = std::fs::read(e.path()).unwrap();
        let header = pnacl_bitstream::PexeHeader::parse(&data).unwrap();
        let mut as_llvm = pnacl_bitstream::LLVM_MAGIC.to_vec();
        as_llvm.extend_from_slice(&data[header.raw.len()..]);
        let converted = dir.path().join(e.file.replace('/', "_")).with_extension("bc");
        std::fs::write(&converted, as_llvm).unwrap();
        same_structure(&e.path(), &converted);
    }
}

#[test]
fn dump_lists_every_record() {
    let f = pnacl_testutil::corpus_dir().join("tiny/start.pexe");
    let out = Command::new(pnacl()).arg("analyze").arg(&f).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let records = text.lines().filter(|l| l.contains(" code=")).count();
    let (_, counts) = ours(&f);
    assert_eq!(records as u64, counts.values().map(|c| c[1]).sum::<u64>());
    assert!(text.contains("<ENTRY code=1 abbrev=6 ops=[0, 95, 115, 116, 97, 114, 116]/>"), "{text}");
}

#[test]
fn malformed_input_is_reported_with_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.pexe");
    let mut data = std::fs::read(pnacl_testutil::corpus_dir().join("tiny/start.pexe")).unwrap();
    data.truncate(100);
    std::fs::write(&f, &data).unwrap();
    let out = Command::new(pnacl()).arg("analyze").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("pnacl analyze: {}: Error(", f.display())), "{err}");
}
