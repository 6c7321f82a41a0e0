//! `pnacl freeze`: LLVM bitcode to a pexe, as Google's pnacl-freeze wrote it.

use crate::output::{self, Content};
use crate::report::{self, Failure};
use crate::{producer, status};
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
    /// The PNaCl writer version whose type-table order to reproduce (default: 2015, the
    /// SDKs' writer, for modules `pnacl thaw` marked so and for bitcode of PNaCl's own LLVM,
    /// 3.7 or older (no identification block); 2016, the last pnacl-freeze, for bitcode of
    /// LLVM 3.8 and newer).
    #[arg(long, value_enum)]
    pub writer: Option<producer::WriterArg>,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("freeze", freeze(args))
}

fn freeze(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.input);
    if args.emit_llvm {
        let m = producer::read_llvm(&args.input)?;
        let text = pnacl_llvm::print::print(&m, &pnacl_llvm::print::PrintOptions::default());
        output::write(&args.output, Content::Text, text.as_bytes())?;
        return Ok(status::SUCCESS);
    }
    output::check_target(&args.output, Content::Binary)?;
    let mut m = producer::read_llvm(&args.input)?;
    let options = FreezeOptions {
        writer: producer::writer_for(&m, args.writer),
        allow_local_symbol_tables: args.allow_local_symbol_tables,
        align_bitcode_records: args.align_bitcode_records,
    };
    let history = pnacl_convert::freeze::name_history(&m);
    let bytes = producer::freeze_bytes(&mut m, history.as_deref(), &options).map_err(|e| Failure::input(&name, e))?;
    output::write(&args.output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}
