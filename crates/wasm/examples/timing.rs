//! Times the translation of a pexe: reading, translating (on one thread and on all) and
//! validating, with the output's size. `cargo run --release -p pnacl-wasm --example timing
//! -- APP.pexe [OUT.wasm]` (the module is written to OUT.wasm if given, to compare the
//! output of two versions of the translator byte for byte). (Figures for the record; `scripts/bench` is where measurements belong.)

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: timing APP.pexe");
    let bytes = std::fs::read(&path).expect("read the pexe");
    let t = Instant::now();
    let m = pnacl_bitcode::read(&bytes).expect("a valid pexe");
    let read = t.elapsed();
    let options = pnacl_wasm::Options::default();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..5 {
        let t = Instant::now();
        let o = one.install(|| pnacl_wasm::translate(&m, &options)).expect("translates");
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(o);
    }
    let out = out.expect("translated");
    let t = Instant::now();
    let all = pnacl_wasm::translate(&m, &options).expect("translates");
    let parallel = t.elapsed();
    let t = Instant::now();
    pnacl_wasm::validate(&all).expect("validates");
    let validate = t.elapsed();
    let mb = bytes.len() as f64 / 1e6;
    println!("{path}: {} bytes of bitcode, read in {:.1} ms", bytes.len(), read.as_secs_f64() * 1e3);
    println!(
        "translate: {:.1} ms on one thread ({:.1} MB/s of bitcode, best of 5), {:.1} ms on all",
        best * 1e3,
        mb / best,
        parallel.as_secs_f64() * 1e3
    );
    println!("validate: {:.1} ms", validate.as_secs_f64() * 1e3);
    println!("module: {} bytes ({:.2}x the pexe)", out.wasm.len(), out.wasm.len() as f64 / bytes.len() as f64);
    if let Some(dest) = std::env::args().nth(2) {
        std::fs::write(&dest, &out.wasm).expect("write the module");
    }
}
