//! `pnacl finalize`: what `pnacl-finalize` did to the SDK's LLVM bitcode: strip names,
//! metadata and debug information, freeze, and check the result against the ABI.

use crate::output::{self, Content};
use crate::report::{self, Failure};
use crate::{producer, status};
use pnacl_convert::freeze::FreezeOptions;
use std::path::PathBuf;

/// Arguments of `pnacl finalize`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Exit status 3 when the pexe would break the PNaCl ABI (each violation is reported, nothing \
                        is written).\n\n\
                        Examples:\n  pnacl finalize part2_unstripped.bc -o part2.pexe\n  \
                        pnacl simplify prog.bc --emit-llvm -o prog.ll && llvm-as-19 prog.ll -o prog.simple.bc && \
                        pnacl finalize prog.simple.bc -o prog.pexe\n  \
                        pnacl finalize --no-verify experiment.bc -o experiment.pexe\n  \
                        pnacl finalize --compress part2_unstripped.bc -o part2.pexe")]
pub struct Args {
    /// The LLVM bitcode file, already ABI-simplified: an SDK `*_unstripped.bc`, or what
    /// `pnacl simplify --emit-llvm` (or `pnacl cc --emit-llvm`) wrote, assembled by
    /// `llvm-as-19` (`-` for standard input).
    pub input: PathBuf,
    /// The pexe to write (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Write the pexe even if it breaks the PNaCl ABI.
    #[arg(long)]
    pub no_verify: bool,
    /// Compress the pexe (as `pnacl compress` does) after checking it.
    #[arg(long)]
    pub compress: bool,
    /// Keep the names of functions and global variables in the pexe's symbol table
    /// (`pnacl-finalize --no-strip-syms`), so that `pnacl run` names functions in traps.
    #[arg(long, visible_alias = "no-strip-syms")]
    pub keep_names: bool,
    /// The PNaCl writer version whose type-table order to reproduce (default: 2015, the
    /// SDKs' writer, for modules `pnacl thaw` marked so and for bitcode of PNaCl's own LLVM,
    /// 3.7 or older (no identification block); 2016, the last pnacl-freeze, for bitcode of
    /// LLVM 3.8 and newer).
    #[arg(long, value_enum)]
    pub writer: Option<producer::WriterArg>,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("finalize", finalize(args))
}

fn finalize(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.input);
    output::check_target(&args.output, Content::Binary)?;
    let mut m = producer::read_llvm(&args.input)?;
    let history = pnacl_convert::freeze::name_history(&m);
    let options = FreezeOptions { writer: producer::writer_for(&m, args.writer), ..FreezeOptions::default() };
    if args.keep_names {
        pnacl_passes::strip::strip_keeping_names(&mut m);
    } else {
        pnacl_passes::strip::strip(&mut m);
    }
    let bytes = producer::freeze_bytes(&mut m, history.as_deref(), &options).map_err(|e| Failure::input(&name, e))?;
    if !args.no_verify {
        producer::check_bytes("finalize", &bytes, &name)?;
    }
    let bytes = if args.compress { producer::compress_bytes(&bytes, &name)? } else { bytes };
    output::write(&args.output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}
