//! Reads an LLVM bitcode file and prints it as LLVM IR text (`--opaque`: opaque pointers).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opaque = args.iter().any(|a| a == "--opaque");
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = std::fs::read(path).expect("read");
        match pnacl_llvm::read(&bytes) {
            Ok(m) => {
                print!("{}", pnacl_llvm::print::print(&m, &pnacl_llvm::print::PrintOptions { opaque_pointers: opaque }))
            }
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
}
