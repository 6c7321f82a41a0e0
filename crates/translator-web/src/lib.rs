//! pnacl's translator (reader, ABI verifier, `pnacl-wasm`) as a WebAssembly module, so
//! that a page can translate its pexes itself, as Chrome's in-browser PNaCl translator
//! did. `pnacl web` ships the `wasm32-unknown-unknown` build of this crate as
//! `.pnacl/translator.wasm`; the embed polyfill (`js/web/translate.mjs`) calls it in a
//! Worker.
//!
//! The interface is plain exported functions over the module's memory, so that the
//! JavaScript side needs no generated glue:
//!
//! 1. `pnacl_input(len)` returns where to put the pexe's `len` bytes (0 if it cannot
//!    have them);
//! 2. `pnacl_translate()` translates them and returns 0 on success, 1 on a refusal;
//! 3. `pnacl_output()` and `pnacl_output_len()` give the module's bytes, or the refusal's
//!    message in UTF-8.

use std::cell::RefCell;

/// How a translation ends: the validated module, or why not.
pub type Translation = Result<Vec<u8>, String>;

/// Translates a pexe's bytes as `pnacl wasm` does (read, verify against the ABI,
/// translate, validate), with the message a refusal gets.
pub fn translate(pexe: &[u8]) -> Translation {
    if !pexe.starts_with(b"PEXE") {
        return Err("not a pexe (no PEXE magic)".into());
    }
    let options = pnacl_bitcode::ReadOptions { defer_abi: true, no_layout: true, ..Default::default() };
    let module = pnacl_bitcode::read_parallel(pexe, options).map_err(|e| e.to_string())?;
    let violations = pnacl_verify::verify(&module);
    if let Some(first) = violations.first() {
        return Err(format!("not ABI-clean ({} violations; the first: {})", violations.len(), first.describe(&module)));
    }
    let out = pnacl_wasm::translate(&module, &pnacl_wasm::Options::default()).map_err(|e| e.to_string())?;
    pnacl_wasm::validate(&out).map_err(|e| format!("internal error: the module does not validate: {e}"))?;
    Ok(out.wasm)
}

thread_local! {
    /// The pexe handed in.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last result: the module, or the refusal's message.
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes room for a pexe of `len` bytes and returns where to write it (0 if the memory
/// cannot grow that far). The room is sized by the bytes the caller holds, not by
/// anything the pexe declares.
#[unsafe(no_mangle)]
pub extern "C" fn pnacl_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        OUTPUT.with_borrow_mut(|o| *o = Vec::new());
        if input.try_reserve_exact(len).is_err() {
            return std::ptr::null_mut();
        }
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Translates the pexe given to [`pnacl_input`]: 0 on success, 1 on a refusal (the
/// output then holds its message).
#[unsafe(no_mangle)]
pub extern "C" fn pnacl_translate() -> u32 {
    let pexe = INPUT.with_borrow_mut(std::mem::take);
    let (status, bytes) = match translate(&pexe) {
        Ok(wasm) => (0, wasm),
        Err(message) => (1, message.into_bytes()),
    };
    OUTPUT.with_borrow_mut(|o| *o = bytes);
    status
}

/// Where the last result's bytes are.
#[unsafe(no_mangle)]
pub extern "C" fn pnacl_output() -> *const u8 {
    OUTPUT.with_borrow(|o| o.as_ptr())
}

/// How many bytes the last result has.
#[unsafe(no_mangle)]
pub extern "C" fn pnacl_output_len() -> usize {
    OUTPUT.with_borrow(|o| o.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_not_a_pexe_is_refused() {
        assert_eq!(translate(b"BC\xc0\xde").unwrap_err(), "not a pexe (no PEXE magic)");
        assert!(translate(b"PEXE\x01\x00").unwrap_err().starts_with("Error("));
    }

    #[test]
    fn the_exported_calls_carry_a_refusal() {
        let p = pnacl_input(3);
        assert!(!p.is_null());
        // SAFETY: pnacl_input gave room for 3 bytes.
        unsafe { std::ptr::copy_nonoverlapping(b"abc".as_ptr(), p, 3) };
        assert_eq!(pnacl_translate(), 1);
        // SAFETY: pnacl_output points at pnacl_output_len bytes.
        let message = unsafe { std::slice::from_raw_parts(pnacl_output(), pnacl_output_len()) };
        assert_eq!(message, b"not a pexe (no PEXE magic)");
    }
}
