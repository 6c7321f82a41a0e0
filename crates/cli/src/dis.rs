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
        // The records before a fault are still written, followed by the error.
        let error = pnacl_text::tbc::bitcode_to_records(&bytes, &mut text).err().map(|e| {
            let line = format!("Error({}): {}", e.pos, e.message);
            text.push_str(&line);
            text.push('\n');
            (1, line)
        });
        if let Err(e) = output::write_file(&args.output, text.as_bytes()) {
            eprintln!("pnacl dis: {}: {e}", args.output.display());
            return 1;
        }
        return summarize(&name, error);
    }
    let options = Options { records: !args.no_records, assembly: !args.no_assembly, abi_checks: !args.ignore_abi };
    // The listing of a malformed file is still written in full, with its error lines.
    let mut errors = None;
    let written = output::with_file(&args.output, |w| {
        errors = dis::disassemble(&bytes, &options, w)?.map(|e| (e.count, e.first));
        Ok(())
    });
    match written {
        Err(e) => {
            eprintln!("pnacl dis: {}: {e}", args.output.display());
            1
        }
        Ok(()) => summarize(&name, errors),
    }
}

/// One line on stderr when the output holds errors, so that a redirected listing is never
/// silently wrong; the exit status.
fn summarize(name: &str, errors: Option<(u32, String)>) -> i32 {
    match errors {
        None => 0,
        Some((count, first)) => {
            let s = if count == 1 { "" } else { "s" };
            eprintln!("pnacl dis: {name}: {count} error{s}; first: {first}");
            1
        }
    }
}
