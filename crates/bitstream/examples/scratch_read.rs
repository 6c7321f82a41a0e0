//! scratch
use pnacl_bitstream::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let data = std::fs::read(&path).unwrap();
    let c = Container::detect(&data).unwrap();
    let (stream, start) = c.stream(&data);
    let mut best = f64::MAX;
    for _ in 0..20 {
        let t = std::time::Instant::now();
        let mut cur = Cursor::new(stream, start, 2).unwrap();
        let mut n = 0u64;
        loop {
            match cur.step().unwrap() {
                Step::End => break,
                Step::Record => n += cur.record().ops.len() as u64,
                _ => n += 1,
            }
        }
        std::hint::black_box(n);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{path}: {:.1} MB/s {:.1}ms", data.len() as f64 / best / 1e6, best * 1e3);
}
