//! What `freeze`, `finalize`, `simplify` and `cc` share: reading LLVM bitcode, turning a
//! module into a pexe, and checking the result.

use crate::report::{self, Diagnostic, Failure};
use pnacl_bitcode::{Abbrevs, ReadOptions};
use pnacl_convert::freeze::{FreezeOptions, NameHistory, Writer, freeze, respell_intrinsics};
use pnacl_llvm::Module;
use std::path::Path;

/// Reads an LLVM bitcode file (`-` for standard input).
pub fn read_llvm(path: &Path) -> Result<Module, Failure> {
    let name = crate::output::input_name(path);
    let bytes = crate::input::read(path, crate::input::Expect::Bitcode)?;
    if bytes.starts_with(b"PEXE") {
        return Err(Failure::input(
            &name,
            "this is a pexe (PNaCl bitcode), not LLVM bitcode; `pnacl thaw` turns a pexe into LLVM IR",
        ));
    }
    pnacl_llvm::read(&bytes).map_err(|e| Failure::input(&name, e))
}

/// Which writer version to reproduce, as the command line asks (or from the module).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriterArg {
    /// The SDKs' writer (2015 and earlier; Pepper 49's too): elided casts count nothing.
    #[value(name = "2015")]
    V2015,
    /// The last writer (2016), whose tests are Google's freeze goldens: elided casts count
    /// the type of the value they stand for.
    #[value(name = "2016")]
    V2016,
}

/// The writer version for `m`: the one asked for, else the one the module shows.
pub fn writer_for(m: &Module, asked: Option<WriterArg>) -> Writer {
    match asked {
        Some(WriterArg::V2015) => Writer::Pnacl2015,
        Some(WriterArg::V2016) => Writer::Pnacl2016,
        None => Writer::for_module(m),
    }
}

/// Freezes `m` into pexe bytes with the standard abbreviations.
pub fn freeze_bytes(m: &mut Module, history: Option<&[String]>, options: &FreezeOptions) -> Result<Vec<u8>, String> {
    respell_intrinsics(m);
    let pm = freeze(m, NameHistory::of(history), options).map_err(|e| e.to_string())?;
    pnacl_bitcode::write(&pm, Abbrevs::Standard).map_err(|e| format!("internal error: {e}"))
}

/// Rewrites the pexe `bytes` made from `name` with abbreviations searched for it, as
/// `pnacl compress` does (`--compress` of `finalize`, `simplify` and `cc`). The compressor
/// reads its output back and compares it with its input before returning it.
pub fn compress_bytes(bytes: &[u8], name: &str) -> Result<Vec<u8>, Failure> {
    let options = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    let module = pnacl_bitcode::read_with(bytes, options, &mut pnacl_bitcode::NoListener)
        .map_err(|e| Failure::input(name, format!("internal error: the pexe made does not read back: {e}")))?;
    pnacl_compress::compress(&module, pnacl_compress::Effort::Default)
        .map(|c| c.bytes)
        .map_err(|e| Failure::input(name, format!("{e}; nothing written")).with_status(crate::status::INTERNAL))
}

/// Checks the pexe `bytes` made from `name` before it is written: fails with
/// [`crate::status::VIOLATIONS`] after reporting each ABI violation (with its position in
/// the pexe), and with the same status if the PNaCl reader refuses it: a rule of the format
/// the input breaks (a module without functions, say), which freeze does not check.
pub fn check_bytes(command: &str, bytes: &[u8], name: &str) -> Result<(), Failure> {
    let options = ReadOptions { defer_abi: true, no_layout: true, positions: true, ..ReadOptions::default() };
    let module = pnacl_bitcode::read_parallel(bytes, options).map_err(|e| {
        Failure::input(name, format!("the pexe would break a rule of PNaCl bitcode: {e}; nothing written"))
            .with_status(crate::status::VIOLATIONS)
    })?;
    let violations = pnacl_verify::verify(&module);
    if violations.is_empty() {
        return Ok(());
    }
    for v in &violations {
        let mut d = Diagnostic::error(Some(name), v.describe(&module));
        d.rule = Some(v.rule.id().to_string());
        if let Some(pos) = v.pos {
            d.notes.push(format!("record at bit {pos} of the pexe made"));
        }
        report::emit(command, &d);
    }
    let message = format!(
        "the pexe would break the PNaCl ABI ({} violations); nothing written (--no-verify writes it anyway)",
        violations.len()
    );
    Err(Failure::input(name, message).with_status(crate::status::VIOLATIONS))
}
