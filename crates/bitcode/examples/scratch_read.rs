//! scratch
fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap();
        let t = std::time::Instant::now();
        let r = pnacl_bitcode::read(&data);
        let el = t.elapsed();
        match r {
            Ok(m) => println!(
                "OK  {path}: {} fns {} insts {:.1} MB/s",
                m.functions.len(),
                m.instruction_count(),
                data.len() as f64 / el.as_secs_f64() / 1e6
            ),
            Err(e) => println!("ERR {path}: {}", e.explain()),
        }
    }
}
