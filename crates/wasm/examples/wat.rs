//! Prints a pexe's translation as WebAssembly text (all of it, or the functions whose
//! names contain a word): `cargo run -p pnacl-wasm --example wat -- APP.pexe [WORD]`.
//! Given a `.wasm` file (another compiler's, to compare), prints that module.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: wat APP.pexe [WORD]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).expect("read the file");
    let wasm = if bytes.starts_with(b"\0asm") {
        bytes
    } else {
        let m = pnacl_bitcode::read(&bytes).expect("a valid pexe");
        pnacl_wasm::translate(&m, &pnacl_wasm::Options::default()).expect("translates").wasm
    };
    let text = wasmprinter::print_bytes(&wasm).expect("prints");
    match args.get(2) {
        None => print!("{text}"),
        Some(word) => {
            let mut on = false;
            for line in text.lines() {
                if line.starts_with("  (func ") {
                    on = line.contains(word.as_str());
                } else if line.starts_with("  (") && !line.starts_with("  (func") {
                    on = false;
                }
                if on {
                    println!("{line}");
                }
            }
        }
    }
}
