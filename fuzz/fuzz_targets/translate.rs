//! The translator on arbitrary modules: pexe bytes, or PNaClAsm text (assembled first).
//! Whatever the reader accepts and the ABI verifier finds clean must translate without a
//! panic, and never into code Cranelift's verifier rejects.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitcode::{ReadOptions, read_parallel};

fuzz_target!(|data: &[u8]| {
    let bytes = if data.starts_with(b"PEXE") {
        data.to_vec()
    } else {
        let Ok(text) = std::str::from_utf8(data) else { return };
        let Ok(bytes) = pnacl_text::asm::assemble(text) else { return };
        bytes
    };
    let Ok(m) = read_parallel(&bytes, ReadOptions { defer_abi: true, ..ReadOptions::default() }) else { return };
    if !pnacl_verify::verify(&m).is_empty() {
        return;
    }
    let config = pnacl_codegen::Config::unplaced(&m, true);
    if let Err(e) = pnacl_codegen::translate(&m, &config, &[]) {
        assert!(!e.contains("Verifier") && !e.contains("verifier"), "invalid Cranelift IR: {e}");
    }
});
