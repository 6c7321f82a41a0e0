//! `pnacl asm`: PNaClAsm (or a listing, or textual records) to bitcode.

use crate::input::{self, Expect};
use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::status;
use std::path::PathBuf;

/// Arguments of `pnacl asm`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Given a full listing, asm writes what the assembly column says; where the record column \
                        beside it says another record (an edited constant, type or operand), asm says so on \
                        standard error, with the line, and the assembly column wins.\n\n\
                        Examples:\n  pnacl asm examples/factorial.pnaclasm -o factorial.pexe\n  \
                        pnacl dis factorial.pexe | pnacl asm - -o again.pexe\n  \
                        printf '65535,8,2;\\n1,1;\\n65534;\\n' | pnacl asm --records - -o tiny.pexe")]
pub struct Args {
    /// The input: PNaClAsm text, a `pnacl dis` listing, or (with --records) textual records
    /// (`-` for standard input).
    pub file: PathBuf,
    /// The output file (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Read the textual record format (`.tbc`: one `code,value,...;` record per line) and
    /// write the records as given, without checking them.
    #[arg(long)]
    pub records: bool,
}

/// At most this many disagreements between a listing's columns are shown one by one.
const SHOWN_NOTES: usize = 10;

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("asm", asm(args))
}

fn asm(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.file);
    output::check_target(&args.output, Content::Binary)?;
    let bytes = input::read(&args.file, Expect::Text)?;
    if bytes.starts_with(b"PEXE") || bytes.starts_with(b"BC\xc0\xde") || bytes.starts_with(&[0xde, 0xc0, 0x17, 0x0b]) {
        return Err(Failure::input(&name, "this is bitcode; did you mean `pnacl dis`?"));
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| Failure::input(&name, format!("not UTF-8 text (byte {} is not)", e.utf8_error().valid_up_to())))?;
    let (bytes, notes) = if args.records {
        (pnacl_text::tbc::records_to_bitcode(&text), Vec::new())
    } else {
        match pnacl_text::asm::assemble_with_notes(&text) {
            Ok((b, notes)) => (Ok(b), notes),
            Err(e) => (Err(e), Vec::new()),
        }
    };
    let bytes = bytes.map_err(|e| Diagnostic::text(&name, &e))?;
    for note in notes.iter().take(SHOWN_NOTES) {
        report::emit("asm", &Diagnostic::text(&name, note).warning());
    }
    if notes.len() > SHOWN_NOTES {
        let more = notes.len() - SHOWN_NOTES;
        let d = Diagnostic::error(Some(&name), format!("{more} more records where the assembly column wins"));
        report::emit("asm", &d.warning());
    }
    output::write(&args.output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}
