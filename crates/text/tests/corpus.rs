//! `pnacl dis` and `pnacl asm` on every pexe of the corpus.

use pnacl_bitcode::{ReadOptions, read_with};
use pnacl_text::{asm, dis, tbc};

fn listing(bytes: &[u8], options: &dis::Options) -> String {
    let mut out = Vec::new();
    let error = dis::disassemble(bytes, options, &mut out).expect("in-memory output");
    assert!(error.is_none(), "{error:?}");
    String::from_utf8(out).expect("listings are ASCII")
}

fn read(bytes: &[u8]) -> pnacl_bitcode::Module {
    read_with(bytes, ReadOptions { defer_abi: true, ..ReadOptions::default() }, &mut pnacl_bitcode::NoListener)
        .expect("readable")
}

/// asm(dis(x)) == x, byte for byte.
#[test]
fn listings_assemble_to_the_same_bytes() {
    let pexes = pnacl_testutil::pexes();
    assert_eq!(pexes.len(), 28);
    for p in &pexes {
        let bytes = std::fs::read(p.path()).expect("corpus file");
        let text = listing(&bytes, &dis::Options::default());
        let back = asm::assemble(&text).unwrap_or_else(|e| panic!("{}: {}", p.file, e.render(&p.file)));
        assert!(back == bytes, "{}: asm(dis(x)) differs from x", p.file);
    }
}

/// The bare assembly column (`dis --no-records`) assembles too, to the same program: only
/// floating-point constants can differ, as the listing prints them with `%g`.
#[test]
fn the_assembly_column_alone_assembles() {
    let options = dis::Options { records: false, ..Default::default() };
    let mut identical = 0;
    for p in pnacl_testutil::pexes() {
        let bytes = std::fs::read(p.path()).expect("corpus file");
        let text = listing(&bytes, &options);
        let back = asm::assemble(&text).unwrap_or_else(|e| panic!("{}: {}", p.file, e.render(&p.file)));
        let (a, b) = (read(&bytes), read(&back));
        assert_eq!(a.types, b.types, "{}", p.file);
        assert_eq!(a.globals, b.globals, "{}", p.file);
        assert_eq!(a.symtab, b.symtab, "{}", p.file);
        for (fa, fb) in a.functions.iter().zip(&b.functions) {
            let (ba, bb) = (fa.body.as_deref(), fb.body.as_deref());
            assert_eq!(ba.map(|x| &x.insts), bb.map(|x| &x.insts), "{}", p.file);
            // Constants are equal, floating-point ones up to `%g`'s six digits.
            let constants = |x: Option<&pnacl_bitcode::ir::FunctionBody>| {
                x.map(|x| x.constants.iter().map(|c| (c.ty, (!c.ty.is_float()).then_some(c.value))).collect::<Vec<_>>())
            };
            assert_eq!(constants(ba), constants(bb), "{}", p.file);
        }
        identical += usize::from(back == bytes);
    }
    println!("{identical}/28 byte-identical from the assembly column alone");
}

/// `dis --format tbc` and `asm --records` round-trip: records as text, text to the same
/// records, and the same program as the original.
#[test]
fn textual_records_round_trip() {
    for p in pnacl_testutil::pexes() {
        let bytes = std::fs::read(p.path()).expect("corpus file");
        let mut text = String::new();
        tbc::bitcode_to_records(&bytes, &mut text).expect("well-formed bitstream");
        let rebuilt = tbc::records_to_bitcode(&text).unwrap_or_else(|e| panic!("{}: {e:?}", p.file));
        let mut again = String::new();
        tbc::bitcode_to_records(&rebuilt, &mut again).expect("well-formed bitstream");
        assert!(again == text, "{}: records changed", p.file);
        assert!(read(&rebuilt).same_contents(&read(&bytes)), "{}: program changed", p.file);
    }
}

/// The listing options print the columns they say.
#[test]
fn single_column_listings() {
    let p = pnacl_testutil::pexes().into_iter().find(|p| p.file.ends_with("fact.pexe")).expect("fact.pexe");
    let bytes = std::fs::read(p.path()).expect("corpus file");
    let both = listing(&bytes, &dis::Options::default());
    let records = listing(&bytes, &dis::Options { assembly: false, ..Default::default() });
    let assembly = listing(&bytes, &dis::Options { records: false, ..Default::default() });
    // Records only: the header fits one 80-column line; no separator column.
    assert!(records.lines().next().unwrap().starts_with("       0:0|<65532, 80, 69, 88, 69, 1, 0, 8, 0, 17,"));
    assert!(records.lines().all(|l| l.matches('|').count() == 1), "one separator per line");
    // Assembly only: no header description, no address column, 79 columns.
    assert_eq!(assembly.lines().next(), Some("module {  // BlockID = 8"));
    assert!(assembly.lines().all(|l| l.len() <= 79 || !l.contains(' ')));
    // The combined listing's assembly column holds the same text, wrapped at 39 columns
    // instead of 79 (line breaks fall between tokens, so compare without white space).
    let squeezed = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let combined_asm: String = both.lines().skip(3).map(|l| l.splitn(3, '|').nth(2).unwrap_or("")).collect();
    let (a, b) = (squeezed(&combined_asm), squeezed(&assembly));
    let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y);
    assert!(a == b, "the columns differ at byte {at:?} of {}", a.len());
}
