//! `pnacl thaw`: a pexe as LLVM IR text that today's LLVM reads.

use crate::output;
use pnacl_bitcode::ReadOptions;
use pnacl_convert::thaw::{ThawOptions, thaw};
use std::path::PathBuf;

/// Arguments of `pnacl thaw`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  pnacl thaw hello.pexe -o hello.ll && llvm-as-19 hello.ll\n  \
                        pnacl thaw --typed-pointers hello.pexe -o hello.ll && llvm-as-14 hello.ll")]
pub struct Args {
    /// The pexe (`-` for standard input).
    pub input: PathBuf,
    /// The LLVM IR text to write (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Typed pointers (`i32*`), the syntax of LLVM 14 and older; the default is opaque
    /// pointers (`ptr`), LLVM 15 and newer.
    #[arg(long)]
    pub typed_pointers: bool,
    /// Name unnamed functions and globals after their pexe numbers (`@f3`, `@g2`); a pexe
    /// frozen from the result then carries those names.
    #[arg(long)]
    pub name_all: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = args.input.display().to_string();
    let bytes = match output::read_input(&args.input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pnacl thaw: {name}: {e}");
            return 1;
        }
    };
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    let module = match pnacl_bitcode::read_parallel(&bytes, options) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pnacl thaw: {name}: {e}");
            return 1;
        }
    };
    let thawed =
        match thaw(&module, &ThawOptions { typed_pointers: args.typed_pointers, name_module_values: args.name_all }) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("pnacl thaw: {name}: {e}");
                return 1;
            }
        };
    let text = pnacl_llvm::print::print(&thawed, &pnacl_llvm::print::PrintOptions::default());
    match output::write_file(&args.output, text.as_bytes()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pnacl thaw: {}: {e}", args.output.display());
            1
        }
    }
}
