//! Throughput of reading LLVM bitcode into the model and of freezing it into a pexe, in MB/s
//! of LLVM bitcode, against a bare scan of the same bitstream (the floor any reader pays),
//! measured in the same run.
//!
//! The inputs are already-simplified modules: a pexe thawed and assembled by today's LLVM
//! (`pnacl thaw --typed-pointers X.pexe | llvm-as-14`, and `pnacl thaw X.pexe | llvm-as-19`
//! for opaque pointers). `scripts/bench freeze` makes them from the largest corpus pexe and
//! names them in `PNACL_FREEZE_BENCH` (paths separated by `:`); without it, the bench makes
//! them itself from the largest corpus pexe, in the target directory.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pnacl_bitcode::{Abbrevs, ReadOptions};
use pnacl_bitstream::{Container, Cursor, Step};
use pnacl_convert::freeze::{FreezeOptions, NameHistory, Writer, freeze, name_history, respell_intrinsics};
use pnacl_convert::thaw::{ThawOptions, thaw};
use pnacl_llvm::Module;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::{Command, Stdio};

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

/// What `pnacl freeze` does between reading the file and writing the pexe.
fn freeze_module(m: &mut Module) -> Vec<u8> {
    let history = name_history(m);
    let options = FreezeOptions { writer: Writer::for_module(m), ..FreezeOptions::default() };
    respell_intrinsics(m);
    let pm = freeze(m, NameHistory::of(history.as_deref()), &options).expect("the bench input freezes");
    pnacl_bitcode::write(&pm, Abbrevs::Standard).unwrap()
}

/// The bench inputs: `PNACL_FREEZE_BENCH`, or the largest corpus pexe thawed and assembled
/// by LLVM 14 (typed pointers) and LLVM 19 (opaque pointers).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let paths: Vec<PathBuf> = match std::env::var_os("PNACL_FREEZE_BENCH") {
        Some(v) => std::env::split_paths(&v).collect(),
        None => make_inputs(),
    };
    paths.iter().map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap())).collect()
}

fn make_inputs() -> Vec<PathBuf> {
    let pexe = pnacl_testutil::pexes().into_iter().max_by_key(|e| e.bytes).expect("the corpus has pexes");
    let bytes = std::fs::read(pexe.path()).unwrap();
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    let pm = pnacl_bitcode::read_parallel(&bytes, options).unwrap();
    let dir = pnacl_testutil::workspace_root().join("target").join("bench-tmp");
    std::fs::create_dir_all(&dir).unwrap();
    let stem = pexe.path().file_stem().unwrap().to_string_lossy().into_owned();
    [(true, 14, "typed"), (false, 19, "opaque")]
        .into_iter()
        .map(|(typed_pointers, llvm, kind)| {
            let thawed = thaw(&pm, &ThawOptions { typed_pointers, name_module_values: false }).unwrap();
            let text = pnacl_llvm::print::print(&thawed, &pnacl_llvm::print::PrintOptions::default());
            let out = dir.join(format!("{stem}-{kind}.bc"));
            let mut child = Command::new(pnacl_testutil::llvm_tool("llvm-as", llvm))
                .arg("-o")
                .arg(&out)
                .stdin(Stdio::piped())
                .spawn()
                .unwrap();
            std::io::Write::write_all(child.stdin.as_mut().unwrap(), text.as_bytes()).unwrap();
            drop(child.stdin.take());
            assert!(child.wait().unwrap().success(), "llvm-as-{llvm} refused the thawed module");
            out
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("freeze");
    for (name, data) in inputs() {
        let read = pnacl_llvm::read(&data).unwrap();
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_with_input(BenchmarkId::new("bitstream-scan (baseline)", &name), &data, |b, d| {
            b.iter(|| scan(black_box(d)))
        });
        g.bench_with_input(BenchmarkId::new("read", &name), &data, |b, d| {
            b.iter_with_large_drop(|| pnacl_llvm::read(black_box(d)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("freeze (module read)", &name), &read, |b, m| {
            b.iter_batched_ref(|| m.clone(), |m| freeze_module(black_box(m)), criterion::BatchSize::LargeInput)
        });
        g.bench_with_input(BenchmarkId::new("read + freeze", &name), &data, |b, d| {
            b.iter(|| freeze_module(&mut pnacl_llvm::read(black_box(d)).unwrap()))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
