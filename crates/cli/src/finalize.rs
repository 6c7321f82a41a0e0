//! `pnacl finalize`: what `pnacl-finalize` did to the SDK's LLVM bitcode: strip names,
//! metadata and debug information, freeze, and check the result against the ABI.

use crate::{output, producer};
use pnacl_convert::freeze::FreezeOptions;
use std::path::PathBuf;

/// Arguments of `pnacl finalize`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  pnacl finalize part2_unstripped.bc -o part2.pexe\n  \
                        pnacl finalize --no-verify experiment.bc -o experiment.pexe")]
pub struct Args {
    /// The LLVM bitcode file, already ABI-simplified (an SDK `*_unstripped.bc`, or the
    /// output of `pnacl simplify --emit-bitcode`).
    pub input: PathBuf,
    /// The pexe to write (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Write the pexe even if it breaks the PNaCl ABI.
    #[arg(long)]
    pub no_verify: bool,
    /// The PNaCl writer version whose type-table order to reproduce (default: 2015 for
    /// bitcode written by LLVM 3.6 and older, else 2016).
    #[arg(long, value_enum)]
    pub writer: Option<producer::WriterArg>,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = args.input.display().to_string();
    let mut m = match producer::read_llvm(&args.input) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pnacl finalize: {name}: {e}");
            return 1;
        }
    };
    let history = producer::name_history(&m);
    let options = FreezeOptions { writer: producer::writer_for(&m, args.writer), ..FreezeOptions::default() };
    pnacl_passes::strip::strip(&mut m);
    let bytes = match producer::freeze_bytes(&mut m, history.as_deref(), &options) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pnacl finalize: {name}: {e}");
            return 1;
        }
    };
    if !args.no_verify {
        match producer::check_bytes(&bytes, &name) {
            Ok(v) if v.is_empty() => {}
            Ok(v) => {
                for line in &v {
                    eprintln!("{line}");
                }
                eprintln!(
                    "pnacl finalize: {name}: the pexe would break the PNaCl ABI ({} violations); nothing written \
                     (--no-verify writes it anyway)",
                    v.len()
                );
                return 1;
            }
            Err(e) => {
                eprintln!("pnacl finalize: {name}: {e}");
                return 1;
            }
        }
    }
    if let Err(e) = output::write_file(&args.output, &bytes) {
        eprintln!("pnacl finalize: {}: {e}", args.output.display());
        return 1;
    }
    0
}
