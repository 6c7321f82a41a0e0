//! The LLVM bitcode reader on arbitrary bytes: it must return a module or an error, never
//! panic, hang or allocate by an unchecked count. A module it accepts must also print as
//! LLVM IR text without panicking (`pnacl freeze --emit-llvm`).
//!
//! Seeds: `fuzz/seed-llvm` writes LLVM bitcode (the corpus's `.bc` files, small `.ll`
//! assembled by LLVM 14 and 19, and thawed corpus pexes) into `fuzz/corpus/llvm_read`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = pnacl_llvm::read(data) else { return };
    let _ = pnacl_llvm::print::print(&m, &pnacl_llvm::print::PrintOptions::default());
});
