//! Every pexe of the corpus translates to a module that validates with exactly the
//! features it declares.

use pnacl_bitcode::read;

#[test]
fn every_corpus_pexe_translates_and_validates() {
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in pnacl_testutil::pexes() {
        let bytes = std::fs::read(entry.path()).expect("read the pexe");
        let m = read(&bytes).expect("the corpus reads");
        count += 1;
        match pnacl_wasm::translate(&m, &pnacl_wasm::Options::default()) {
            Ok(out) => {
                if let Err(e) = pnacl_wasm::validate(&out) {
                    failures.push(format!("{}: does not validate: {e}", entry.file));
                }
            }
            Err(e) => failures.push(format!("{}: refused: {e}", entry.file)),
        }
    }
    assert!(count > 20, "the corpus has its pexes ({count})");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
