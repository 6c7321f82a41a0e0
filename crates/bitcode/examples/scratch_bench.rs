//! scratch
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let nolayout = std::env::args().nth(2).is_some();
    let data = std::fs::read(&path).unwrap();
    let mut best = f64::MAX;
    let mut bestd = f64::MAX;
    let opts = pnacl_bitcode::ReadOptions { no_layout: nolayout, ..Default::default() };
    for _ in 0..15 {
        let t = std::time::Instant::now();
        let m = pnacl_bitcode::read_with(&data, opts, &mut pnacl_bitcode::NoListener).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        drop(std::hint::black_box(m));
        bestd = bestd.min(t.elapsed().as_secs_f64());
    }
    println!("{path}: {:.1} MB/s (drop {:.1} ms)", data.len() as f64 / best / 1e6, bestd * 1e3);
}
