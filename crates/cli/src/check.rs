//! `pnacl check`: the PNaCl ABI verifier.

use crate::input::{self, Expect};
use crate::report::{self, Diagnostic as Report};
use crate::{output, status};
use pnacl_bitcode::{Module, ReadError, ReadOptions, read_parallel};
use pnacl_verify::{Diagnostic, Location};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Output formats of `pnacl check`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per violation: `FILE: function NAME (@fN): block %bK: instruction %vJ: message`.
    Text,
    /// A JSON array of diagnostics (as `--json`).
    Json,
}

/// Arguments of `pnacl check`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The report goes to standard output, one line per violation with its rule id; a warning \
                        (a call written as an indirect call because its argument count differs, \
                        abi.call-argument-count) also gives its record's bit position. A file that cannot be \
                        read is reported on standard error.\n\n\
                        Exit status: 0 clean (warnings allowed), 3 ABI violations, 1 a file cannot be read \
                        (the worst of all files).\n\n\
                        Examples:\n  pnacl check factorial.pexe\n  pnacl check --json ../shared/corpus/cli/*.pexe\n  \
                        pnacl asm examples/main_without_parameters.pnaclasm -o - | pnacl check -")]
pub struct Args {
    /// The pexes to check (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print nothing: the exit status says it all (0 clean, 3 ABI violations, 1 unreadable).
    #[arg(short, long)]
    pub quiet: bool,
}

/// What checking one file found.
enum Outcome {
    Clean,
    /// Violations or warnings ([`pnacl_verify::Rule::is_warning`]), or both.
    Violations(Module, Vec<Diagnostic>),
    Unreadable(String, Option<ReadError>),
}

fn check_file(path: &Path) -> Outcome {
    let bytes = match input::read_input(path, Expect::Pexe) {
        Ok(b) => b,
        Err(e) => return Outcome::Unreadable(e.to_string(), None),
    };
    // Bit positions are only needed to report violations: a module that has some is read
    // again with them.
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    let module = match read_parallel(&bytes, options) {
        Ok(m) => m,
        Err(e) => return Outcome::Unreadable(e.to_string(), Some(e)),
    };
    if pnacl_verify::check(&module).is_empty() {
        return Outcome::Clean;
    }
    match read_parallel(&bytes, ReadOptions { positions: true, ..options }) {
        Ok(module) => {
            let diagnostics = pnacl_verify::check(&module);
            Outcome::Violations(module, diagnostics)
        }
        Err(e) => Outcome::Unreadable(e.to_string(), Some(e)),
    }
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    use rayon::prelude::*;
    let mut worst = status::SUCCESS;
    let format = if report::json() { Format::Json } else { args.format };
    let mut json_out = Vec::new();
    // The report is written once, at the end, so that a write error is reported once.
    let mut text = String::new();
    // Files are checked in parallel too; results are reported in the order given.
    let outcomes: Vec<Outcome> = args.files.par_iter().map(|f| check_file(f)).collect();
    for (path, outcome) in args.files.iter().zip(outcomes) {
        let file = output::input_name(path);
        match outcome {
            Outcome::Clean => {}
            Outcome::Violations(m, diagnostics) => {
                if diagnostics.iter().any(|d| !d.rule.is_warning()) && worst == status::SUCCESS {
                    worst = status::VIOLATIONS;
                }
                for d in &diagnostics {
                    match format {
                        // A warning says where its record is, since nothing else stops there.
                        Format::Text if !args.quiet && d.rule.is_warning() => {
                            let at = d.pos.map(|p| format!(" (record at bit {p})")).unwrap_or_default();
                            text.push_str(&format!("{file}: warning: {}{at} [{}]\n", d.describe(&m), d.rule))
                        }
                        Format::Text if !args.quiet => {
                            text.push_str(&format!("{file}: {} [{}]\n", d.describe(&m), d.rule))
                        }
                        Format::Json => json_out.push(diagnostic_json(&file, &m, d)),
                        Format::Text => {}
                    }
                }
            }
            Outcome::Unreadable(message, error) => {
                worst = status::BAD_INPUT;
                match format {
                    Format::Text if !args.quiet => {
                        let d = match &error {
                            Some(e) => Report::read(&file, e),
                            None => Report::error(Some(&file), &message),
                        };
                        report::emit("check", &d);
                    }
                    Format::Json => json_out.push(json!({
                        "file": file,
                        "unreadable": true,
                        "rule": error.as_ref().map(|e| e.rule.id()),
                        "message": error.as_ref().map_or(message.clone(), |e| e.message.clone()),
                        "bit": error.as_ref().map(|e| e.pos.0),
                        "position": error.as_ref().map(|e| e.pos.to_string()),
                    })),
                    Format::Text => {}
                }
            }
        }
    }
    if format == Format::Json && !args.quiet {
        text = serde_json::to_string_pretty(&json_out).unwrap_or_default();
        text.push('\n');
    }
    // A report that cannot be written fails the command, whatever it says.
    report::finish("check", output::print(&text).map(|()| worst))
}

fn diagnostic_json(file: &str, m: &Module, d: &Diagnostic) -> serde_json::Value {
    let names = m.names();
    let (function, block, instruction) = match &d.location {
        Location::Function(f) => (Some(*f), None, None),
        Location::Instruction { function, block, index, value, opcode } => {
            let inst = match value {
                Some(v) => json!({ "index": index, "value": format!("%v{v}") }),
                None => json!({ "index": index, "opcode": opcode }),
            };
            (Some(*function), Some(*block), Some(inst))
        }
        _ => (None, None, None),
    };
    json!({
        "file": file,
        "rule": d.rule.id(),
        "severity": if d.rule.is_warning() { "warning" } else { "error" },
        "message": d.message,
        "location": d.location.to_string(),
        "function": function.map(|f| json!({ "id": format!("@f{f}"), "name": names.function(f) })),
        "block": block.map(|b| format!("%b{b}")),
        "instruction": instruction,
        "global": match d.location { Location::Global(g) => Some(format!("@g{g}")), _ => None },
        "type": match d.location { Location::Type(t) => Some(format!("@t{t}")), _ => None },
        "bit": d.pos.map(|p| p.0),
        "position": d.pos.map(|p| p.to_string()),
    })
}
