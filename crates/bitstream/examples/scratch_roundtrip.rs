use pnacl_bitstream::*;
fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap();
        let c = Container::detect(&data).unwrap();
        let (stream, start) = c.stream(&data);
        let prefix = &data[..(start.0 / 8) as usize];
        let mut cur = Cursor::new(stream, start, 2).unwrap();
        let mut w = StreamWriter::new(prefix, 2);
        let mut n = 0u64;
        let t = std::time::Instant::now();
        loop {
            let e = match cur.next() {
                Ok(e) => e,
                Err(e) => {
                    println!("{path}: {e}");
                    break;
                }
            };
            if let Entry::End(_) = e {
                break;
            }
            n += 1;
            w.copy(&e).unwrap();
        }
        let el = t.elapsed();
        let out = w.finish().unwrap();
        println!("{path}: entries={n} same={} {:.1}MB/s", out == stream, data.len() as f64 / el.as_secs_f64() / 1e6);
    }
}
