//! `pnacl`: a toolkit for PNaCl (Portable Native Client) bitcode.
//!
//! Every subcommand follows the conventions of [`output`] (`-` for standard input and
//! output, atomic output files, no binary output on a terminal), [`report`] (one format
//! for diagnostics, `--json`, `--color`), [`status`] (exit statuses) and [`signals`]
//! (quiet end on a closed pipe, no temporary file left on Ctrl-C).
//!
//! A subcommand is one file: its `Args` (clap; `after_help` ends with `Examples:`), and
//! `pub fn run(args: &Args) -> i32 { report::finish("NAME", body(args)) }`, whose body
//! returns `Result<i32, Failure>`: it reads with [`output::read`] (`-` is standard input),
//! calls [`output::check_target`] before costly work when it writes binary output, writes
//! with [`output::write`] or [`output::write_with`], fails with [`report::Failure::input`],
//! [`report::Diagnostic::read`], [`report::Diagnostic::text`] and friends (with
//! `.with_status(status::...)` when the status is not [`status::BAD_INPUT`]), and reports
//! warnings with `report::emit("NAME", &diagnostic.warning())`.

mod analyze;
mod asm;
mod cache;
mod cc;
mod check;
mod compile;
mod compress;
mod dis;
mod finalize;
mod freeze;
mod http;
mod libc;
mod names;
mod output;
mod producer;
mod report;
mod rewrite;
mod run;
mod serve;
mod signals;
mod simplify;
mod status;
mod thaw;
mod wasm;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use report::ColorChoice;

/// What `pnacl --help` ends with: the conventions every subcommand follows.
const CONVENTIONS: &str = "\
Conventions of every subcommand:
  -  for a file is standard input (inputs) or standard output (outputs); binary output is
     not written to a terminal. Output files appear whole or not at all.
  Diagnostics go to standard error as `pnacl SUBCOMMAND: FILE: message`, with
  `Error(BYTE:BIT)` for a position in bitcode, or `FILE:LINE:COL` and a caret for text;
  --json writes them as JSON objects, one per line.

Exit statuses:
  0    success
  1    bad input: unreadable, malformed or not assembling; or an output that cannot be written
  2    usage error
  3    check violations: the input breaks the PNaCl ABI (check; finalize, simplify, cc and
       compile refuse such a pexe)
  4    internal error (a rewritten pexe reads back differently)
  141  standard output is a closed pipe (the process ends by SIGPIPE, quietly)
  run: the guest's own status; 125 the pexe cannot be loaded; 126 unsupported (a browser
  (PPAPI) pexe); 134 the guest trapped.

Examples:
  pnacl asm examples/factorial.pnaclasm -o factorial.pexe
  pnacl run factorial.pexe a b c; echo $?
  pnacl dis factorial.pexe | less
  pnacl help dis";

/// A toolkit for PNaCl bitcode: read, check, print, rewrite and run .pexe files.
#[derive(Parser, Debug)]
#[command(name = "pnacl", version, propagate_version = true, after_help = CONVENTIONS)]
struct Cli {
    /// When to colour diagnostics.
    #[arg(long, value_enum, value_name = "WHEN", global = true, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Write diagnostics as JSON objects, one per line on standard error (`check` writes its
    /// report as JSON on standard output).
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Dump the blocks, abbreviations and records of any bitstream (PNaCl or LLVM).
    Analyze(analyze::Args),
    /// Read a pexe and write it back with other abbreviations.
    Rewrite(rewrite::Args),
    /// Check pexes against the PNaCl ABI (exit 0 clean, 3 violations, 1 unreadable).
    Check(check::Args),
    /// Disassemble a pexe into the three-column listing of pnacl-bcdis.
    Dis(dis::Args),
    /// Assemble PNaClAsm (or a listing, or textual records) into a pexe.
    Asm(asm::Args),
    /// Rewrite a pexe with abbreviations searched for it: smaller, same IR.
    Compress(compress::Args),
    /// Translate a command-line pexe to native code and run it in a sandbox.
    Run(run::Args),
    /// Write LLVM bitcode as a pexe, exactly as Google's pnacl-freeze did (no passes).
    Freeze(freeze::Args),
    /// Strip and freeze ABI-simplified LLVM bitcode into a checked pexe (pnacl-finalize).
    Finalize(finalize::Args),
    /// Compile C to a pexe: clang for le32, pnacl's C library, simplify, finalize.
    Cc(cc::Args),
    /// Link LLVM bitcode, run PNaCl's ABI simplification passes and finalize into a pexe.
    Simplify(simplify::Args),
    /// Turn a pexe into LLVM IR text for today's LLVM (pnacl-thaw).
    Thaw(thaw::Args),
    /// Translate a pexe ahead of time into an image (.pnaclo) that `run` runs.
    Compile(compile::Args),
    /// Inspect or clean the translation cache of `run`.
    Cache(cache::Args),
    /// Translate a pexe to WebAssembly, with a JavaScript host that runs it under Node
    /// (and, with --html, in a web page).
    Wasm(wasm::Args),
    /// Serve a directory on 127.0.0.1 with the headers that let its pages use threads.
    Serve(serve::Args),
}

/// The `--color` choice on the command line, read before clap parses it so that clap's own
/// messages follow it too.
fn color_choice() -> ColorChoice {
    let mut args = std::env::args_os().skip(1);
    let mut choice = ColorChoice::Auto;
    while let Some(a) = args.next() {
        let value = match a.to_str() {
            Some("--") => break,
            Some("--color") => args.next(),
            Some(s) => match s.strip_prefix("--color=") {
                Some(v) => Some(v.into()),
                None => continue,
            },
            None => continue,
        };
        if let Some(c) = value.and_then(|v| clap::ValueEnum::from_str(&v.to_string_lossy(), false).ok()) {
            choice = c;
        }
    }
    choice
}

fn main() {
    signals::default_sigpipe();
    let color = match color_choice() {
        ColorChoice::Auto => clap::ColorChoice::Auto,
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
    };
    let matches = Cli::command().color(color).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    report::init(cli.color, cli.json);
    let status = match &cli.command {
        Command::Analyze(a) => analyze::run(a),
        Command::Rewrite(a) => rewrite::run(a),
        Command::Asm(a) => asm::run(a),
        Command::Dis(a) => dis::run(a),
        Command::Check(a) => check::run(a),
        Command::Run(a) => run::run(a),
        Command::Freeze(a) => freeze::run(a),
        Command::Finalize(a) => finalize::run(a),
        Command::Thaw(a) => thaw::run(a),
        Command::Simplify(a) => simplify::run(a),
        Command::Cc(a) => cc::run(a),
        Command::Compress(a) => compress::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Cache(a) => cache::run(a),
        Command::Wasm(a) => wasm::run(a),
        Command::Serve(a) => serve::run(a),
    };
    std::process::exit(status);
}
