//! Every pexe of the corpus is ABI-clean.

use pnacl_bitcode::{ReadOptions, read_parallel};

#[test]
fn the_corpus_is_abi_clean() {
    let pexes = pnacl_testutil::pexes();
    assert_eq!(pexes.len(), 28);
    for p in &pexes {
        let bytes = std::fs::read(p.path()).expect("corpus file");
        let options = ReadOptions { defer_abi: true, positions: true, ..ReadOptions::default() };
        let m = read_parallel(&bytes, options).unwrap_or_else(|e| panic!("{}: {}", p.file, e.explain()));
        let d = pnacl_verify::verify(&m);
        assert!(d.is_empty(), "{}: {:#?}", p.file, d.iter().map(|d| d.describe(&m)).collect::<Vec<_>>());
        // The strict reader, which enforces the ABI rules it can see, agrees.
        pnacl_bitcode::read(&bytes).unwrap_or_else(|e| panic!("{}: {}", p.file, e.explain()));
    }
}
