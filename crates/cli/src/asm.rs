//! `pnacl asm`: PNaClAsm (or a listing, or textual records) to bitcode.

use crate::output;
use std::path::PathBuf;

/// Arguments of `pnacl asm`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The input: PNaClAsm text, a `pnacl dis` listing, or (with --records) textual records.
    pub file: PathBuf,
    /// The output file (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Read the textual record format (`.tbc`: one `code,value,...;` record per line) and
    /// write the records as given, without checking them.
    #[arg(long)]
    pub records: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = args.file.display().to_string();
    let text = match std::fs::read(&args.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{name}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to());
                return 1;
            }
        },
        Err(e) => {
            eprintln!("pnacl asm: {name}: {e}");
            return 1;
        }
    };
    let result =
        if args.records { pnacl_text::tbc::records_to_bitcode(&text) } else { pnacl_text::asm::assemble(&text) };
    let bytes = match result {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}", e.render(&name));
            return 1;
        }
    };
    if let Err(e) = output::write_file(&args.output, &bytes) {
        eprintln!("pnacl asm: {}: {e}", args.output.display());
        return 1;
    }
    0
}
