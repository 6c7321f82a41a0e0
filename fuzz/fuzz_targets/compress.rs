//! The compressor on every module the reader accepts from arbitrary bytes: it must succeed,
//! and its output must read back to the same IR. The effort level is taken from the input
//! length, so every level is exercised.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitcode::{NoListener, ReadOptions, read_with};
use pnacl_compress::{Effort, compress};

fuzz_target!(|data: &[u8]| {
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    let Ok(m) = read_with(data, opts, &mut NoListener) else { return };
    let effort = [Effort::Fast, Effort::Default, Effort::Max][data.len() / 4 % 3];
    let out = compress(&m, effort).expect("an accepted module compresses");
    let back = read_with(&out.bytes, opts, &mut NoListener).expect("the compressed file reads back");
    assert!(back.same_contents(&m), "the compressed file reads back to a different module");
    assert!(out.bytes.starts_with(&m.header.raw), "the header changed");
});
