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
mod ar;
mod archive;
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
mod input;
mod libc;
mod names;
mod output;
mod polyfill;
mod producer;
mod report;
mod rewrite;
mod run;
mod serve;
mod signals;
mod simplify;
mod sniff;
mod status;
mod thaw;
mod trust;
mod wasm;
mod web;

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
    /// Write diagnostics as JSON objects, one per line on standard error (each subcommand's
    /// help says what else it changes there).
    #[arg(long, global = true)]
    json: bool,
    /// Refuse inputs larger than this (bytes, or with K, M or G; default 1G). Bitcode is
    /// refused above 4G whatever this says.
    #[arg(long, value_name = "SIZE", global = true, value_parser = input::parse_size)]
    max_input: Option<u64>,
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
    /// Compile C to a pexe: clang for le32, pnacl's C library, simplify, finalize (or, with
    /// -c, to a bitcode object; objects and archives link as cc links them).
    Cc(cc::Args),
    /// Make, list and extract archives of bitcode objects (`pnacl ar rcs libx.a a.o b.o`),
    /// which `pnacl cc -lx` links from.
    Ar(ar::Args),
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
    /// Run an old NaCl web site's browser (PPAPI) pexes again: serve it, or write it as a
    /// static site, with pnacl's embed polyfill and the pexes translated to WebAssembly.
    Web(web::Args),
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

/// Prints what clap has to say (help, the version, or a usage error) and returns the exit
/// status: clap's own, or 1 if help or the version cannot be written to standard output
/// (clap's `exit` would report success).
fn clap_exit(e: &clap::Error) -> i32 {
    use std::io::Write;
    let printed = e.print().and_then(|()| std::io::stdout().flush());
    match printed {
        Err(io) if !e.use_stderr() => {
            let failure = report::Failure::input("<stdout>", io);
            report::emit("", &failure.diagnostic);
            status::BAD_INPUT
        }
        _ => e.exit_code(),
    }
}

/// What `--json` does for each subcommand, for its help.
fn json_help(subcommand: &str) -> &'static str {
    match subcommand {
        "check" => {
            "Write the report as one JSON array on standard output (as --format json: each violation with its \
             rule, file, function, block, instruction and bit position), and a file that cannot be read as a \
             JSON object on standard error"
        }
        "dis" => {
            "Write diagnostics as JSON objects, one per line on standard error (an unreadable file; the count \
             and first of the errors a listing holds); the listing itself stays text"
        }
        "asm" => {
            "Write diagnostics as JSON objects, one per line on standard error, with the line, column and \
             source line of a position in the text (errors, and the warnings of a record column the assembly \
             column overrides)"
        }
        "analyze" => {
            "Write diagnostics as JSON objects, one per line on standard error (a file that is not a \
             bitstream); the dump itself stays text"
        }
        "run" => {
            "Write pnacl's own diagnostics as JSON objects, one per line on standard error (a pexe that cannot \
             be loaded or is not ABI-clean: each violation with its rule); the guest's output, trap messages \
             and --stats stay text"
        }
        "cc" => {
            "Write pnacl's diagnostics as JSON objects, one per line on standard error (each undefined symbol \
             with the files that use it, a construct no pass can bring into the ABI, each ABI violation of the \
             pexe with its rule); clang's own messages stay clang's"
        }
        "simplify" => {
            "Write diagnostics as JSON objects, one per line on standard error (what the passes or the writer \
             refuse; each ABI violation of the pexe with its rule); --print-after and --emit-llvm output stays \
             text"
        }
        "finalize" => {
            "Write diagnostics as JSON objects, one per line on standard error (what the writer refuses; each \
             ABI violation of the pexe with its rule)"
        }
        "freeze" => {
            "Write diagnostics as JSON objects, one per line on standard error (what the writer refuses, with \
             the function and the instruction); --emit-llvm output stays text"
        }
        "compress" => "Write diagnostics as JSON objects, one per line on standard error; the --stats table stays text",
        "cache" => "Write diagnostics as JSON objects, one per line on standard error; `info` stays text",
        _ => {
            "Write diagnostics as JSON objects, one per line on standard error (`command`, `severity`, `file`, \
             `message`, and `rule`, `bit` and `position` when known)"
        }
    }
}

/// The command line, with each subcommand's own help for `--json`: an option of the same id
/// defined on a subcommand takes the place of the global one there (and sets the same flag).
fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let names: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for name in names {
        cmd = cmd.mut_subcommand(&name, |sc| {
            sc.arg(
                clap::Arg::new("json")
                    .long("json")
                    .global(true)
                    .action(clap::ArgAction::SetTrue)
                    .help(json_help(&name)),
            )
        });
    }
    cmd
}

fn main() {
    signals::default_sigpipe();
    let color = match color_choice() {
        ColorChoice::Auto => clap::ColorChoice::Auto,
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
    };
    let matches = match command().color(color).try_get_matches() {
        Ok(m) => m,
        Err(e) => std::process::exit(clap_exit(&e)),
    };
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| std::process::exit(clap_exit(&e)));
    report::init(cli.color, cli.json);
    input::init(cli.max_input);
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
        Command::Ar(a) => ar::run(a),
        Command::Compress(a) => compress::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Cache(a) => cache::run(a),
        Command::Wasm(a) => wasm::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Web(a) => web::run(a),
    };
    std::process::exit(status);
}
