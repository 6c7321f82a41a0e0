//! The disassembler on arbitrary bytes, in every column mode: it must finish with a
//! listing (possibly ending in an error line), never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_text::dis;

fuzz_target!(|data: &[u8]| {
    for (records, assembly) in [(true, true), (true, false), (false, true)] {
        let options = dis::Options { records, assembly, abi_checks: records };
        let mut out = Vec::new();
        let _ = dis::disassemble(data, &options, &mut out).expect("in-memory output");
    }
});
