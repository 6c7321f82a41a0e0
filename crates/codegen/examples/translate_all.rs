//! Translates pexes and reports the time taken; with `--dump NAME`, writes the machine
//! code of function NAME to /tmp/NAME.bin (for `objdump -D -b binary -mi386:x86-64`).
use pnacl_bitcode::{ReadOptions, read_parallel};
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let dump = args.iter().position(|a| a == "--dump").map(|i| {
        args.remove(i);
        args.remove(i)
    });
    for path in args {
        let bytes = std::fs::read(&path).unwrap();
        let m = match read_parallel(&bytes, ReadOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                println!("{path}: read {e}");
                continue;
            }
        };
        let config = pnacl_codegen::Config::unplaced(&m, false);
        let t0 = std::time::Instant::now();
        match pnacl_codegen::translate(&m, &config, &[]) {
            Ok(t) => {
                let dt = t0.elapsed();
                println!(
                    "{path}: {} bytes in {dt:?} ({:.0} KB/s)",
                    t.code.len(),
                    bytes.len() as f64 / dt.as_secs_f64() / 1000.0
                );
                if let Some(name) = &dump {
                    let names = m.names();
                    for (f, c) in t.functions.iter().enumerate() {
                        if let (Some(c), Some(n)) = (c, names.get(pnacl_bitcode::ir::ValueId(f as u32)))
                            && n == name.as_bytes()
                        {
                            {
                                // SAFETY: the code is mapped while `t` lives.
                                let code = unsafe { std::slice::from_raw_parts(c.start as *const u8, c.len as usize) };
                                std::fs::write(format!("/tmp/{name}.bin"), code).unwrap();
                            }
                        }
                    }
                }
            }
            Err(e) => println!("{path}: ERROR {e}"),
        }
    }
}
