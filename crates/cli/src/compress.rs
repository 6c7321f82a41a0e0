//! `pnacl compress`: rewrite a pexe with abbreviations searched for it. Smaller, same IR,
//! still an ordinary pexe every PNaCl reader accepts.

use crate::input::{self, Expect};
use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::status;
use pnacl_bitcode::codes::block;
use pnacl_bitcode::{ReadOptions, read_with};
use pnacl_compress::{BlockBits, Compressed, Effort, measure};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How hard to search.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffortArg {
    /// Quick: few abbreviations.
    Fast,
    /// The balance of size and time.
    Default,
    /// Smallest output, slowest.
    Max,
}

/// Arguments of `pnacl compress`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The compressed pexe is read back and compared with the input before it is written \
                        (exit status 4, nothing written, if they differ).\n\n\
                        Examples:\n  pnacl compress --stats app.pexe -o app.small.pexe\n  \
                        pnacl compress --effort max app.pexe          (replaces app.pexe)\n  \
                        pnacl compress - -o - < app.pexe > app.small.pexe")]
pub struct Args {
    /// The input pexe (`-` for standard input).
    pub input: PathBuf,
    /// The output file (`-` for standard output); the input is replaced when absent (standard
    /// output for standard input).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// How hard to search.
    #[arg(long, value_enum, default_value_t = EffortArg::Default)]
    pub effort: EffortArg,
    /// Print sizes, per-block bits before and after, and the time taken.
    #[arg(long)]
    pub stats: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("compress", compress(args))
}

fn compress(args: &Args) -> Result<i32, Failure> {
    let start = Instant::now();
    let name = output::input_name(&args.input);
    let target = args.output.as_deref().unwrap_or(&args.input);
    output::check_target(target, Content::Binary)?;
    let data = input::read(&args.input, Expect::Pexe)?;
    // ABI rules are the verifier's business: compression preserves whatever the file holds.
    let opts = ReadOptions { defer_abi: true, no_layout: false, ..ReadOptions::default() };
    let module = read_with(&data, opts, &mut pnacl_bitcode::NoListener).map_err(|e| Diagnostic::read(&name, &e))?;
    let read_time = start.elapsed();
    let effort = match args.effort {
        EffortArg::Fast => Effort::Fast,
        EffortArg::Default => Effort::Default,
        EffortArg::Max => Effort::Max,
    };
    let compressed = pnacl_compress::compress(&module, effort)
        .map_err(|e| Failure::input(&name, format!("{e}; nothing written")).with_status(status::INTERNAL))?;
    let compress_time = start.elapsed() - read_time;
    output::write(target, Content::Binary, &compressed.bytes)?;
    if args.stats {
        let times = Times { read: read_time, compress: compress_time, total: start.elapsed() };
        let table = stats_table(&args.input, target, args.effort, &data, &compressed, times);
        // The table goes with the output only when that is not standard output.
        if output::is_stdio(target) {
            report::eprint(&table);
        } else {
            output::print(&table)?;
        }
    }
    Ok(status::SUCCESS)
}

struct Times {
    read: Duration,
    compress: Duration,
    total: Duration,
}

/// The `--stats` table.
fn stats_table(input: &Path, output: &Path, effort: EffortArg, data: &[u8], c: &Compressed, t: Times) -> String {
    let mut s = String::new();
    let (before, after) = (data.len(), c.bytes.len());
    let pct = |a: u64, b: u64| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let _ =
        writeln!(s, "{} -> {} (effort {})", input.display(), output.display(), format!("{effort:?}").to_lowercase());
    let _ = writeln!(s, "  bytes in   {before:>12}");
    let _ = writeln!(s, "  bytes out  {after:>12}   {:.1}% of the input", pct(after as u64, before as u64));
    let _ = writeln!(
        s,
        "  time       {:>10.3} s   (read {:.3} s, search + write + check {:.3} s)",
        t.total.as_secs_f64(),
        t.read.as_secs_f64(),
        t.compress.as_secs_f64()
    );
    let (Ok(b), Ok(a)) = (measure(data), measure(&c.bytes)) else { return s };
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "  {:<14}{:>8}{:>10}{:>14}{:>14}{:>9}  abbrevs",
        "block", "blocks", "records", "bits before", "bits after", "after"
    );
    let ids: std::collections::BTreeSet<u32> = b.iter().chain(&a).map(|x| x.block_id).collect();
    let find = |v: &[BlockBits], id: u32| v.iter().find(|x| x.block_id == id).cloned().unwrap_or_default();
    let (mut total_b, mut total_a) = (0, 0);
    for id in ids {
        let (x, y) = (find(&b, id), find(&a, id));
        total_b += x.bits;
        total_a += y.bits;
        let abbrevs = match c.kinds.iter().find(|k| k.block_id == id) {
            Some(k) if k.abbrevs > 0 => format!("{} {}", k.abbrevs, if k.local { "local" } else { "global" }),
            _ if id == block::BLOCKINFO => format!("{} defs", y.definitions),
            _ => "none".to_string(),
        };
        let ratio = if x.bits == 0 { "new".to_string() } else { format!("{:.1}%", pct(y.bits, x.bits)) };
        let _ = writeln!(
            s,
            "  {:<14}{:>8}{:>10}{:>14}{:>14}{:>9}  {}",
            block::name(id).unwrap_or("unknown"),
            y.blocks.max(x.blocks),
            y.records.max(x.records),
            x.bits,
            y.bits,
            ratio,
            abbrevs
        );
    }
    let _ = writeln!(
        s,
        "  {:<14}{:>8}{:>10}{:>14}{:>14}{:>8.1}%",
        "total",
        "",
        "",
        total_b,
        total_a,
        pct(total_a, total_b)
    );
    s
}
