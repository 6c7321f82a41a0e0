//! The WebAssembly translator on arbitrary modules: pexe bytes, or PNaClAsm text
//! (assembled first). Whatever the reader accepts and the ABI verifier finds clean either
//! translates to a module that validates (with exactly the features it declares) or is
//! refused with a message; never a panic.
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
    match pnacl_wasm::translate(&m, &pnacl_wasm::Options::default()) {
        Ok(out) => {
            if let Err(e) = pnacl_wasm::validate(&out) {
                panic!("the translation does not validate: {e}");
            }
        }
        Err(e) => assert!(!e.to_string().is_empty(), "a refusal without a message"),
    }
});
