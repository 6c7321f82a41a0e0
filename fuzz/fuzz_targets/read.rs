//! The PNaCl reader on arbitrary bytes: it must return Ok or Err, and whatever it accepts
//! must be writable in every abbreviation mode and read back to the same IR. The portable
//! decoder must read what the default one (pext, where fast) reads, or fail the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitcode::{Abbrevs, NoListener, ReadOptions, read_with, write};

fuzz_target!(|data: &[u8]| {
    for defer_abi in [false, true] {
        let opts = ReadOptions { defer_abi, positions: true, ..ReadOptions::default() };
        let read = read_with(data, opts, &mut NoListener);
        let portable = read_with(data, ReadOptions { portable_decoding: true, ..opts }, &mut NoListener);
        match (&read, &portable) {
            (Ok(a), Ok(b)) => assert!(a.same_contents(b) && a.positions == b.positions, "portable read differs"),
            (Err(a), Err(b)) => assert_eq!((a.pos, &a.message), (b.pos, &b.message), "portable error differs"),
            _ => panic!("portable read {:?}, default read {:?}", portable.is_ok(), read.is_ok()),
        }
        let Ok(m) = read else { continue };
        for mode in [Abbrevs::Keep, Abbrevs::Standard, Abbrevs::None] {
            let bytes = write(&m, mode).expect("an accepted module can be written");
            let back = read_with(&bytes, opts, &mut NoListener).expect("a written module can be read");
            assert!(back.same_contents(&m), "{mode:?} rewrite changed the module");
        }
    }
    // The dumper's lenient reading only has to terminate without panicking.
    let lenient = ReadOptions { lenient_structure: true, no_layout: true, ..ReadOptions::default() };
    let _ = read_with(data, lenient, &mut NoListener);
});
