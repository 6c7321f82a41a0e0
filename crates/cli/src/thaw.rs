//! `pnacl thaw`: a pexe as LLVM IR text that today's LLVM reads.

use crate::input::{self, Expect};
use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::status;
use pnacl_bitcode::ReadOptions;
use pnacl_convert::thaw::{ThawOptions, thaw};
use std::path::PathBuf;

/// Arguments of `pnacl thaw`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  pnacl thaw hello.pexe -o hello.ll && llvm-as-19 hello.ll\n  \
                        pnacl thaw --typed-pointers hello.pexe -o hello.ll && llvm-as-14 hello.ll\n  \
                        pnacl thaw hello.pexe -o - | opt-19 -O2 -S")]
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
    report::finish("thaw", thaw_file(args))
}

fn thaw_file(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.input);
    let bytes = input::read(&args.input, Expect::Pexe)?;
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    let module = pnacl_bitcode::read_parallel(&bytes, options).map_err(|e| Diagnostic::read(&name, &e))?;
    let options = ThawOptions { typed_pointers: args.typed_pointers, name_module_values: args.name_all };
    let thawed = thaw(&module, &options).map_err(|e| Failure::input(&name, e))?;
    let text = pnacl_llvm::print::print(&thawed, &pnacl_llvm::print::PrintOptions::default());
    output::write(&args.output, Content::Text, text.as_bytes())?;
    Ok(status::SUCCESS)
}
