//! `pnacl freeze`: LLVM bitcode to a pexe, as Google's pnacl-freeze wrote it.

use crate::{output, producer};
use pnacl_convert::freeze::FreezeOptions;
use std::path::PathBuf;

/// Arguments of `pnacl freeze`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  llvm-as-14 t.ll -o t.bc && pnacl freeze t.bc -o t.pexe\n  \
                        pnacl freeze --emit-llvm t.bc -o -      (the module as read, as LLVM IR)")]
pub struct Args {
    /// The LLVM bitcode file (`-` for standard input).
    pub input: PathBuf,
    /// The pexe to write (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Also write each function's own symbol table (pnacl-freeze -allow-local-symbol-tables).
    #[arg(long)]
    pub allow_local_symbol_tables: bool,
    /// Byte-align every record and set the header flag (pnacl-freeze -align-bitcode-records).
    #[arg(long)]
    pub align_bitcode_records: bool,
    /// Write the module as read, as LLVM IR text, instead of freezing it.
    #[arg(long)]
    pub emit_llvm: bool,
    /// The PNaCl writer version whose type-table order to reproduce (default: 2015 for
    /// modules `pnacl thaw` marked so or written by LLVM 3.6 and older, else 2016).
    #[arg(long, value_enum)]
    pub writer: Option<producer::WriterArg>,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = args.input.display().to_string();
    let mut m = match producer::read_llvm(&args.input) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pnacl freeze: {name}: {e}");
            return 1;
        }
    };
    if args.emit_llvm {
        let text = pnacl_llvm::print::print(&m, &pnacl_llvm::print::PrintOptions::default());
        return match output::write_file(&args.output, text.as_bytes()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("pnacl freeze: {}: {e}", args.output.display());
                1
            }
        };
    }
    let options = FreezeOptions {
        writer: producer::writer_for(&m, args.writer),
        allow_local_symbol_tables: args.allow_local_symbol_tables,
        align_bitcode_records: args.align_bitcode_records,
    };
    let history = producer::name_history(&m);
    let bytes = match producer::freeze_bytes(&mut m, history.as_deref(), &options) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pnacl freeze: {name}: {e}");
            return 1;
        }
    };
    if let Err(e) = output::write_file(&args.output, &bytes) {
        eprintln!("pnacl freeze: {}: {e}", args.output.display());
        return 1;
    }
    0
}
