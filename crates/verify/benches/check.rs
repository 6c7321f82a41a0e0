//! Throughput of `pnacl check` (read, validate and verify) over the corpus, against the
//! single-threaded read + validate of the same files, measured in the same run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pnacl_bitcode::{NoListener, ReadOptions, read_parallel, read_with};
use rayon::prelude::*;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let files: Vec<Vec<u8>> =
        pnacl_testutil::pexes().into_iter().map(|e| std::fs::read(e.path()).expect("corpus file")).collect();
    let total: u64 = files.iter().map(|d| d.len() as u64).sum();
    let options = ReadOptions { defer_abi: true, positions: true, no_layout: true, ..ReadOptions::default() };
    let mut g = c.benchmark_group("check");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("corpus/read-validate (baseline, 1 thread)", |b| {
        b.iter_with_large_drop(|| {
            files
                .iter()
                .map(|d| read_with(black_box(d), ReadOptions::default(), &mut NoListener).unwrap())
                .collect::<Vec<_>>()
        })
    });
    g.bench_function("corpus/read-parallel", |b| {
        b.iter_with_large_drop(|| {
            files.iter().map(|d| read_parallel(black_box(d), options).unwrap()).collect::<Vec<_>>()
        })
    });
    // As `pnacl check FILE...` does it: files in parallel, and each file's functions.
    g.bench_function("corpus/check", |b| {
        b.iter_with_large_drop(|| {
            files
                .par_iter()
                .map(|d| {
                    // As `pnacl check` does: positions are read only for modules that have
                    // something to report (the corpus has nothing).
                    let m = read_parallel(black_box(d), ReadOptions { positions: false, ..options }).unwrap();
                    let diagnostics = pnacl_verify::verify(&m);
                    assert!(diagnostics.is_empty());
                    (m, diagnostics)
                })
                .collect::<Vec<_>>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
