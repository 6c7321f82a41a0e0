//! Reads a pexe into IR and prints what it holds: a minimal use of the library, also used by
//! the bench script to measure peak memory.
//!
//! Usage: `cargo run --release -p pnacl-bitcode --example read_file -- FILE.pexe`

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: read_file FILE.pexe");
        std::process::exit(2);
    };
    let data = match std::fs::read(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match pnacl_bitcode::read(&data) {
        Ok(m) => {
            let bodies = m.functions.iter().filter(|f| f.body.is_some()).count();
            println!(
                "{path}: {} bytes, {} types, {} functions ({bodies} defined), {} globals, {} instruction records \
                 (VBR fields decoded with {})",
                data.len(),
                m.types.len(),
                m.functions.len(),
                m.globals.len(),
                m.instruction_count(),
                if pnacl_bitcode::ReadOptions::default().uses_pext() { "pext" } else { "shifts and masks" },
            );
        }
        Err(e) => {
            eprintln!("{path}: {}", e.explain());
            std::process::exit(1);
        }
    }
}
