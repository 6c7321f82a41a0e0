//! scratch
use pnacl_bitcode::*;
fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap();
        let m = read(&data).unwrap();
        let keep = write(&m, Abbrevs::Keep).unwrap();
        let std_ = write(&m, Abbrevs::Standard).unwrap();
        let none = write(&m, Abbrevs::None).unwrap();
        let m_none = read(&none).map_err(|e| e.explain()).unwrap();
        let std2 = write(&m_none, Abbrevs::Standard).unwrap();
        let m_std = read(&std_).map_err(|e| e.explain()).unwrap();
        let same_ir = |a: &Module, b: &Module| {
            a.types == b.types
                && a.globals == b.globals
                && a.symtab == b.symtab
                && a.functions.len() == b.functions.len()
                && a.functions.iter().zip(&b.functions).all(|(x, y)| {
                    x.ty == y.ty
                        && x.linkage == y.linkage
                        && x.body.as_ref().map(|b| (&b.insts, &b.constants, &b.local_types))
                            == y.body.as_ref().map(|b| (&b.insts, &b.constants, &b.local_types))
                })
        };
        let first_diff = |a: &[u8], b: &[u8]| a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        println!(
            "{path}: keep={} std={}(diff@{}) none->std={} ir(std)={} ir(none)={} sizes {} {} {}",
            keep == data,
            std_ == data,
            first_diff(&std_, &data),
            std2 == data,
            same_ir(&m, &m_std),
            same_ir(&m, &m_none),
            data.len(),
            std_.len(),
            none.len()
        );
    }
}
