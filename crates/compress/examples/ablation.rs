//! What each technique of the search is worth: compresses every corpus pexe with the
//! default effort, then with one technique turned off at a time, and prints the total size
//! and the geometric mean of compressed / standard (the `pnacl-finalize` form).
//!
//! Also estimates what per-function local abbreviations could add: for each large
//! function, the bits a search on its records alone would save over the global set, with
//! the wider abbreviation ids both sets together would need.
//!
//! Run: `cargo run --release -p pnacl-compress --example ablation [CORPUS_DIR]`

use pnacl_bitcode::codes::block;
use pnacl_bitcode::{Abbrevs, Module, NoListener, ReadOptions, read_with, write};
use pnacl_compress::census::{Census, Kind, Table};
use pnacl_compress::plan::KindPlan;
use pnacl_compress::search::search;
use pnacl_compress::{Effort, Encodings, Params, compress_with, cost};
use rayon::prelude::*;
use std::path::PathBuf;

fn main() {
    let dir = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| PathBuf::from("../shared/corpus"));
    let mut files = Vec::new();
    for sub in ["cli", "tiny", "ppapi"] {
        for e in std::fs::read_dir(dir.join(sub)).expect("corpus folder") {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pexe") {
                files.push(p);
            }
        }
    }
    files.sort();
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    let modules: Vec<(Module, usize)> = files
        .par_iter()
        .map(|p| {
            let m = read_with(&std::fs::read(p).unwrap(), opts, &mut NoListener).expect("corpus pexes read");
            let standard = write(&m, Abbrevs::Standard).unwrap().len();
            (m, standard)
        })
        .collect();
    let default = Effort::Default.params();
    let variants: Vec<(&str, Params)> = vec![
        ("default (everything)", default),
        ("fast", Effort::Fast.params()),
        ("max", Effort::Max.params()),
        (
            "- fitted widths (vbr(6) fields only)",
            Params { encodings: Encodings { fitted_widths: false, char6: true }, ..default },
        ),
        ("- char6", Params { encodings: Encodings { fitted_widths: true, char6: false }, ..default }),
        ("- arrays", Params { arrays: false, ..default }),
        ("- frequent values as literals (cuts)", Params { literal_values: 0, ..default }),
        ("- refinement", Params { refine_rounds: 0, ..default }),
        ("- width in the bill (keep every saving)", Params { width_aware: false, ..default }),
        ("at most 12 abbreviations per kind (4-bit ids)", Params { max_abbrevs: 12, ..default }),
        ("at most 28 abbreviations per kind (5-bit ids)", Params { max_abbrevs: 28, ..default }),
        ("at most 60 abbreviations per kind (6-bit ids)", Params { max_abbrevs: 60, ..default }),
    ];
    let standard_total: usize = modules.iter().map(|m| m.1).sum();
    println!("{} pexes, {} bytes in their standard form", modules.len(), standard_total);
    println!("{:<48}{:>12}{:>10}{:>14}{:>10}", "variant", "bytes", "geomean", "vs default", "time");
    let mut default_total = 0;
    for (name, params) in &variants {
        let start = std::time::Instant::now();
        let sizes: Vec<(usize, usize)> = modules
            .par_iter()
            .map(|(m, standard)| (compress_with(m, params).expect("compresses").bytes.len(), *standard))
            .collect();
        let total: usize = sizes.iter().map(|s| s.0).sum();
        let geomean = (sizes.iter().map(|&(c, s)| (c as f64 / s as f64).ln()).sum::<f64>() / sizes.len() as f64).exp();
        if default_total == 0 {
            default_total = total;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:<48}{total:>12}{geomean:>10.4}{:>13.2}%{secs:>9.2}s",
            100.0 * (total as f64 / default_total as f64 - 1.0)
        );
    }
    local_estimate(&modules, &default);
}

/// Upper bound of what local abbreviations in large function blocks could save.
fn local_estimate(modules: &[(Module, usize)], params: &Params) {
    const LARGE: usize = 300;
    let (mut saved, mut functions, mut large, mut total_bits) = (0u64, 0usize, 0usize, 0u64);
    for (m, _) in modules {
        let census = Census::take(m).unwrap();
        let Some(k) = census.kinds.iter().position(|k| k.block_id == block::FUNCTION) else { continue };
        let kind = &census.kinds[k];
        let plan = KindPlan::make(kind, params);
        total_bits += plan.bits;
        let g = plan.abbrevs.len();
        let gains: Vec<u64> = census
            .instances
            .par_iter()
            .filter(|i| i.kind == k && i.ids.len() >= LARGE)
            .map(|inst| {
                // The function's cost with the global set.
                let width = u64::from(plan.width);
                let items = (inst.ids.len() + inst.template.len() - inst.ids.len() + 1) as u64;
                let mut global = width * items;
                let mut table = Table::default();
                for &id in &inst.ids {
                    let (code, ops) = (kind.table.rec(id).code, kind.table.ops(id));
                    global += match plan.choice[id as usize] {
                        3 => cost::unabbreviated(code, ops),
                        a => plan.abbrevs[a as usize - 4].encoded_bits(code, ops).expect("chosen"),
                    };
                    table.insert(code, ops);
                }
                // Its own search, as if it were alone, then repriced with the ids wide
                // enough for the global and local sets together.
                let alone = Kind { block_id: block::FUNCTION, instances: 1, items, table };
                let found = search(&alone, true, params);
                let l = found.forms.len();
                let own_ids = u64::from(cost::id_width(l)) * (items + l as u64);
                let both_ids = u64::from(cost::id_width(g + l)) * (items + l as u64);
                let local = found.bits - own_ids + both_ids;
                global.saturating_sub(local)
            })
            .collect();
        functions += census.instances.iter().filter(|i| i.kind == k).count();
        large += gains.len();
        saved += gains.iter().sum::<u64>();
    }
    println!(
        "\nlocal abbreviations in the {large} function blocks (of {functions}) with >= {LARGE} records: \
         at most {} bytes saved, {:.2}% of the function blocks' {} bytes",
        saved / 8,
        100.0 * saved as f64 / total_bits as f64,
        total_bits / 8
    );
}
