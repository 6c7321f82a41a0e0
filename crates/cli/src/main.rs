//! `pnacl`: a toolkit for PNaCl (Portable Native Client) bitcode.

mod analyze;
mod asm;
mod cache;
mod check;
mod compile;
mod compress;
mod dis;
mod finalize;
mod freeze;
mod names;
mod output;
mod producer;
mod rewrite;
mod run;
mod thaw;

use clap::{Parser, Subcommand};

/// A toolkit for PNaCl bitcode: read, check, print, rewrite and run .pexe files.
#[derive(Parser, Debug)]
#[command(name = "pnacl", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Dump the blocks, abbreviations and records of any bitstream (PNaCl or LLVM).
    Analyze(analyze::Args),
    /// Read a pexe and write it back with other abbreviations.
    Rewrite(rewrite::Args),
    /// Check pexes against the PNaCl ABI (exit 0 clean, 1 violations, 2 unreadable).
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
    /// Turn a pexe into LLVM IR text for today's LLVM (pnacl-thaw).
    Thaw(thaw::Args),
    /// Translate a pexe ahead of time into an image (.pnaclo) that `run` runs.
    Compile(compile::Args),
    /// Inspect or clean the translation cache of `run`.
    Cache(cache::Args),
}

fn main() {
    let cli = Cli::parse();
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
        Command::Compress(a) => compress::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Cache(a) => cache::run(a),
    };
    std::process::exit(status);
}
