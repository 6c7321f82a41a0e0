//! `pnacl dis`: the three-column listing of pnacl-bcdis, or textual records.

use crate::input::{self, Expect};
use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::status;
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
#[command(after_help = "The listing of a malformed pexe is still written, in full (with -o too): it shows the \
                        records up to the fault and the error itself (`Error(B:b): message`), and the exit \
                        status is 1. When the input cannot be read at all, nothing is written and an existing \
                        output file is kept.\n\n\
                        Examples:\n  pnacl dis factorial.pexe | less\n  \
                        pnacl dis factorial.pexe -o factorial.lst && pnacl asm factorial.lst -o again.pexe\n  \
                        pnacl dis --no-records factorial.pexe -o factorial.pnaclasm\n  \
                        pnacl dis --format tbc factorial.pexe -o factorial.tbc\n  \
                        gzip -dc app.pexe.gz | pnacl dis - | head")]
pub struct Args {
    /// The pexe to disassemble (`-` for standard input).
    pub file: PathBuf,
    /// The output file (default: `-`, standard output).
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
    report::finish("dis", dis(args))
}

fn dis(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.file);
    // Read first: an input that cannot be read leaves an existing output file alone.
    let bytes = input::read(&args.file, Expect::Pexe)?;
    if args.format == Format::Tbc {
        let mut text = String::new();
        // The records before a fault are still written, followed by the error.
        let error = pnacl_text::tbc::bitcode_to_records(&bytes, &mut text).err().map(|e| {
            let line = format!("Error({}): {}", e.pos, e.message);
            text.push_str(&line);
            text.push('\n');
            (1, line)
        });
        output::write(&args.output, Content::Text, text.as_bytes())?;
        return Ok(summarize(&name, error));
    }
    let options = Options { records: !args.no_records, assembly: !args.no_assembly, abi_checks: !args.ignore_abi };
    // The listing of a malformed file is still written in full, with its error lines.
    let mut errors = None;
    output::write_with(&args.output, Content::Text, |w| {
        errors = dis::disassemble(&bytes, &options, w)?.map(|e| (e.count, e.first));
        Ok(())
    })?;
    Ok(summarize(&name, errors))
}

/// One line on stderr when the output holds errors, so that a redirected listing is never
/// silently wrong; the exit status.
fn summarize(name: &str, errors: Option<(u32, String)>) -> i32 {
    match errors {
        None => status::SUCCESS,
        Some((count, first)) => {
            let s = if count == 1 { "" } else { "s" };
            report::emit("dis", &Diagnostic::error(Some(name), format!("{count} error{s}; first: {first}")));
            status::BAD_INPUT
        }
    }
}
