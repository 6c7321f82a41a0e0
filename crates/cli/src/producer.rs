//! What `freeze`, `finalize`, `simplify` and `cc` share: reading LLVM bitcode, turning a
//! module into a pexe, and checking the result.

use pnacl_bitcode::{Abbrevs, ReadOptions};
use pnacl_convert::freeze::{FreezeOptions, NameHistory, Writer, freeze, respell_intrinsics};
use pnacl_llvm::Module;
use std::path::Path;

/// Reads an LLVM bitcode file (`-` for standard input).
pub fn read_llvm(path: &Path) -> Result<Module, String> {
    let bytes = crate::output::read_input(path).map_err(|e| e.to_string())?;
    if bytes.starts_with(b"PEXE") {
        return Err("this is a pexe (PNaCl bitcode), not LLVM bitcode; `pnacl thaw` turns a pexe into LLVM IR".into());
    }
    pnacl_llvm::read(&bytes).map_err(|e| e.to_string())
}

/// The names of `m`'s globals in the order LLVM's reader entered them, taken before any pass
/// renames or strips them.
pub fn name_history(m: &Module) -> Option<Vec<String>> {
    (!m.names_from_string_table).then(|| m.name_order.iter().map(|&r| m.props(r).name.clone()).collect())
}

/// Which writer version to reproduce, as the command line asks (or from the module).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriterArg {
    /// The writer of the LLVM 3.6-based SDKs (2015 and earlier).
    #[value(name = "2015")]
    V2015,
    /// The last writer (2016), whose tests are Google's freeze goldens.
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
    let h = match history {
        Some(h) => NameHistory::Read(h),
        None => NameHistory::Assembled,
    };
    let pm = freeze(m, h, options).map_err(|e| e.to_string())?;
    pnacl_bitcode::write(&pm, Abbrevs::Standard).map_err(|e| format!("internal error: {e}"))
}

/// ABI violations of a pexe, one line each (empty when it is clean).
pub fn check_bytes(bytes: &[u8], name: &str) -> Result<Vec<String>, String> {
    let options = ReadOptions { defer_abi: true, no_layout: true, positions: true, ..ReadOptions::default() };
    let module = pnacl_bitcode::read_parallel(bytes, options)
        .map_err(|e| format!("internal error: the pexe does not read back: {e}"))?;
    Ok(pnacl_verify::verify(&module).iter().map(|d| format!("{name}: {} [{}]", d.describe(&module), d.rule)).collect())
}
