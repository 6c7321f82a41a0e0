//! `pnacl analyze`: a generic dump of any bitstream, in the spirit of `llvm-bcanalyzer -dump`.

use crate::input::{self, Expect};
use crate::names::{Dialect, block_name, record_name};
use crate::report::{self, Diagnostic, Failure};
use crate::{output, status};
use pnacl_bitstream::{AbbrevTarget, BitPos, Container, Cursor, Step};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `pnacl analyze`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Each line is the bit position (byte:bit) of a block, abbreviation definition or record, \
                        then what it is; the summary counts them per block id. A malformed stream is dumped up \
                        to the fault, then its error (exit status 1).\n\n\
                        Examples:\n  pnacl analyze factorial.pexe | less\n  pnacl analyze --summary hello.bc\n  \
                        pnacl asm examples/hello_world.pnaclasm -o - | pnacl analyze --max-ops 4 -")]
pub struct Args {
    /// The bitcode file (a .pexe, or LLVM .bc with or without a wrapper; `-` for standard
    /// input).
    pub file: PathBuf,
    /// Print only the per-block summary, not the dump.
    #[arg(long)]
    pub summary: bool,
    /// Print at most this many operands per record (0 = all).
    #[arg(long, default_value_t = 0)]
    pub max_ops: usize,
}

/// Per-block-id statistics.
#[derive(Default)]
struct Stats {
    instances: u64,
    records: u64,
    abbrevs: u64,
    subblocks: u64,
    bits: u64,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = output::input_name(&args.file);
    let result = input::read(&args.file, Expect::Bitcode).and_then(|data| {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let result = analyze(&data, args, &mut out);
        let flushed = out.flush();
        match result {
            Ok(()) => flushed.map_err(|e| Failure::input("<stdout>", e))?,
            Err(Problem::Output(e)) => return Err(Failure::input("<stdout>", e)),
            Err(Problem::Input(e)) => return Err(Diagnostic::bitstream(&name, &e).into()),
        }
        Ok(status::SUCCESS)
    });
    report::finish("analyze", result)
}

/// Why the dump stopped.
enum Problem {
    /// The bitstream is malformed.
    Input(pnacl_bitstream::Error),
    /// Standard output cannot be written.
    Output(std::io::Error),
}

impl From<std::io::Error> for Problem {
    fn from(e: std::io::Error) -> Problem {
        Problem::Output(e)
    }
}

impl From<pnacl_bitstream::Error> for Problem {
    fn from(e: pnacl_bitstream::Error) -> Problem {
        Problem::Input(e)
    }
}

fn analyze(data: &[u8], args: &Args, out: &mut impl Write) -> Result<(), Problem> {
    let container = Container::detect(data)?;
    let (dialect, what) = match &container {
        Container::Pexe { header } => {
            let fields: Vec<String> = header.fields.iter().map(|f| f.contents()).collect();
            (Dialect::Pnacl, format!("PNaCl bitcode, header {} bytes: {}", header.raw.len(), fields.join(", ")))
        }
        Container::Llvm { wrapper: None } => (Dialect::Llvm, "LLVM bitcode".to_string()),
        Container::Llvm { wrapper: Some(w) } => {
            (Dialect::Llvm, format!("LLVM bitcode in a wrapper (offset {}, size {})", w.offset, w.size))
        }
    };
    writeln!(out, "{what}, {} bytes", data.len())?;
    let (stream, start) = container.stream(data);
    let mut c = Cursor::new(stream, start, 2)?;
    let mut stats: BTreeMap<u32, Stats> = BTreeMap::new();
    // Open blocks: id, and position of the enter record.
    let mut open: Vec<(u32, BitPos)> = Vec::new();
    let mut top_level = 0;
    let mut line = String::new();
    loop {
        let step = match c.step() {
            Ok(s) => s,
            Err(e) => {
                if !args.summary {
                    writeln!(out, "{e}")?;
                }
                return Err(e.into());
            }
        };
        line.clear();
        let depth = open.len();
        let indent = "  ".repeat(depth);
        match step {
            Step::End => break,
            Step::Enter => {
                let e = c.entered();
                if let Some((parent, _)) = open.last() {
                    stats.entry(*parent).or_default().subblocks += 1;
                } else {
                    top_level += 1;
                }
                stats.entry(e.block_id).or_default().instances += 1;
                open.push((e.block_id, e.pos));
                let name = block_name(dialect, e.block_id).unwrap_or("UNKNOWN_BLOCK");
                let _ = write!(
                    line,
                    "{:>10}  {indent}<{name} id={} abbrev-width={} words={}>",
                    e.pos.to_string(),
                    e.block_id,
                    e.abbrev_width,
                    e.length_words
                );
            }
            Step::Exit => {
                let (id, start) = open.pop().expect("cursor balances blocks");
                stats.entry(id).or_default().bits += c.pos().0 - start.0;
                let name = block_name(dialect, id).unwrap_or("UNKNOWN_BLOCK");
                let indent = "  ".repeat(depth - 1);
                let _ = write!(line, "{:>10}  {indent}</{name}>", c.last_pos().to_string());
            }
            Step::Abbrev => {
                let (abbrev, target) = c.defined();
                let id = open.last().map_or(0, |o| o.0);
                stats.entry(id).or_default().abbrevs += 1;
                let whose = match target {
                    AbbrevTarget::Local { abbrev_id } => format!("local id={abbrev_id}"),
                    AbbrevTarget::Global { block_id, index } => {
                        format!("for {} id={}", block_name(dialect, block_id).unwrap_or("UNKNOWN_BLOCK"), index + 4)
                    }
                };
                let _ = write!(line, "{:>10}  {indent}<DEFINE_ABBREV {abbrev} {whose}/>", c.last_pos().to_string());
            }
            Step::Record => {
                let r = c.record();
                let id = open.last().map_or(0, |o| o.0);
                stats.entry(id).or_default().records += 1;
                if args.summary {
                    continue;
                }
                let name = record_name(dialect, id, r.code).map_or_else(|| format!("code{}", r.code), str::to_string);
                let _ =
                    write!(line, "{:>10}  {indent}<{name} code={} abbrev={}", r.pos.to_string(), r.code, r.abbrev_id);
                let shown = if args.max_ops == 0 { r.ops.len() } else { r.ops.len().min(args.max_ops) };
                line.push_str(" ops=[");
                for (i, v) in r.ops[..shown].iter().enumerate() {
                    if i > 0 {
                        line.push_str(", ");
                    }
                    let _ = write!(line, "{v}");
                }
                if shown < r.ops.len() {
                    let _ = write!(line, ", ... {} more", r.ops.len() - shown);
                }
                line.push(']');
                if let Some(b) = r.blob {
                    let _ = write!(line, " blob={} bytes", b.len());
                }
                if r.ops.len() >= 3 && r.ops.iter().all(|&v| (0x20..0x7f).contains(&v)) {
                    let s: String = r.ops.iter().map(|&v| v as u8 as char).collect();
                    let _ = write!(line, " string={s:?}");
                }
                line.push_str("/>");
            }
        }
        if !args.summary {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out, "\nSummary: {top_level} top-level block(s)")?;
    writeln!(
        out,
        "{:>6}  {:<28}{:>10}{:>10}{:>10}{:>10}{:>12}",
        "id", "block", "instances", "records", "abbrevs", "subblocks", "bits"
    )?;
    let mut total = Stats::default();
    for (id, s) in &stats {
        let name = block_name(dialect, *id).unwrap_or("UNKNOWN_BLOCK");
        writeln!(
            out,
            "{id:>6}  {name:<28}{:>10}{:>10}{:>10}{:>10}{:>12}",
            s.instances, s.records, s.abbrevs, s.subblocks, s.bits
        )?;
        total.instances += s.instances;
        total.records += s.records;
        total.abbrevs += s.abbrevs;
    }
    writeln!(out, "{:>6}  {:<28}{:>10}{:>10}{:>10}", "", "total", total.instances, total.records, total.abbrevs)?;
    Ok(())
}
