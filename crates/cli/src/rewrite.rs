//! `pnacl rewrite`: read a pexe and write it back with other abbreviations.

use crate::output;
use pnacl_bitcode::{Abbrevs, ReadOptions, read_with, write};
use std::path::PathBuf;

/// Which abbreviations the output uses.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Exactly the abbreviations (and block widths) of the input.
    Keep,
    /// The standard set pnacl-finalize writes.
    Standard,
    /// None: every record unabbreviated.
    None,
}

/// Arguments of `pnacl rewrite`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The input pexe.
    pub input: PathBuf,
    /// The output file (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Which abbreviations to write.
    #[arg(long, value_enum, default_value_t = Mode::Keep)]
    pub abbrevs: Mode,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let data = match std::fs::read(&args.input) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("pnacl rewrite: {}: {e}", args.input.display());
            return 1;
        }
    };
    // The ABI rules are the verifier's business: a rewrite preserves whatever the file holds.
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    let module = match read_with(&data, opts, &mut pnacl_bitcode::NoListener) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}: {}", args.input.display(), e.explain());
            return 1;
        }
    };
    let mode = match args.abbrevs {
        Mode::Keep => Abbrevs::Keep,
        Mode::Standard => Abbrevs::Standard,
        Mode::None => Abbrevs::None,
    };
    let bytes = match write(&module, mode) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pnacl rewrite: {}: {e}", args.input.display());
            return 1;
        }
    };
    // Check the output means the same before committing it.
    match read_with(&bytes, opts, &mut pnacl_bitcode::NoListener) {
        Ok(back) if back.same_contents(&module) => {}
        Ok(_) => {
            eprintln!("pnacl rewrite: internal error: the rewritten file reads back differently; nothing written");
            return 3;
        }
        Err(e) => {
            eprintln!("pnacl rewrite: internal error: the rewritten file does not read back: {e}; nothing written");
            return 3;
        }
    }
    if let Err(e) = output::write_file(&args.output, &bytes) {
        eprintln!("pnacl rewrite: {}: {e}", args.output.display());
        return 1;
    }
    0
}
