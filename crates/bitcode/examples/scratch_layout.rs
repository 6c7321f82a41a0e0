//! scratch
use pnacl_bitcode::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let data = std::fs::read(&path).unwrap();
    let m = read(&data).unwrap();
    let std_ = write(&m, Abbrevs::Standard).unwrap();
    let ms = read(&std_).unwrap();
    let (a, b) = (m.layout.as_ref().unwrap(), ms.layout.as_ref().unwrap());
    println!("blockinfo same: {}", a.blockinfo == b.blockinfo);
    if a.blockinfo != b.blockinfo {
        println!("{:#?}\n{:#?}", a.blockinfo, b.blockinfo);
    }
    for (n, x, y) in
        [("module", &a.module, &b.module), ("types", &a.types, &b.types), ("globals", &a.globals, &b.globals)]
    {
        if x != y {
            println!(
                "{n}: width {} vs {}; items differ at {:?}; abbrevs {:?} vs {:?}",
                x.abbrev_width,
                y.abbrev_width,
                x.items.iter().zip(&y.items).position(|(p, q)| p != q),
                x.abbrevs,
                y.abbrevs
            );
        }
    }
    if a.symtab != b.symtab {
        let (x, y) = (a.symtab.as_ref().unwrap(), b.symtab.as_ref().unwrap());
        let i = x.items.iter().zip(&y.items).position(|(p, q)| p != q);
        println!("symtab differs at {:?}: {:?} vs {:?}", i, i.map(|i| x.items[i]), i.map(|i| y.items[i]));
        if let Some(i) = i {
            println!("entry {:?}", String::from_utf8_lossy(&m.symtab.as_ref().unwrap()[i].name));
        }
        let mut cnt = std::collections::HashMap::new();
        for (p, q) in x.items.iter().zip(&y.items) {
            if p != q {
                *cnt.entry((p, q)).or_insert(0) += 1;
            }
        }
        println!("{cnt:?}");
    }
    let mut shown = 0;
    for (f, (fa, fb)) in m.functions.iter().zip(&ms.functions).enumerate() {
        if let (Some(ba), Some(bb)) = (&fa.body, &fb.body) {
            let (la, lb) = (ba.layout.as_ref().unwrap(), bb.layout.as_ref().unwrap());
            if la != lb && shown < 5 {
                shown += 1;
                let i = la.function.items.iter().zip(&lb.function.items).position(|(p, q)| p != q);
                println!(
                    "@f{f}: fn items differ at {:?}: {:?} vs {:?}; consts same {}",
                    i,
                    i.map(|i| la.function.items[i]),
                    i.map(|i| lb.function.items[i]),
                    la.constants == lb.constants
                );
                if let Some(i) = i {
                    println!("   inst {:?}", ba.insts.get(i.saturating_sub(2)));
                }
                if la.constants != lb.constants {
                    let (x, y) = (la.constants.as_ref().unwrap(), lb.constants.as_ref().unwrap());
                    let i = x.items.iter().zip(&y.items).position(|(p, q)| p != q);
                    println!("   consts at {:?}: {:?} vs {:?}", i, i.map(|i| x.items[i]), i.map(|i| y.items[i]));
                }
            }
        }
    }
}
