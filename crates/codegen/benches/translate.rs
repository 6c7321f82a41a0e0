//! Translation throughput: the command-line pexes of the corpus translated with Cranelift
//! (functions in parallel on all cores), against reading the same files, measured in the
//! same run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pnacl_bitcode::{ReadOptions, read_parallel};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let files: Vec<Vec<u8>> = pnacl_testutil::pexes()
        .into_iter()
        .filter(|e| e.path().parent().is_some_and(|d| d.ends_with("cli")))
        .map(|e| std::fs::read(e.path()).expect("corpus file"))
        .collect();
    let total: u64 = files.iter().map(|d| d.len() as u64).sum();
    let mut g = c.benchmark_group("translate");
    g.throughput(Throughput::Bytes(total));
    g.sample_size(20);
    g.bench_function("cli/read-validate (baseline)", |b| {
        b.iter_with_large_drop(|| {
            files.iter().map(|d| read_parallel(black_box(d), ReadOptions::default()).unwrap()).collect::<Vec<_>>()
        })
    });
    g.bench_function("cli/translate", |b| {
        b.iter_with_large_drop(|| {
            files
                .iter()
                .map(|d| {
                    let m = read_parallel(black_box(d), ReadOptions::default()).unwrap();
                    pnacl_codegen::translate(&m, &pnacl_codegen::Config::unplaced(&m, false), &[]).unwrap()
                })
                .collect::<Vec<_>>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
