//! `pnacl rewrite`: read a pexe and write it back with other abbreviations.

use crate::input::{self, Expect};
use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::status;
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
#[command(after_help = "The rewritten pexe is read back and compared with the input before it is written \
                        (exit status 4, nothing written, if they differ).\n\n\
                        Examples:\n  pnacl rewrite --abbrevs standard app.pexe -o app.std.pexe\n  \
                        pnacl rewrite --abbrevs none app.pexe -o - | pnacl analyze -")]
pub struct Args {
    /// The input pexe (`-` for standard input).
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
    report::finish("rewrite", rewrite(args))
}

fn rewrite(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.input);
    output::check_target(&args.output, Content::Binary)?;
    let data = input::read(&args.input, Expect::Pexe)?;
    // The ABI rules are the verifier's business: a rewrite preserves whatever the file holds.
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    let module = read_with(&data, opts, &mut pnacl_bitcode::NoListener).map_err(|e| Diagnostic::read(&name, &e))?;
    let mode = match args.abbrevs {
        Mode::Keep => Abbrevs::Keep,
        Mode::Standard => Abbrevs::Standard,
        Mode::None => Abbrevs::None,
    };
    let internal = |message: String| Failure::input(&name, message).with_status(status::INTERNAL);
    let bytes = write(&module, mode).map_err(|e| internal(format!("internal error: {e}")))?;
    // Check the output means the same before committing it.
    match read_with(&bytes, opts, &mut pnacl_bitcode::NoListener) {
        Ok(back) if back.same_contents(&module) => {}
        Ok(_) => {
            return Err(internal("internal error: the rewritten file reads back differently; nothing written".into()));
        }
        Err(e) => {
            return Err(internal(format!(
                "internal error: the rewritten file does not read back: {e}; nothing written"
            )));
        }
    }
    output::write(&args.output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}
