//! Property: compressing any module gives a file that reads back to the same IR, with the
//! same listing but for abbreviations. Modules are generated as PNaClAsm (every kind of
//! record, with operands spread over small and large values) and assembled.

mod common;

use common::{assembly_without_abbreviations, read};
use pnacl_compress::{Effort, compress};
use proptest::prelude::*;
use std::fmt::Write as _;

/// A global's initializer.
#[derive(Clone, Debug)]
enum InitGen {
    Data(Vec<u8>),
    Zerofill(u32),
    Reloc { target: u32, addend: Option<u32> },
}

#[derive(Clone, Debug)]
struct GlobalGen {
    is_const: bool,
    align: u8,
    inits: Vec<InitGen>,
    compound: bool,
}

#[derive(Clone, Debug)]
enum ConstGen {
    I8(i8),
    I32(i32),
    I64(i64),
    Undef,
    Float(i16),
    Double(i32),
}

/// Operand choices are indices into the values available at that point (taken modulo).
#[derive(Clone, Debug)]
enum InstGen {
    Bin(u8, u32, u32),
    Cmp(u8, u32, u32),
    Load(u32),
    Store(u32, u32),
    Trunc(u32),
    Call(u32, Vec<u32>),
    Select(u32, u32, u32),
    Alloca(u32),
}

#[derive(Clone, Debug)]
enum TermGen {
    Next,
    Cond(u32, u32),
    Switch(u32, Vec<(i32, u32)>),
    Ret(u32),
    Unreachable,
}

#[derive(Clone, Debug)]
struct BlockGen {
    phi: Vec<u32>,
    insts: Vec<InstGen>,
    term: TermGen,
}

#[derive(Clone, Debug)]
struct FuncGen {
    params: u8,
    defined: bool,
    consts: Vec<ConstGen>,
    blocks: Vec<BlockGen>,
}

#[derive(Clone, Debug)]
struct ModuleGen {
    globals: Vec<GlobalGen>,
    funcs: Vec<FuncGen>,
    names: Vec<(bool, u32, Vec<u8>)>,
}

const BINOPS: [&str; 13] =
    ["add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"];
const PREDS: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
const MAX_PARAMS: u8 = 3;

fn init() -> impl Strategy<Value = InitGen> {
    prop_oneof![
        prop::collection::vec(prop_oneof![any::<u8>(), 0u8..4, 32u8..127], 1..40).prop_map(InitGen::Data),
        (0u32..5000).prop_map(InitGen::Zerofill),
        (any::<u32>(), prop::option::of(prop_oneof![0u32..64, any::<u32>()]))
            .prop_map(|(target, addend)| InitGen::Reloc { target, addend }),
    ]
}

fn global() -> impl Strategy<Value = GlobalGen> {
    (any::<bool>(), 0u8..4, prop::collection::vec(init(), 1..4), any::<bool>()).prop_map(
        |(is_const, align, inits, compound)| {
            let compound = compound || inits.len() > 1;
            GlobalGen { is_const, align, inits, compound }
        },
    )
}

fn constant() -> impl Strategy<Value = ConstGen> {
    prop_oneof![
        any::<i8>().prop_map(ConstGen::I8),
        prop_oneof![-8i32..64, any::<i32>()].prop_map(ConstGen::I32),
        prop_oneof![-8i64..64, any::<i64>()].prop_map(ConstGen::I64),
        Just(ConstGen::Undef),
        any::<i16>().prop_map(ConstGen::Float),
        any::<i32>().prop_map(ConstGen::Double),
    ]
}

fn operand() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..4, any::<u32>()]
}

fn inst() -> impl Strategy<Value = InstGen> {
    prop_oneof![
        3 => (0u8..13, operand(), operand()).prop_map(|(o, a, b)| InstGen::Bin(o, a, b)),
        1 => (0u8..10, operand(), operand()).prop_map(|(p, a, b)| InstGen::Cmp(p, a, b)),
        2 => operand().prop_map(InstGen::Load),
        2 => (operand(), operand()).prop_map(|(p, v)| InstGen::Store(p, v)),
        1 => operand().prop_map(InstGen::Trunc),
        2 => (any::<u32>(), prop::collection::vec(operand(), 0..4)).prop_map(|(f, a)| InstGen::Call(f, a)),
        1 => (operand(), operand(), operand()).prop_map(|(c, a, b)| InstGen::Select(c, a, b)),
        1 => operand().prop_map(InstGen::Alloca),
    ]
}

fn term() -> impl Strategy<Value = TermGen> {
    prop_oneof![
        Just(TermGen::Next),
        (operand(), any::<u32>()).prop_map(|(c, t)| TermGen::Cond(c, t)),
        (operand(), prop::collection::vec((any::<i32>(), any::<u32>()), 0..4)).prop_map(|(v, c)| TermGen::Switch(v, c)),
        operand().prop_map(TermGen::Ret),
        Just(TermGen::Unreachable),
    ]
}

fn block() -> impl Strategy<Value = BlockGen> {
    (prop::collection::vec(operand(), 0..2), prop::collection::vec(inst(), 0..12), term())
        .prop_map(|(phi, insts, term)| BlockGen { phi, insts, term })
}

fn function() -> impl Strategy<Value = FuncGen> {
    (0..=MAX_PARAMS, any::<bool>(), prop::collection::vec(constant(), 0..10), prop::collection::vec(block(), 1..5))
        .prop_map(|(params, defined, consts, blocks)| FuncGen { params, defined, consts, blocks })
}

fn name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        "[a-zA-Z0-9._]{1,12}".prop_map(String::into_bytes),
        prop::collection::vec(32u8..127, 1..10),
        prop::collection::vec(1u8..=255, 1..6),
    ]
}

fn module() -> impl Strategy<Value = ModuleGen> {
    (
        prop::collection::vec(global(), 0..6),
        prop::collection::vec(function(), 1..6),
        prop::collection::vec((any::<bool>(), any::<u32>(), name()), 0..6),
    )
        .prop_map(|(globals, funcs, names)| ModuleGen { globals, funcs, names })
}

impl ModuleGen {
    /// The module as PNaClAsm.
    fn render(&self) -> String {
        let mut s = String::new();
        let nf = self.funcs.len() as u32;
        let ng = self.globals.len() as u32;
        s.push_str("module {\n  version 1;\n  types {\n    count 10;\n");
        s.push_str(
            "    @t0 = i32;\n    @t1 = i1;\n    @t2 = i8;\n    @t3 = i64;\n    @t4 = float;\n    @t5 = double;\n",
        );
        for n in 0..=MAX_PARAMS {
            let params = vec!["i32"; n as usize].join(", ");
            let _ = writeln!(s, "    @t{} = i32 ({params});", 6 + n);
        }
        s.push_str("  }\n");
        // The first function is always defined, so there is at least one body.
        for (i, f) in self.funcs.iter().enumerate() {
            let params = vec!["i32"; f.params as usize].join(", ");
            if f.defined || i == 0 {
                let _ = writeln!(s, "  define internal i32 @f{i}({params});");
            } else {
                let _ = writeln!(s, "  declare external i32 @f{i}({params});");
            }
        }
        let _ = writeln!(s, "  globals {{\n    count {ng};");
        for (i, g) in self.globals.iter().enumerate() {
            let _ = writeln!(s, "    {} @g{i}, align {},", if g.is_const { "const" } else { "var" }, 1u32 << g.align);
            if g.compound {
                let _ = writeln!(s, "      initializers {} {{", g.inits.len());
            }
            for init in &g.inits {
                match init {
                    InitGen::Data(d) => {
                        let bytes: Vec<String> = d.iter().map(u8::to_string).collect();
                        let _ = writeln!(s, "        {{ {} }}", bytes.join(", "));
                    }
                    InitGen::Zerofill(n) => {
                        let _ = writeln!(s, "        zerofill {};", n + 1);
                    }
                    InitGen::Reloc { target, addend } => {
                        let t = target % (nf + ng);
                        let t = if t < nf { format!("@f{t}") } else { format!("@g{}", t - nf) };
                        match addend {
                            Some(a) => {
                                let _ = writeln!(s, "        reloc {t} + {};", *a as i32);
                            }
                            None => {
                                let _ = writeln!(s, "        reloc {t};");
                            }
                        }
                    }
                }
            }
            if g.compound {
                s.push_str("      }\n");
            }
        }
        s.push_str("  }\n");
        let mut named = std::collections::BTreeMap::new();
        for (is_fn, idx, name) in &self.names {
            let v = if *is_fn || ng == 0 { format!("@f{}", idx % nf) } else { format!("@g{}", idx % ng) };
            named.entry(v).or_insert(name.clone());
        }
        if !named.is_empty() {
            s.push_str("  valuesymtab {\n");
            for (v, name) in named {
                let bytes: Vec<String> = name.iter().map(u8::to_string).collect();
                let _ = writeln!(s, "    {v} : {{{}}}", bytes.join(", "));
            }
            s.push_str("  }\n");
        }
        for (i, f) in self.funcs.iter().enumerate() {
            if f.defined || i == 0 {
                self.render_body(&mut s, i as u32, f);
            }
        }
        s.push_str("}\n");
        s
    }

    fn render_body(&self, s: &mut String, index: u32, f: &FuncGen) {
        let params: Vec<String> = (0..f.params).map(|p| format!("i32 %p{p}")).collect();
        let _ = writeln!(s, "  function i32 @f{index}({}) {{\n    blocks {};", params.join(", "), f.blocks.len());
        // Constants, grouped by type; every function has at least one i32 constant.
        let mut consts = f.consts.clone();
        consts.push(ConstGen::I32(0));
        let order = |c: &ConstGen| match c {
            ConstGen::I8(_) => 0,
            ConstGen::I32(_) | ConstGen::Undef => 1,
            ConstGen::I64(_) => 2,
            ConstGen::Float(_) => 3,
            ConstGen::Double(_) => 4,
        };
        consts.sort_by_key(order);
        let mut pool: Vec<String> = (0..f.params).map(|p| format!("%p{p}")).collect();
        pool.extend((0..self.globals.len()).map(|g| format!("@g{g}")));
        s.push_str("    constants {\n");
        let mut last = None;
        for (k, c) in consts.iter().enumerate() {
            let (ty, value) = match c {
                ConstGen::I8(v) => ("i8", v.to_string()),
                ConstGen::I32(v) => ("i32", v.to_string()),
                ConstGen::Undef => ("i32", "undef".to_string()),
                ConstGen::I64(v) => ("i64", v.to_string()),
                ConstGen::Float(v) => ("float", format!("{:?}", f32::from(*v) / 4.0)),
                ConstGen::Double(v) => ("double", format!("{:?}", f64::from(*v) / 16.0)),
            };
            if last != Some(ty) {
                let _ = writeln!(s, "      {ty}:");
                last = Some(ty);
            }
            let _ = writeln!(s, "        %c{k} = {ty} {value};");
            if ty == "i32" {
                pool.push(format!("%c{k}"));
            }
        }
        s.push_str("    }\n");
        let nb = f.blocks.len() as u32;
        // Predecessors of each block (edges only go forward).
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nb as usize];
        // A conditional branch needs a condition: one of the block's comparisons.
        let targets = |b: u32, blk: &BlockGen| -> Vec<u32> {
            let fwd = |x: u32| if b + 1 < nb { b + 1 + x % (nb - b - 1) } else { b };
            let has_bool = blk.insts.iter().any(|i| matches!(i, InstGen::Cmp(..)));
            match &blk.term {
                TermGen::Next if b + 1 < nb => vec![b + 1],
                TermGen::Cond(_, x) if b + 1 < nb && has_bool => vec![b + 1, fwd(*x)],
                TermGen::Switch(_, cases) if b + 1 < nb => {
                    let mut v = vec![b + 1];
                    v.extend(cases.iter().map(|(_, x)| fwd(*x)));
                    v
                }
                _ => Vec::new(),
            }
        };
        for (b, blk) in f.blocks.iter().enumerate() {
            for t in targets(b as u32, blk) {
                if !preds[t as usize].contains(&(b as u32)) {
                    preds[t as usize].push(b as u32);
                }
            }
        }
        let mut next_value = 0u32;
        let callees: Vec<(u32, u8)> = self.funcs.iter().enumerate().map(|(i, g)| (i as u32, g.params)).collect();
        for (b, blk) in f.blocks.iter().enumerate() {
            let _ = writeln!(s, "  %b{b}:");
            // Values usable here: the function-wide pool, then this block's own results.
            let mut local: Vec<String> = pool.clone();
            let mut bools: Vec<String> = Vec::new();
            if !preds[b].is_empty() {
                for &x in &blk.phi {
                    let incoming: Vec<String> = preds[b]
                        .iter()
                        .enumerate()
                        .map(|(j, p)| format!("[{}, %b{p}]", pool[(x as usize + j) % pool.len()]))
                        .collect();
                    let _ = writeln!(s, "    %v{next_value} = phi i32 {};", incoming.join(", "));
                    local.push(format!("%v{next_value}"));
                    next_value += 1;
                }
            }
            let pick = |v: &[String], x: u32| v[x as usize % v.len()].clone();
            for inst in &blk.insts {
                let v = format!("%v{next_value}");
                match inst {
                    InstGen::Bin(op, a, c) | InstGen::Cmp(op, a, c) => {
                        let is_binop = matches!(inst, InstGen::Bin(..));
                        let operator = if is_binop {
                            BINOPS[*op as usize].to_string()
                        } else {
                            format!("icmp {}", PREDS[*op as usize])
                        };
                        let _ = writeln!(s, "    {v} = {operator} i32 {}, {};", pick(&local, *a), pick(&local, *c));
                        if is_binop { local.push(v) } else { bools.push(v) }
                    }
                    InstGen::Load(p) => {
                        let _ = writeln!(s, "    {v} = load i32* {}, align 1;", pick(&local, *p));
                        local.push(v);
                    }
                    InstGen::Store(p, x) => {
                        let _ = writeln!(s, "    store i32 {}, i32* {}, align 1;", pick(&local, *x), pick(&local, *p));
                        continue;
                    }
                    InstGen::Trunc(x) => {
                        let _ = writeln!(s, "    {v} = trunc i32 {} to i8;", pick(&local, *x));
                    }
                    InstGen::Call(callee, args) => {
                        let (fi, n) = callees[*callee as usize % callees.len()];
                        let args: Vec<String> = (0..n as usize)
                            .map(|k| format!("i32 {}", pick(&local, args.get(k).copied().unwrap_or(k as u32))))
                            .collect();
                        let _ = writeln!(s, "    {v} = call i32 @f{fi}({});", args.join(", "));
                        local.push(v);
                    }
                    InstGen::Select(c, a, x) => {
                        if bools.is_empty() {
                            continue;
                        }
                        let _ = writeln!(
                            s,
                            "    {v} = select i1 {}, i32 {}, i32 {};",
                            pick(&bools, *c),
                            pick(&local, *a),
                            pick(&local, *x)
                        );
                        local.push(v);
                    }
                    InstGen::Alloca(x) => {
                        let _ = writeln!(s, "    {v} = alloca i8, i32 {}, align 4;", pick(&local, *x));
                        local.push(v);
                    }
                }
                next_value += 1;
            }
            let t = targets(b as u32, blk);
            match &blk.term {
                TermGen::Next if !t.is_empty() => {
                    let _ = writeln!(s, "    br label %b{};", t[0]);
                }
                TermGen::Cond(c, _) if !t.is_empty() => {
                    let _ = writeln!(s, "    br i1 {}, label %b{}, label %b{};", pick(&bools, *c), t[0], t[1]);
                }
                TermGen::Switch(x, cases) if !t.is_empty() => {
                    let _ = writeln!(s, "    switch i32 {} {{\n      default: br label %b{};", pick(&local, *x), t[0]);
                    let mut seen = std::collections::BTreeSet::new();
                    for ((value, _), target) in cases.iter().zip(&t[1..]) {
                        if seen.insert(*value) {
                            let _ = writeln!(s, "      i32 {value}: br label %b{target};");
                        }
                    }
                    s.push_str("    }\n");
                }
                TermGen::Unreachable => s.push_str("    unreachable;\n"),
                TermGen::Ret(x) => {
                    let _ = writeln!(s, "    ret i32 {};", pick(&local, *x));
                }
                // A branch the block can't make (last block, no condition): return.
                _ => {
                    let _ = writeln!(s, "    ret i32 {};", pick(&local, 0));
                }
            }
        }
        s.push_str("  }\n");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn compressed_modules_read_back_to_the_same_ir(g in module()) {
        let text = g.render();
        let bytes = pnacl_text::asm::assemble(&text)
            .unwrap_or_else(|e| panic!("the generator wrote invalid PNaClAsm: {e}\n{text}"));
        let m = read(&bytes);
        let listing = assembly_without_abbreviations(&bytes);
        for effort in [Effort::Fast, Effort::Default, Effort::Max] {
            let out = compress(&m, effort).unwrap_or_else(|e| panic!("{effort:?}: {e}\n{text}"));
            prop_assert!(read(&out.bytes).same_contents(&m), "{:?}\n{}", effort, text);
            prop_assert_eq!(&assembly_without_abbreviations(&out.bytes), &listing);
        }
    }
}
