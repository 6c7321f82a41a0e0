//! The type table's order on generated modules with many tied counts, checked against the
//! rule of `NaClValueEnumerator` as `freeze::types` documents it, implemented again here on
//! the generator's own description of each module (not on pnacl's model, and never from
//! pnacl's output):
//!
//! - `EnumerateType(T)`: a pointer counts its pointee; the type is normalized (pointers
//!   `i32`, function types non-vararg with normalized parts); `label` is skipped; the count
//!   goes up on every call; a type met for the first time enumerates its subtypes (return,
//!   parameters; element) and then takes the next phase-1 index (post-order);
//! - the walk: each function's type, in module order; then per function its arguments'
//!   types and per instruction: an elided cast `EnumerateOperandType` of the value LLVM's
//!   one-level `ElideCasts` gives (last writer) or nothing (SDK writer); a switch its
//!   condition; others each operand (global variables count nothing), then the result type;
//! - the table: by descending count, ties by ascending phase-1 index, each type after its
//!   not yet numbered subtypes.
//!
//! Each module is assembled by `llvm-as-14` (typed pointers) and, when it is in PNaCl's
//! normal form, also by `llvm-as-19` (opaque pointers, whose pointees pnacl recovers).

use pnacl_convert::freeze::{FreezeOptions, NameHistory, Writer, freeze};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// A type as the generator knows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum T {
    Void,
    Label,
    Int(u32),
    Float,
    Double,
    Vector(u32, Box<T>),
    Ptr(Box<T>),
    Func(Box<T>, Vec<T>),
}

impl T {
    fn ptr(&self) -> T {
        T::Ptr(Box::new(self.clone()))
    }

    /// LLVM IR spelling, typed or opaque pointers.
    fn ir(&self, opaque: bool) -> String {
        match self {
            T::Void => "void".into(),
            T::Label => "label".into(),
            T::Int(w) => format!("i{w}"),
            T::Float => "float".into(),
            T::Double => "double".into(),
            T::Vector(n, e) => format!("<{n} x {}>", e.ir(opaque)),
            T::Ptr(_) if opaque => "ptr".into(),
            T::Ptr(p) => format!("{}*", p.ir(opaque)),
            T::Func(r, ps) => {
                let ps: Vec<String> = ps.iter().map(|p| p.ir(opaque)).collect();
                format!("{} ({})", r.ir(opaque), ps.join(", "))
            }
        }
    }

    /// PNaClAsm spelling of a normalized type (as `TypeDef` displays).
    fn pnacl(&self) -> String {
        match self {
            T::Func(r, ps) => {
                let ps: Vec<String> = ps.iter().map(T::pnacl).collect();
                format!("{} ({})", r.pnacl(), ps.join(", "))
            }
            other => other.ir(false),
        }
    }
}

/// `NormalizeType`.
fn normalize(t: &T) -> T {
    match t {
        T::Ptr(_) => T::Int(32),
        T::Func(r, ps) => T::Func(Box::new(normalize(r)), ps.iter().map(normalize).collect()),
        other => other.clone(),
    }
}

fn subtypes(t: &T) -> Vec<T> {
    match t {
        T::Func(r, ps) => std::iter::once((**r).clone()).chain(ps.iter().cloned()).collect(),
        T::Vector(_, e) => vec![(**e).clone()],
        _ => Vec::new(),
    }
}

/// An operand: its type, and whether it is a global variable (which counts nothing).
#[derive(Clone, Debug)]
struct Operand {
    ty: T,
    global_var: bool,
}

/// One instruction: its text (without `%name =`), its operands in LLVM operand order, its
/// type, and for an elided cast the operand `ElideCasts` gives.
#[derive(Clone, Debug)]
struct Inst {
    name: Option<String>,
    text: String,
    operands: Vec<Operand>,
    ty: T,
    elided: Option<Operand>,
    switch: bool,
}

struct Func {
    name: String,
    ret: T,
    params: Vec<T>,
    body: Option<Vec<Inst>>,
}

impl Func {
    fn ty(&self) -> T {
        T::Func(Box::new(self.ret.clone()), self.params.clone())
    }
}

/// The rule, independently: the expected type table, as PNaClAsm type spellings.
fn expected_table(funcs: &[Func], count_elided: bool) -> (Vec<String>, bool) {
    #[derive(Default)]
    struct St {
        counts: HashMap<T, u32>,
        phase1: Vec<T>,
    }
    fn enumerate(st: &mut St, t: &T) {
        let t = match t {
            T::Ptr(p) => (**p).clone(),
            other => other.clone(),
        };
        let t = normalize(&t);
        if t == T::Label {
            return;
        }
        *st.counts.entry(t.clone()).or_default() += 1;
        if st.phase1.contains(&t) {
            return;
        }
        for s in subtypes(&t) {
            enumerate(st, &s);
        }
        st.phase1.push(t);
    }
    fn operand(st: &mut St, o: &Operand) {
        if !o.global_var {
            enumerate(st, &o.ty);
        }
    }
    let mut st = St::default();
    for f in funcs {
        enumerate(&mut st, &f.ty().ptr());
    }
    for f in funcs {
        for p in &f.params {
            enumerate(&mut st, p);
        }
        for i in f.body.iter().flatten() {
            if let Some(e) = &i.elided {
                if count_elided {
                    operand(&mut st, e);
                }
                continue;
            }
            let ops = if i.switch { &i.operands[..1] } else { &i.operands[..] };
            for o in ops {
                operand(&mut st, o);
            }
            enumerate(&mut st, &i.ty);
        }
    }
    let mut order: Vec<(u32, usize)> = st.phase1.iter().enumerate().map(|(k, t)| (st.counts[t], k)).collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut counts: Vec<u32> = order.iter().map(|o| o.0).collect();
    let before = counts.len();
    counts.dedup();
    let tied = counts.len() < before;
    fn assign(t: &T, out: &mut Vec<T>) {
        if out.contains(t) {
            return;
        }
        for s in subtypes(t) {
            assign(&s, out);
        }
        out.push(t.clone());
    }
    let mut out = Vec::new();
    for (_, k) in order {
        assign(&st.phase1[k], &mut out);
    }
    (out.iter().map(T::pnacl).collect(), tied)
}

/// SplitMix64: a small seeded generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, X>(&mut self, xs: &'a [X]) -> &'a X {
        &xs[self.below(xs.len())]
    }
}

/// The value types the generator uses (few, so that counts tie often).
fn value_types() -> Vec<T> {
    let i = |w| T::Int(w);
    vec![
        i(8),
        i(16),
        i(32),
        i(64),
        T::Float,
        T::Double,
        T::Vector(4, Box::new(i(32))),
        T::Vector(4, Box::new(T::Float)),
        T::Vector(16, Box::new(i(8))),
        T::Vector(8, Box::new(i(16))),
    ]
}

/// A generated module: its functions and its text.
struct Generated {
    funcs: Vec<Func>,
    /// In PNaCl's normal form (no pointer parameters, no cast of a cast): opaque pointers
    /// then give the same counts.
    normal_form: bool,
    /// Some elided `inttoptr` casts a constant address.
    constant_address: bool,
}

/// Builds one function body: values available by type, instructions recorded with their
/// operands as LLVM sees them.
struct Body<'r> {
    rng: &'r mut Rng,
    insts: Vec<Inst>,
    values: Vec<(String, T)>,
    next: usize,
    normal_form: bool,
    constant_address: bool,
    /// The `i32` values that are elided `ptrtoint` casts, with what they stand for: an
    /// `inttoptr` of one stands for that (`ElideCasts` recurses through `inttoptr`).
    elides_to: HashMap<String, Operand>,
}

fn val(ty: &T) -> Operand {
    Operand { ty: ty.clone(), global_var: false }
}

impl Body<'_> {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn push(&mut self, ty: T, text: String, operands: Vec<Operand>, elided: Option<Operand>) -> String {
        let name = self.fresh();
        self.insts.push(Inst { name: Some(name.clone()), text, operands, ty: ty.clone(), elided, switch: false });
        if !matches!(ty, T::Ptr(_)) {
            self.values.push((name.clone(), ty));
        }
        name
    }

    fn effect(&mut self, ty: T, text: String, operands: Vec<Operand>, switch: bool) {
        self.insts.push(Inst { name: None, text, operands, ty, elided: None, switch });
    }

    /// A value of type `t`: an existing one, or a constant (`undef` for vectors).
    fn value(&mut self, t: &T) -> String {
        let have: Vec<String> = self.values.iter().filter(|v| &v.1 == t).map(|v| v.0.clone()).collect();
        if !have.is_empty() && self.rng.below(3) > 0 {
            return self.rng.pick(&have).clone();
        }
        match t {
            T::Int(_) => format!("{}", self.rng.below(3) + 1),
            T::Float | T::Double => "1.0".into(),
            _ => "undef".into(),
        }
    }

    /// An `i32` address for an `inttoptr`, noting a constant one, and what an `inttoptr`
    /// of it stands for.
    fn address(&mut self) -> (String, Operand) {
        let a = self.value(&T::Int(32));
        self.constant_address |= !a.starts_with('%');
        let elided = self.elides_to.get(&a).cloned().unwrap_or_else(|| val(&T::Int(32)));
        (a, elided)
    }

    /// A pointer to `t` with what `ElideCasts` gives for it: an `inttoptr` of an `i32`
    /// (value or constant), or a `bitcast` of an `alloca`.
    fn pointer(&mut self, t: &T, opaque: bool) -> String {
        let pt = t.ptr();
        if self.rng.below(3) == 0 {
            let a = self.push(T::Int(8).ptr(), "alloca i8, i32 16, align 8".into(), vec![val(&T::Int(32))], None);
            let text = format!("bitcast {} {a} to {}", T::Int(8).ptr().ir(opaque), pt.ir(opaque));
            let b = self.push(pt.clone(), text, vec![val(&T::Int(8).ptr())], Some(val(&T::Int(8).ptr())));
            if !self.normal_form && self.rng.below(2) == 0 {
                // A cast of a cast: one-level ElideCasts stands for the inner cast.
                let u = self.rng.pick(&value_types()).clone();
                let text = format!("bitcast {} {b} to {}", pt.ir(opaque), u.ptr().ir(opaque));
                let c = self.push(u.ptr(), text, vec![val(&pt)], Some(val(&pt)));
                let text = format!("bitcast {} {c} to {}", u.ptr().ir(opaque), pt.ir(opaque));
                return self.push(pt.clone(), text, vec![val(&u.ptr())], Some(val(&u.ptr())));
            }
            return b;
        }
        let (addr, elided) = self.address();
        let text = format!("inttoptr i32 {addr} to {}", pt.ir(opaque));
        self.push(pt, text, vec![val(&T::Int(32))], Some(elided))
    }

    fn instruction(&mut self, funcs: &[(String, T, Vec<T>)], opaque: bool) {
        let types = value_types();
        let t = self.rng.pick(&types).clone();
        let ty = t.ir(opaque);
        match self.rng.below(12) {
            0 | 1 => {
                let p = self.pointer(&t, opaque);
                let text = format!("load {ty}, {} {p}, align 1", t.ptr().ir(opaque));
                self.push(t.clone(), text, vec![val(&t.ptr())], None);
            }
            2 | 3 => {
                let v = self.value(&t);
                let p = self.pointer(&t, opaque);
                let text = format!("store {ty} {v}, {} {p}, align 1", t.ptr().ir(opaque));
                self.effect(T::Void, text, vec![val(&t), val(&t.ptr())], false);
            }
            4 => {
                let (a, b) = (self.value(&t), self.value(&t));
                let op = if matches!(t, T::Float | T::Double) || t == types[7] { "fadd" } else { "add" };
                self.push(t.clone(), format!("{op} {ty} {a}, {b}"), vec![val(&t), val(&t)], None);
            }
            5 => {
                let Some((name, ret, params)) = (!funcs.is_empty()).then(|| self.rng.pick(funcs).clone()) else {
                    return;
                };
                let mut args = Vec::new();
                let mut operands = Vec::new();
                for p in &params {
                    let a = match p {
                        T::Ptr(inner) => self.pointer(inner, opaque),
                        other => self.value(other),
                    };
                    args.push(format!("{} {a}", p.ir(opaque)));
                    operands.push(val(p));
                }
                let fty = T::Func(Box::new(ret.clone()), params.clone());
                operands.push(val(&fty.ptr()));
                let text = format!("call {} @{name}({})", ret.ir(opaque), args.join(", "));
                if ret == T::Void {
                    self.effect(T::Void, text, operands, false);
                } else {
                    self.push(ret, text, operands, None);
                }
            }
            6 => {
                // An indirect call: its callee an elided inttoptr, counted by its pointee.
                let ret = if self.rng.below(2) == 0 { T::Void } else { t.clone() };
                let params: Vec<T> = (0..self.rng.below(3)).map(|_| self.rng.pick(&types).clone()).collect();
                let fty = T::Func(Box::new(ret.clone()), params.clone());
                let callee = {
                    let (addr, elided) = self.address();
                    let text = format!("inttoptr i32 {addr} to {}", fty.ptr().ir(opaque));
                    self.push(fty.ptr(), text, vec![val(&T::Int(32))], Some(elided))
                };
                let mut args = Vec::new();
                let mut operands = Vec::new();
                for p in &params {
                    let a = self.value(p);
                    args.push(format!("{} {a}", p.ir(opaque)));
                    operands.push(val(p));
                }
                operands.push(val(&fty.ptr()));
                let text = format!("call {} {callee}({})", ret.ir(opaque), args.join(", "));
                if ret == T::Void {
                    self.effect(T::Void, text, operands, false);
                } else {
                    self.push(ret, text, operands, None);
                }
            }
            7 => {
                let (a, b) = (self.value(&t), self.value(&t));
                let (op, rt) = match &t {
                    T::Float | T::Double => ("fcmp olt", T::Int(1)),
                    T::Vector(n, e) if **e == T::Float => ("fcmp olt", T::Vector(*n, Box::new(T::Int(1)))),
                    T::Vector(n, _) => ("icmp slt", T::Vector(*n, Box::new(T::Int(1)))),
                    _ => ("icmp slt", T::Int(1)),
                };
                self.push(rt, format!("{op} {ty} {a}, {b}"), vec![val(&t), val(&t)], None);
            }
            8 => {
                // The address of a global variable: an elided ptrtoint of a global, nothing.
                let g = Operand { ty: T::Vector(1, Box::new(T::Int(8))), global_var: true };
                let text = format!("ptrtoint {} @g to i32", if opaque { "ptr" } else { "[8 x i8]*" });
                let name = self.push(T::Int(32), text, vec![g.clone()], Some(g.clone()));
                self.elides_to.insert(name, g);
            }
            10 => {
                // A direct call with another function type: in typed IR through a bitcast
                // of the function (elided, standing for the function); opaque IR calls the
                // function itself with the call's type.
                let Some((name, fret, fparams)) = (!funcs.is_empty()).then(|| self.rng.pick(funcs).clone()) else {
                    return;
                };
                let ret = if self.rng.below(2) == 0 { T::Void } else { t.clone() };
                let params: Vec<T> = (0..self.rng.below(3)).map(|_| self.rng.pick(&types).clone()).collect();
                let (fty, own) = (T::Func(Box::new(ret.clone()), params.clone()), T::Func(Box::new(fret), fparams));
                if normalize(&fty) == normalize(&own) {
                    return;
                }
                let callee = if opaque {
                    format!("@{name}")
                } else {
                    let text = format!("bitcast {} @{name} to {}", own.ptr().ir(false), fty.ptr().ir(false));
                    self.push(fty.ptr(), text, vec![val(&own.ptr())], Some(val(&own.ptr())))
                };
                let mut args = Vec::new();
                let mut operands = Vec::new();
                for p in &params {
                    let a = self.value(p);
                    args.push(format!("{} {a}", p.ir(opaque)));
                    operands.push(val(p));
                }
                operands.push(val(&fty.ptr()));
                let text = format!("call {} {callee}({})", ret.ir(opaque), args.join(", "));
                if ret == T::Void {
                    self.effect(T::Void, text, operands, false);
                } else {
                    self.push(ret, text, operands, None);
                }
            }
            9 => {
                // An alloca's address as an integer: an elided ptrtoint, counted by the
                // alloca's pointee i8.
                let a = self.push(T::Int(8).ptr(), "alloca i8, i32 8, align 4".into(), vec![val(&T::Int(32))], None);
                let text = format!("ptrtoint {} {a} to i32", T::Int(8).ptr().ir(opaque));
                let name = self.push(T::Int(32), text, vec![val(&T::Int(8).ptr())], Some(val(&T::Int(8).ptr())));
                self.elides_to.insert(name, val(&T::Int(8).ptr()));
            }
            _ => {
                let (from, to) = match self.rng.below(3) {
                    0 => (T::Int(8), T::Int(32)),
                    1 => (T::Int(64), T::Int(16)),
                    _ => (T::Int(32), T::Double),
                };
                let op = match (&from, &to) {
                    (_, T::Double) => "sitofp",
                    (T::Int(64), _) => "trunc",
                    _ => "sext",
                };
                let x = self.value(&from);
                let text = format!("{op} {} {x} to {}", from.ir(opaque), to.ir(opaque));
                self.push(to, text, vec![val(&from)], None);
            }
        }
    }

    /// The entry block's terminator: a branch or a switch to `exit`.
    fn terminator(&mut self) {
        if self.rng.below(2) == 0 {
            self.effect(T::Void, "br label %exit".into(), vec![val(&T::Label)], false);
        } else {
            let x = self.value(&T::Int(32));
            let text = format!("switch i32 {x}, label %exit [ i32 7, label %exit ]");
            self.effect(T::Void, text, vec![val(&T::Int(32)), val(&T::Label), val(&T::Label)], true);
        }
    }
}

fn generate(seed: u64, opaque: bool) -> (Generated, String) {
    let mut rng = Rng(seed);
    let normal_form = rng.below(2) == 0;
    let types = value_types();
    let n = 1 + rng.below(4);
    let mut sigs: Vec<(String, T, Vec<T>)> = Vec::new();
    for k in 0..n {
        let ret = if rng.below(3) == 0 { T::Void } else { rng.pick(&types).clone() };
        let params: Vec<T> = (0..rng.below(4))
            .map(|_| {
                let p = rng.pick(&types).clone();
                if !normal_form && rng.below(4) == 0 { p.ptr() } else { p }
            })
            .collect();
        sigs.push((format!("f{k}"), ret, params));
    }
    let mut funcs = Vec::new();
    let mut constant_address = false;
    for (name, ret, params) in &sigs {
        let defined = rng.below(4) > 0;
        let body = defined.then(|| {
            let mut b = Body {
                rng: &mut rng,
                insts: Vec::new(),
                values: Vec::new(),
                next: 0,
                normal_form,
                constant_address,
                elides_to: HashMap::new(),
            };
            for (k, p) in params.iter().enumerate() {
                if !matches!(p, T::Ptr(_)) {
                    b.values.push((format!("%p{k}"), p.clone()));
                }
            }
            for _ in 0..b.rng.below(7) {
                b.instruction(&sigs, opaque);
            }
            let (text, operands) = match ret {
                T::Void => ("ret void".to_string(), vec![]),
                r => {
                    let v = b.value(r);
                    (format!("ret {} {v}", r.ir(opaque)), vec![val(r)])
                }
            };
            // The return in block `exit`, after the entry block's terminator.
            b.terminator();
            b.effect(T::Void, text, operands, false);
            constant_address = b.constant_address;
            b.insts
        });
        funcs.push(Func { name: name.clone(), ret: ret.clone(), params: params.clone(), body });
    }
    let mut text = String::from("@g = internal global [8 x i8] zeroinitializer, align 4\n\n");
    for f in &funcs {
        let params: Vec<String> = f.params.iter().enumerate().map(|(k, p)| format!("{} %p{k}", p.ir(opaque))).collect();
        let head = format!("{} @{}({})", f.ret.ir(opaque), f.name, params.join(", "));
        let Some(body) = &f.body else {
            writeln!(text, "declare {head}\n").unwrap();
            continue;
        };
        writeln!(text, "define internal {head} {{\nentry:").unwrap();
        let last = body.len() - 1;
        for (k, i) in body.iter().enumerate() {
            if k == last {
                text.push_str("exit:\n");
            }
            match &i.name {
                Some(n) => writeln!(text, "  {n} = {}", i.text).unwrap(),
                None => writeln!(text, "  {}", i.text).unwrap(),
            }
        }
        text.push_str("}\n\n");
    }
    (Generated { funcs, normal_form, constant_address }, text)
}

/// Assembles `text` with `llvm-as` of LLVM `version`.
fn assemble(text: &str, version: u32) -> Vec<u8> {
    let tool = pnacl_testutil::llvm_tool("llvm-as", version);
    let mut child = Command::new(&tool)
        .args(["-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", tool.display()));
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write the module");
    let out = child.wait_with_output().expect("llvm-as");
    assert!(out.status.success(), "llvm-as-{version} refused:\n{}\n{text}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// The type table pnacl freezes `bitcode` with, by `writer`, or its refusal.
fn frozen_table(bitcode: &[u8], writer: Writer) -> Result<Vec<String>, String> {
    let m = pnacl_llvm::read(bitcode).expect("pnacl reads llvm-as's bitcode");
    assert_eq!(Writer::for_module(&m), Writer::Pnacl2016, "bitcode of today's llvm-as is the last writer's");
    let options = FreezeOptions { writer, ..FreezeOptions::default() };
    let pm = freeze(&m, NameHistory::Assembled, &options).map_err(|e| e.to_string())?;
    Ok(pm.types.iter().map(ToString::to_string).collect())
}

#[test]
fn generated_modules_with_tied_counts_follow_the_rule() {
    const SEEDS: u64 = 300;
    let (mut tied, mut opaque_checked, mut refused, mut failures) = (0, 0, 0, Vec::new());
    for seed in 1..=SEEDS {
        let (typed, text) = generate(seed, false);
        let bitcode = assemble(&text, 14);
        let mut versions = vec![(bitcode, "llvm-as-14")];
        if typed.normal_form {
            let (_, opaque_text) = generate(seed, true);
            versions.push((assemble(&opaque_text, 19), "llvm-as-19"));
            opaque_checked += 1;
        }
        for (writer, count_elided) in [(Writer::Pnacl2016, true), (Writer::Pnacl2015, false)] {
            let (want, has_tie) = expected_table(&typed.funcs, count_elided);
            tied += usize::from(has_tie && count_elided);
            // The SDKs' writer numbers no type for a constant address that only elided
            // casts use (NaCl issue 4353): pnacl refuses such a module for that writer.
            let unnumbered = typed.constant_address && !want.iter().any(|t| t == "i32");
            for (bitcode, tool) in &versions {
                let got = frozen_table(bitcode, writer);
                let ok = match &got {
                    Ok(table) => !unnumbered && table == &want,
                    Err(e) => unnumbered && e.contains("issue 4353"),
                };
                if !ok {
                    failures.push(format!("seed {seed}, {writer:?}, {tool}: got {got:?}, want {want:?}\n{text}"));
                }
                refused += usize::from(unnumbered);
            }
        }
    }
    assert!(failures.is_empty(), "{} of {SEEDS} modules differ:\n{}", failures.len(), failures.join("\n"));
    // The generator exists for the ties: most modules must have some.
    assert!(tied * 2 > SEEDS as usize, "only {tied} of {SEEDS} modules have tied counts");
    assert!(opaque_checked * 4 > SEEDS as usize, "only {opaque_checked} modules in normal form");
    println!("{SEEDS} modules: {tied} with tied counts, {opaque_checked} also opaque, {refused} refusals (2015)");
}
