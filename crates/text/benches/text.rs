//! Throughput of `dis` and `asm` on the largest corpus pexe, each against a baseline
//! measured in the same run: the validating read of the same pexe for `dis` (what printing
//! adds to reading), and splitting the listing into its columns for `asm` (a pass over the
//! text that parses no PNaClAsm).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pnacl_bitcode::{NoListener, ReadOptions, read_with};
use pnacl_text::{asm, dis, listing};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let largest = pnacl_testutil::pexes().into_iter().max_by_key(|e| e.bytes).expect("corpus");
    let name = largest.file.clone();
    let pexe = std::fs::read(largest.path()).expect("corpus file");
    let mut text = Vec::new();
    dis::disassemble(&pexe, &dis::Options::default(), &mut text).expect("in memory");
    let text = String::from_utf8(text).expect("ASCII");

    let mut g = c.benchmark_group("dis");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(pexe.len() as u64));
    let lenient = ReadOptions { no_layout: true, lenient_structure: true, ..ReadOptions::default() };
    g.bench_with_input(BenchmarkId::new("read-validate (baseline)", &name), &pexe, |b, d| {
        b.iter_with_large_drop(|| read_with(black_box(d), lenient, &mut NoListener).unwrap())
    });
    g.bench_with_input(BenchmarkId::new("listing", &name), &pexe, |b, d| {
        b.iter(|| dis::disassemble(black_box(d), &dis::Options::default(), &mut std::io::sink()).unwrap())
    });
    let asm_only = dis::Options { records: false, ..Default::default() };
    g.bench_with_input(BenchmarkId::new("assembly column", &name), &pexe, |b, d| {
        b.iter(|| dis::disassemble(black_box(d), &asm_only, &mut std::io::sink()).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("asm");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_with_input(BenchmarkId::new("split columns (baseline)", &name), &text, |b, t| {
        b.iter_with_large_drop(|| listing::split(black_box(t)).unwrap())
    });
    g.bench_with_input(BenchmarkId::new("listing", &name), &text, |b, t| {
        b.iter_with_large_drop(|| asm::assemble(black_box(t)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
