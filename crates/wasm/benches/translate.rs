//! Translation to WebAssembly on one thread: the largest pexe of the corpus
//! (`ppapi/supernet_api.pexe`, 3.5 MB) read, translated and validated, against reading
//! it alone, measured in the same run. Throughput is in bytes of the pexe.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pnacl_bitcode::{ReadOptions, read_parallel};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let path = pnacl_testutil::corpus_dir().join("ppapi/supernet_api.pexe");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // One thread throughout: the figure is single-threaded translation.
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let module = one.install(|| read_parallel(&bytes, ReadOptions::default()).expect("the pexe reads"));
    let options = pnacl_wasm::Options::default();
    let mut g = c.benchmark_group("wasm");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("supernet_api/read-validate (baseline)", |b| {
        b.iter_with_large_drop(|| one.install(|| read_parallel(black_box(&bytes), ReadOptions::default()).unwrap()))
    });
    g.bench_function("supernet_api/translate", |b| {
        b.iter_with_large_drop(|| one.install(|| pnacl_wasm::translate(black_box(&module), &options).unwrap()))
    });
    g.bench_function("supernet_api/read-translate-validate", |b| {
        b.iter_with_large_drop(|| {
            one.install(|| {
                let m = read_parallel(black_box(&bytes), ReadOptions::default()).unwrap();
                let out = pnacl_wasm::translate(&m, &options).unwrap();
                pnacl_wasm::validate(&out).unwrap();
                out
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
