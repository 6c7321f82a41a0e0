//! The assembler on arbitrary text (PNaClAsm, listings, textual records): it must return
//! Ok or an error, and whatever it assembles must disassemble into a listing that
//! assembles back to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_text::{asm, dis, tbc};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = tbc::records_to_bitcode(text);
    let Ok(bytes) = asm::assemble(text) else { return };
    let mut listing = Vec::new();
    let error = dis::disassemble(&bytes, &dis::Options { abi_checks: false, ..Default::default() }, &mut listing)
        .expect("in-memory output");
    assert!(error.is_none(), "assembled bitcode must read back: {error:?}");
    let listing = String::from_utf8(listing).expect("listings are ASCII");
    let again = asm::assemble(&listing).expect("a listing of assembled bitcode assembles");
    assert!(again == bytes, "asm(dis(asm(text))) differs from asm(text)");
});
