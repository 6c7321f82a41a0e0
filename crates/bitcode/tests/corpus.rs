//! Every pexe of the shared corpus: read and validated, written back bit for bit, and
//! rewritten with other abbreviations without changing its meaning.

use pnacl_bitcode::{Abbrevs, Module, ReadOptions, read, read_with, write};
use pnacl_bitstream::{Container, Cursor, Step, StreamWriter};
use pnacl_testutil::{ManifestEntry, pexes};

/// Files finalized by older SDKs, whose "standard" abbreviations differ from the set the
/// reference documents (a leftover pointer-type abbreviation in the types block, an extra
/// binop-with-flags function abbreviation), and files recompressed by pnacl-compress. For
/// them, `--abbrevs standard` writes the documented set, so the output is smaller or larger
/// than the input; it still reads back to the same IR.
const NOT_STANDARD_SET: &[&str] = &[
    "cli/fact.pexe",
    "cli/hello_world.pexe",
    "cli/simple.pexe",
    "ppapi/astar.pexe",
    "ppapi/dsn_live.pexe",
    "ppapi/glbench.pexe",
    "ppapi/hello_tutorial_compress.pexe",
    "ppapi/hello_tutorial_decompress.pexe",
    "ppapi/pnacl_player.pexe",
];

fn load(e: &ManifestEntry) -> (Vec<u8>, Module) {
    let data = std::fs::read(e.path()).unwrap();
    let m = read(&data).unwrap_or_else(|err| panic!("{}: {}", e.file, err.explain()));
    (data, m)
}

/// The abbreviations a module's layout defines: the abbreviations block and every local
/// definition, with block widths.
fn abbreviation_signature(m: &Module) -> String {
    let l = m.layout.as_ref().expect("read modules have a layout");
    let mut s = format!("{:?}|{:?}|{:?}|{:?}", l.blockinfo, l.module.abbrevs, l.types.abbrevs, l.globals.abbrevs);
    s.push_str(&format!("|{}{}{}", l.module.abbrev_width, l.types.abbrev_width, l.globals.abbrev_width));
    for f in m.functions.iter().filter_map(|f| f.body.as_ref()) {
        let b = f.layout.as_ref().unwrap();
        s.push_str(&format!("|{}{:?}", b.function.abbrev_width, b.function.abbrevs));
        if let Some(c) = &b.constants {
            s.push_str(&format!("{}{:?}", c.abbrev_width, c.abbrevs));
        }
    }
    s
}

#[test]
fn every_pexe_reads_and_validates() {
    let files = pexes();
    assert_eq!(files.len(), 28, "the manifest lists 28 pexes");
    for e in &files {
        let (_, m) = load(e);
        assert!(m.functions.iter().any(|f| f.body.is_some()), "{}: no function bodies", e.file);
    }
}

#[test]
fn parallel_reading_gives_the_same_module() {
    for e in pnacl_testutil::pexes() {
        let data = std::fs::read(e.path()).unwrap();
        let opts = ReadOptions { positions: true, ..ReadOptions::default() };
        let seq = read_with(&data, opts, &mut pnacl_bitcode::NoListener).unwrap();
        let par = pnacl_bitcode::read_parallel(&data, opts).unwrap();
        assert_same_read(&seq, &par, &e.file);
    }
}

/// Asserts that two reads of `file` gave the same module, positions and layout.
fn assert_same_read(a: &Module, b: &Module, file: &str) {
    assert!(a.same_contents(b), "{file}");
    assert_eq!(a.positions, b.positions, "{file}");
    assert_eq!(a.layout, b.layout, "{file}");
    let bodies =
        |m: &Module| m.functions.iter().map(|f| f.body.as_ref().map(|b| b.positions.clone())).collect::<Vec<_>>();
    assert_eq!(bodies(a), bodies(b), "{file}");
}

#[test]
fn portable_decoding_gives_the_same_module() {
    // Where the processor runs pext fast, the default read uses it; the portable decoder
    // must read the same module, positions and layout. Elsewhere both reads are portable.
    eprintln!("default read uses pext: {}", ReadOptions::default().uses_pext());
    for e in pexes() {
        let data = std::fs::read(e.path()).unwrap();
        let opts = ReadOptions { positions: true, ..ReadOptions::default() };
        let default = read_with(&data, opts, &mut pnacl_bitcode::NoListener).unwrap();
        let portable_opts = ReadOptions { portable_decoding: true, ..opts };
        assert!(!portable_opts.uses_pext());
        let portable = read_with(&data, portable_opts, &mut pnacl_bitcode::NoListener).unwrap();
        assert_same_read(&default, &portable, &e.file);
    }
}

#[test]
fn record_exact_round_trip_through_the_bitstream() {
    for e in pexes() {
        let data = std::fs::read(e.path()).unwrap();
        let container = Container::detect(&data).unwrap();
        let (stream, start) = container.stream(&data);
        let mut cursor = Cursor::new(stream, start, 2).unwrap();
        let mut out = StreamWriter::new(&data[..(start.0 / 8) as usize], 2);
        loop {
            let entry = cursor.next_entry().unwrap();
            if matches!(entry, pnacl_bitstream::Entry::End(_)) {
                break;
            }
            out.copy(&entry).unwrap();
        }
        assert!(out.finish().unwrap() == data, "{}: bitstream copy differs", e.file);
        // The step interface sees the same number of entries as the entry interface.
        let mut c = Cursor::new(stream, start, 2).unwrap();
        while c.step().unwrap() != Step::End {}
    }
}

#[test]
fn record_exact_round_trip_through_the_ir() {
    for e in pexes() {
        let (data, m) = load(&e);
        let out = write(&m, Abbrevs::Keep).unwrap();
        assert!(out == data, "{}: writing with the kept layout differs from the input", e.file);
    }
}

#[test]
fn rewrites_read_back_to_the_same_ir() {
    let mut not_standard = Vec::new();
    for e in pexes() {
        let (data, m) = load(&e);
        let standard = write(&m, Abbrevs::Standard).unwrap();
        let none = write(&m, Abbrevs::None).unwrap();
        let from_standard = read(&standard).unwrap_or_else(|err| panic!("{} (standard): {}", e.file, err.explain()));
        let from_none = read(&none).unwrap_or_else(|err| panic!("{} (none): {}", e.file, err.explain()));
        assert!(from_standard.same_contents(&m), "{}: standard rewrite changes the IR", e.file);
        assert!(from_none.same_contents(&m), "{}: unabbreviated rewrite changes the IR", e.file);
        // `none` then `standard` is the same as `standard` directly.
        assert!(write(&from_none, Abbrevs::Standard).unwrap() == standard, "{}: none->standard differs", e.file);
        // The unabbreviated form really has no abbreviations.
        let l = from_none.layout.as_ref().unwrap();
        assert!(l.blockinfo.is_none() && l.module.abbrev_width == 2, "{}", e.file);
        if abbreviation_signature(&m) == abbreviation_signature(&from_standard) {
            assert!(standard == data, "{}: uses the standard set but standard rewrite differs", e.file);
        } else {
            assert!(standard != data);
            not_standard.push(e.file.clone());
        }
    }
    not_standard.sort();
    assert_eq!(not_standard, NOT_STANDARD_SET, "files whose abbreviations are not the standard set");
}
