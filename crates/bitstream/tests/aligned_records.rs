//! Byte-aligned records (the PNaCl header's "align bitcode records" flag, written by
//! `pnacl-freeze --align-bitcode-records`).

use pnacl_bitstream::{Abbrev, AbbrevTarget, BitPos, Cursor, Entry, Op, StreamWriter, UNABBREV_RECORD};
use std::sync::Arc;

/// Streams written with byte-aligned records read back the same, record for record, when
/// the cursor is told; the padding is what it skips.
#[test]
fn aligned_records_read_back() {
    let write = |align: bool| {
        let mut w = StreamWriter::new(b"", 2);
        w.set_align_records(align);
        w.enter_block(8, 3).unwrap();
        let abbrev = Arc::new(Abbrev::new(vec![Op::Literal(4), Op::Vbr(6), Op::Fixed(3)]).unwrap());
        let AbbrevTarget::Local { abbrev_id } = w.define_abbrev(abbrev).unwrap() else { panic!("local") };
        for i in 0..20u64 {
            w.record(UNABBREV_RECORD, 1 + i % 3, &[i, i * 1000], None).unwrap();
            w.record(abbrev_id, 4, &[i * 7, i % 8], None).unwrap();
        }
        w.exit_block().unwrap();
        w.finish().unwrap()
    };
    let entries = |data: &[u8], align: bool| {
        let mut c = Cursor::new(data, BitPos(0), 2).unwrap();
        c.set_align_records(align);
        let mut out = Vec::new();
        loop {
            match c.next_entry().unwrap() {
                Entry::End(_) => return out,
                Entry::Record(r) => {
                    assert!(!align || r.pos.0.is_multiple_of(8), "{:?}", r.pos);
                    out.push(format!("{} {:?}", r.code, r.ops));
                }
                e => out.push(format!("{:?}", std::mem::discriminant(&e))),
            }
        }
    };
    let (plain, aligned) = (write(false), write(true));
    assert!(aligned.len() > plain.len());
    assert_eq!(entries(&aligned, true), entries(&plain, false));
}
