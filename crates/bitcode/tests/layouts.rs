//! The encoding-choice interface: each block's canonical records, and writing with layouts
//! given from outside the module.

use pnacl_bitcode::ir::{BodyLayout, ITEM_ABBREV, ITEM_BLOCK};
use pnacl_bitcode::{Abbrevs, BlockRef, Canonical, read, write, write_with_layouts};

#[test]
fn given_layouts_reproduce_the_file_and_match_the_canonical_records() {
    for e in pnacl_testutil::pexes() {
        let data = std::fs::read(e.path()).unwrap();
        let mut m = read(&data).unwrap();
        let module_layout = *m.layout.take().expect("read modules have a layout");
        let bodies: Vec<Option<BodyLayout>> =
            m.functions.iter_mut().map(|f| f.body.as_mut().and_then(|b| b.layout.take()).map(|l| *l)).collect();
        // The module without its layouts, written with them given separately: the input.
        let out = write_with_layouts(&m, &module_layout, &bodies).unwrap();
        assert!(out == data, "{}: writing with the given layouts differs from the input", e.file);
        // Each block's canonical records are the records its layout lists.
        let canonical = Canonical::new(&m);
        for b in canonical.blocks() {
            let layout = match b {
                BlockRef::Module => &module_layout.module,
                BlockRef::Types => &module_layout.types,
                BlockRef::Globals => &module_layout.globals,
                BlockRef::ModuleSymtab => module_layout.symtab.as_ref().unwrap(),
                BlockRef::Function(f) => &bodies[f as usize].as_ref().unwrap().function,
                BlockRef::Constants(f) => bodies[f as usize].as_ref().unwrap().constants.as_ref().unwrap(),
                BlockRef::FunctionSymtab(f) => bodies[f as usize].as_ref().unwrap().symtab.as_ref().unwrap(),
            };
            let recs = canonical.records(b).unwrap();
            let records = layout.items.iter().filter(|&&i| i != ITEM_ABBREV && i != ITEM_BLOCK).count();
            assert_eq!(recs.record_count(), records, "{}: {b:?}", e.file);
            assert_eq!(recs.records().count(), records, "{}: {b:?}", e.file);
        }
    }
}

#[test]
fn a_body_without_a_given_layout_is_written_with_the_standard_set() {
    let data = std::fs::read(pnacl_testutil::corpus_dir().join("cli/puts.pexe")).unwrap();
    let mut m = read(&data).unwrap();
    let module_layout = *m.layout.take().unwrap();
    for f in &mut m.functions {
        if let Some(b) = &mut f.body {
            b.layout = None;
        }
    }
    let bodies = vec![None; m.functions.len()];
    let out = write_with_layouts(&m, &module_layout, &bodies).unwrap();
    // puts.pexe uses the standard set throughout.
    assert!(out == write(&m, Abbrevs::Standard).unwrap());
    assert!(read(&out).unwrap().same_contents(&m));
}
