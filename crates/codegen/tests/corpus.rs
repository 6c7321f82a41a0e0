//! Every pexe of the corpus translates, with Cranelift's IR verifier checking every
//! function (browser pexes included: `pnacl run` refuses to run them, but they are the
//! largest and most varied code there is).

use pnacl_bitcode::{ReadOptions, read_parallel};

#[test]
fn every_corpus_pexe_translates_to_verified_code() {
    let pexes = pnacl_testutil::pexes();
    assert!(pexes.len() >= 28, "the corpus has {} pexes", pexes.len());
    let mut functions = 0;
    for entry in pexes {
        let bytes = std::fs::read(entry.path()).expect("corpus file");
        let m = read_parallel(&bytes, ReadOptions::default()).expect("corpus pexes read");
        let config = pnacl_codegen::Config::unplaced(&m, true);
        let t =
            pnacl_codegen::translate(&m, &config, &[]).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        let defined = m.functions.iter().filter(|f| f.body.is_some()).count();
        assert_eq!(t.functions.iter().filter(|f| f.is_some()).count(), defined);
        // Every function's code lies in the code memory, and the trap table is sorted.
        for code in t.functions.iter().flatten() {
            assert!(t.code.contains(code.start) && code.len > 0);
        }
        assert!(t.traps.windows(2).all(|w| w[0].addr < w[1].addr));
        functions += defined;
    }
    assert!(functions > 20_000, "{functions} functions translated");
}
