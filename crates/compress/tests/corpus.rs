//! The compressor on every corpus pexe: smaller than the original and than its standard
//! rewrite, the same IR, the same listing (but for abbreviations), the same header, and
//! the same bytes every time.

mod common;

use common::{assembly_without_abbreviations, read};
use pnacl_bitcode::{Abbrevs, write};
use pnacl_compress::{Effort, compress};
use rayon::prelude::*;

/// Google's `pnacl-compress` output in the corpus, and the finalized input it beats.
const GOOGLE_COMPRESSED: &str = "ppapi/hello_tutorial_compress.pexe";
const GOOGLE_INPUT: &str = "ppapi/hello_tutorial_decompress.pexe";

#[test]
fn every_corpus_pexe_gets_smaller_and_means_the_same() {
    let pexes = pnacl_testutil::pexes();
    assert!(pexes.len() >= 28, "the manifest lists {} pexes", pexes.len());
    let failures: Vec<String> = pexes
        .par_iter()
        .filter_map(|e| {
            let data = std::fs::read(e.path()).unwrap();
            let m = read(&data);
            let standard = write(&m, Abbrevs::Standard).unwrap();
            let out = compress(&m, Effort::Default).unwrap_or_else(|err| panic!("{}: {err}", e.file));
            let mut problems = Vec::new();
            if out.bytes.len() >= data.len() || out.bytes.len() >= standard.len() {
                problems.push(format!(
                    "{} bytes, original {}, standard {}",
                    out.bytes.len(),
                    data.len(),
                    standard.len()
                ));
            }
            if !out.bytes.starts_with(&m.header.raw) {
                problems.push("the header differs".into());
            }
            let back = read(&out.bytes);
            if !back.same_contents(&m) {
                problems.push("reads back to a different module".into());
            }
            if assembly_without_abbreviations(&out.bytes) != assembly_without_abbreviations(&data) {
                problems.push("the assembly column differs".into());
            }
            (!problems.is_empty()).then(|| format!("{}: {}", e.file, problems.join("; ")))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn beats_google_pnacl_compress_on_its_own_input() {
    let dir = pnacl_testutil::corpus_dir();
    let google = std::fs::read(dir.join(GOOGLE_COMPRESSED)).unwrap().len();
    let input = std::fs::read(dir.join(GOOGLE_INPUT)).unwrap();
    let ours = compress(&read(&input), Effort::Default).unwrap().bytes.len();
    assert!(ours < google, "{GOOGLE_INPUT} compresses to {ours} bytes; pnacl-compress wrote {google}");
}

#[test]
fn output_is_deterministic_and_every_effort_is_valid() {
    let dir = pnacl_testutil::corpus_dir();
    for file in ["cli/printf.pexe", "ppapi/pnacl_player.pexe", "tiny/start.pexe"] {
        let data = std::fs::read(dir.join(file)).unwrap();
        let m = read(&data);
        let mut sizes = Vec::new();
        for effort in [Effort::Fast, Effort::Default, Effort::Max] {
            let a = compress(&m, effort).unwrap().bytes;
            let b = compress(&m, effort).unwrap().bytes;
            assert!(a == b, "{file} {effort:?}: two runs differ");
            assert!(read(&a).same_contents(&m), "{file} {effort:?}");
            // A file read from the compressed output compresses to the same bytes: the
            // input's abbreviations play no part.
            assert!(compress(&read(&a), effort).unwrap().bytes == a, "{file} {effort:?}: not idempotent");
            sizes.push(a.len());
        }
        assert!(sizes[2] <= sizes[0], "{file}: max effort {} bytes, fast {}", sizes[2], sizes[0]);
    }
}

#[test]
fn a_module_without_layout_compresses_like_one_read_from_a_file() {
    // Layout-free modules (built in memory) use the canonical block placement, which is
    // where the standard writer puts blocks.
    let data = std::fs::read(pnacl_testutil::corpus_dir().join("cli/hello_world.pexe")).unwrap();
    let mut m = read(&data);
    let with_layout = compress(&m, Effort::Default).unwrap().bytes;
    m.layout = None;
    for f in &mut m.functions {
        if let Some(b) = &mut f.body {
            b.layout = None;
        }
    }
    let without = compress(&m, Effort::Default).unwrap().bytes;
    assert!(read(&without).same_contents(&m));
    assert_eq!(with_layout, without);
}
