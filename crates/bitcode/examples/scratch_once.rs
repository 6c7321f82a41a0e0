//! scratch
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let data = std::fs::read(&path).unwrap();
    let m = pnacl_bitcode::read(&data).unwrap();
    std::mem::forget(m);
}
