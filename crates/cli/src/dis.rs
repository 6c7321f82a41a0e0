//! `pnacl dis`: the three-column listing of pnacl-bcdis, or textual records.

use crate::output;
use pnacl_text::dis::{self, Options};
use std::path::PathBuf;

/// Output formats of `pnacl dis`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The pnacl-bcdis listing: bit address, record, PNaClAsm.
    Listing,
    /// Textual records (`.tbc`), the input of `pnacl asm --records`.
    Tbc,
}

/// Arguments of `pnacl dis`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The pexe to disassemble.
    pub file: PathBuf,
    /// The output file (default: standard output).
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    /// Print only the PNaClAsm column.
    #[arg(long, conflicts_with = "no_assembly")]
    pub no_records: bool,
    /// Print only the bit addresses and records.
    #[arg(long)]
    pub no_assembly: bool,
    /// Do not report PNaCl ABI violations (pnacl-bcdis's -ignore-pnaclabi-checks).
    #[arg(long)]
    pub ignore_abi: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Listing)]
    pub format: Format,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = args.file.display().to_string();
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pnacl dis: {name}: {e}");
            return 1;
        }
    };
    if args.format == Format::Tbc {
        let mut text = String::new();
        if let Err(e) = pnacl_text::tbc::bitcode_to_records(&bytes, &mut text) {
            eprintln!("{name}: {}", e);
            return 1;
        }
        return match output::write_file(&args.output, text.as_bytes()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("pnacl dis: {}: {e}", args.output.display());
                1
            }
        };
    }
    let options = Options { records: !args.no_records, assembly: !args.no_assembly, abi_checks: !args.ignore_abi };
    // The listing of a malformed file is still written in full: it ends with the error.
    let mut failed = false;
    let written = output::with_file(&args.output, |w| {
        failed = dis::disassemble(&bytes, &options, w)?.is_some();
        Ok(())
    });
    match written {
        Err(e) => {
            eprintln!("pnacl dis: {}: {e}", args.output.display());
            1
        }
        Ok(()) => i32::from(failed),
    }
}
