//! Reads LLVM bitcode files and prints a summary of each (or the error).
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("read");
        match pnacl_llvm::read(&bytes) {
            Ok(m) => {
                let insts: usize = m.functions.iter().map(|f| f.layout().count()).sum();
                println!(
                    "{path}: {} functions ({} defined), {} globals, {} aliases, {} instructions, {} types, {} constants, opaque={}",
                    m.functions.len(),
                    m.functions.iter().filter(|f| !f.is_declaration()).count(),
                    m.globals.len(),
                    m.aliases.len(),
                    insts,
                    m.types.len(),
                    m.consts.len(),
                    m.opaque_pointers
                );
            }
            Err(e) => println!("{path}: {e}"),
        }
    }
}
