//! `freeze` on every module the LLVM bitcode reader accepts from arbitrary bytes, as
//! `pnacl freeze` runs it (intrinsics respelled, the name history of the file, the writer
//! version the module shows, the standard abbreviations), with the default options and with
//! `--align-bitcode-records`. Freeze may refuse a module; it must not panic, and the pexe
//! it makes must be accepted by the PNaCl reader (ABI rules deferred: freeze writes IR that
//! breaks the ABI, as pnacl-freeze did), or with aligned records, which that reader refuses
//! by its header, be listed by the disassembler without an error. Except when the module has
//! no function, not even a declaration: the one rule of the format that freeze, like
//! pnacl-freeze, leaves to its input.
//!
//! Seeds: as for `llvm_read` (`fuzz/seed-llvm freeze`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitcode::{Abbrevs, NoListener, ReadOptions, read_with, write};
use pnacl_convert::freeze::{FreezeOptions, NameHistory, Writer, freeze, name_history, respell_intrinsics};
use pnacl_text::dis;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = pnacl_llvm::read(data) else { return };
    // What `pnacl freeze` does (crates/cli/src/producer.rs), without the files.
    let history = name_history(&read);
    let writer = Writer::for_module(&read);
    for align_bitcode_records in [false, true] {
        let mut m = read.clone();
        respell_intrinsics(&mut m);
        let options = FreezeOptions { writer, allow_local_symbol_tables: false, align_bitcode_records };
        let Ok(pm) = freeze(&m, NameHistory::of(history.as_deref()), &options) else { return };
        let bytes = write(&pm, Abbrevs::Standard).expect("a frozen module can be written");
        if m.functions.is_empty() {
            // PNaCl bitcode needs a function before the globals block; pnacl-freeze wrote
            // such modules anyway, and so does freeze (`pnacl finalize` refuses them after).
            continue;
        }
        if align_bitcode_records {
            // The PNaCl reader refuses the align flag, as the browser's did ("Unsupported:
            // Align bitcode records"); the disassembler reads aligned records, as
            // pnacl-bcdis did, with the same checks of every record.
            let options = dis::Options { abi_checks: false, ..dis::Options::default() };
            let mut listing = Vec::new();
            let errors = dis::disassemble(&bytes, &options, &mut listing).expect("in-memory output");
            assert!(errors.is_none(), "the aligned pexe freeze made does not disassemble: {errors:?}");
        } else {
            let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
            if let Err(e) = read_with(&bytes, opts, &mut NoListener) {
                panic!("the pexe freeze made does not read back: {e}");
            }
        }
    }
});
