//! Throughput of reading and validating pexes into IR, against a bare scan of the same
//! bitstream (the floor any reader pays), measured in the same run.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pnacl_bitcode::{Abbrevs, NoListener, ReadOptions, read, read_with, write};
use pnacl_bitstream::{Container, Cursor, Step};
use std::hint::black_box;

fn corpus() -> Vec<(String, Vec<u8>)> {
    pnacl_testutil::pexes().into_iter().map(|e| (e.file.clone(), std::fs::read(e.path()).unwrap())).collect()
}

fn scan(data: &[u8]) -> u64 {
    let container = Container::detect(data).unwrap();
    let (stream, start) = container.stream(data);
    let mut c = Cursor::new(stream, start, 2).unwrap();
    let mut n = 0;
    while c.step().unwrap() != Step::End {
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    let total: u64 = files.iter().map(|(_, d)| d.len() as u64).sum();
    let largest = files.iter().max_by_key(|(_, d)| d.len()).unwrap().clone();

    let mut g = c.benchmark_group("read");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("corpus/bitstream-scan", |b| {
        b.iter(|| files.iter().map(|(_, d)| scan(black_box(d))).sum::<u64>())
    });
    g.bench_function("corpus/read-validate", |b| {
        b.iter_with_large_drop(|| files.iter().map(|(_, d)| read(black_box(d)).unwrap()).collect::<Vec<_>>())
    });
    g.bench_function("corpus/read-validate-ir-only", |b| {
        let opts = ReadOptions { no_layout: true, ..ReadOptions::default() };
        b.iter_with_large_drop(|| {
            files.iter().map(|(_, d)| read_with(black_box(d), opts, &mut NoListener).unwrap()).collect::<Vec<_>>()
        })
    });
    g.bench_function("corpus/read-validate-portable", |b| {
        let opts = ReadOptions { portable_decoding: true, ..ReadOptions::default() };
        b.iter_with_large_drop(|| {
            files.iter().map(|(_, d)| read_with(black_box(d), opts, &mut NoListener).unwrap()).collect::<Vec<_>>()
        })
    });
    g.bench_function("corpus/read-validate-positions", |b| {
        let opts = ReadOptions { positions: true, ..ReadOptions::default() };
        b.iter_with_large_drop(|| {
            files.iter().map(|(_, d)| read_with(black_box(d), opts, &mut NoListener).unwrap()).collect::<Vec<_>>()
        })
    });
    g.throughput(Throughput::Bytes(largest.1.len() as u64));
    g.bench_with_input(BenchmarkId::new("largest/read-validate", &largest.0), &largest.1, |b, d| {
        b.iter_with_large_drop(|| read(black_box(d)).unwrap())
    });
    g.finish();

    let modules: Vec<_> = files.iter().map(|(_, d)| read(d).unwrap()).collect();
    let mut g = c.benchmark_group("write");
    g.throughput(Throughput::Bytes(total));
    for (name, mode) in [("keep", Abbrevs::Keep), ("standard", Abbrevs::Standard), ("none", Abbrevs::None)] {
        g.bench_function(format!("corpus/{name}"), |b| {
            b.iter_with_large_drop(|| modules.iter().map(|m| write(black_box(m), mode).unwrap()).collect::<Vec<_>>())
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
