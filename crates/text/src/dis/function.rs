//! Function blocks as pnacl-bcdis lists and checks them.

use super::types::{I1, I32, T, VOID};
use super::walk::{Block, FunctionBlock, Walker};
use pnacl_bitcode::codes::function as fc;
use pnacl_bitstream::{Enter, Record};

const ICMP: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
const FCMP: [&str; 16] =
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true"];

impl Walker<'_> {
    pub(super) fn enter_function(&mut self, b: &mut Block, e: &Enter) {
        self.params.clear();
        self.consts.clear();
        self.insts.clear();
        self.num_valued = 0;
        let (f, ty) = match self.m.defined.get(self.num_defined) {
            Some(&f) => {
                self.num_defined += 1;
                (f, self.m.fn_types[f as usize])
            }
            None => {
                self.d.error_line("No corresponding defining function address for function block.");
                (0, self.m.types.function(VOID, &[], false))
            }
        };
        if let Some((_, params, _)) = self.m.types.signature(ty) {
            self.params.extend_from_slice(params);
        }
        let intrinsic = self.m.fn_intrinsic.get(f as usize).copied().unwrap_or(false);
        if !intrinsic && self.abi && !self.m.types.is_valid_function(ty) {
            self.d.error_line(format_args!("Invalid type signature for @f{f}: {}", self.m.types.show(ty)));
        }
        self.d.asm.text("function").space();
        self.m.types.tokens(&mut self.d.asm, ty, Some(f), true);
        self.d.asm.space().open("{").space().space().text("// BlockID = ").num(u64::from(e.block_id)).endline();
        b.function = Some(FunctionBlock {
            current_bb: -1,
            expected_bbs: 0,
            terminating: false,
            max_values: u64::from(e.length_words) * 8,
        });
    }

    pub(super) fn exit_function(&mut self, b: &mut Block) {
        let Some(f) = &b.function else { return };
        let found = f.current_bb + 1;
        let expected = f.expected_bbs;
        if found == 0 {
            self.d.error_line("Function doesn't contain any basic blocks");
        }
        if i64::from(expected) != found {
            self.d.error_line(format_args!("Function expected {expected} basic blocks. Found: {found}"));
        }
    }

    /// Absolute index of the first instruction value.
    fn first_inst(&self) -> u32 {
        (self.m.fn_types.len() as u32)
            .wrapping_add(self.m.num_globals)
            .wrapping_add(self.params.len() as u32)
            .wrapping_add(self.consts.len() as u32)
    }

    /// A relative operand as an absolute value index.
    fn relative(&mut self, raw: u64) -> u32 {
        let id = raw as u32 as i32;
        let mut next = self.first_inst().wrapping_add(self.num_valued);
        if id > 0 && next < id as u32 {
            self.d.error_line(format_args!("Invalid relative value id: {id} (Must be <= {next})"));
            next = id as u32;
        }
        next.wrapping_sub(id as u32)
    }

    /// Defines the type of instruction value `index` (the next one if `None`).
    fn install_inst(&mut self, t: T, index: Option<u32>, max_values: u64) {
        let index = index.unwrap_or_else(|| {
            self.num_valued += 1;
            self.num_valued - 1
        });
        if index as usize == self.insts.len() && u64::from(index) < max_values {
            // The common case: the next value, not declared ahead.
            self.insts.push(t);
            return;
        }
        if u64::from(index) >= max_values.max(self.insts.len() as u64 + 1) {
            self.d
                .error_line(format_args!("Can't define type {} for %v{index}. Index too large", self.m.types.show(t)));
            return;
        }
        while self.insts.len() <= index as usize {
            self.insts.push(VOID);
        }
        let old = self.insts[index as usize];
        if old != VOID && old != t {
            self.d.error_line(format_args!(
                "%v{index} defined with multiple types: {} and {}",
                self.m.types.show(t),
                self.m.types.show(old)
            ));
        }
        self.insts[index as usize] = t;
    }

    /// `%vN = ` for the next instruction value.
    fn def(&mut self) {
        self.d.asm.text("%v").num(u64::from(self.num_valued)).space().text("=").space();
    }

    /// `TYPE NAME`.
    fn typed(&mut self, t: T, v: u32) {
        self.m.types.tokens(&mut self.d.asm, t, None, false);
        self.d.asm.space();
        self.name(v);
    }

    pub(super) fn ty(&mut self, t: T) {
        self.m.types.tokens(&mut self.d.asm, t, None, false);
    }

    fn check_branch(&mut self, bb: u64, expected: u32) {
        if bb == 0 || bb >= u64::from(expected) {
            self.d.error_line(format_args!("Branch %b{bb} out of range. Not in [1,{expected}]"));
        }
    }

    pub(super) fn function_record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        self.d.record_pos = r.pos;
        let Some(f) = b.function.as_mut() else { return };
        if f.terminating {
            f.terminating = false;
            f.current_bb += 1;
            self.d.label(f.current_bb as u64);
        }
        let v = r.ops;
        let max_values = f.max_values;
        let expected_bbs = f.expected_bbs;
        let mut terminating = false;
        let mut declared = None;
        let arity = |w: &mut Self, ok: bool, message: &str| {
            if !ok {
                w.d.error_line(format_args!("{message}{}", v.len()));
            }
            ok
        };
        match r.code {
            fc::DECLAREBLOCKS => {
                terminating = true;
                if v.len() != 1 {
                    self.d.error_line("Function blocks record expects a size argument.");
                } else {
                    declared = Some(v[0] as u32);
                    if v[0] as u32 == 0 {
                        self.d.error_line("Functions must contain at least one block.");
                    }
                    self.d.asm.text("blocks").space().num(u64::from(v[0] as u32)).token(";");
                }
            }
            fc::BINOP => {
                if arity(self, v.len() == 3, "Binop record expects 3 arguments. Found: ") {
                    let (a, c) = (self.relative(v[0]), self.relative(v[1]));
                    let (ta, tc) = (self.value_type(a, false), self.value_type(c, false));
                    if ta != tc {
                        self.d.error_line(format_args!(
                            "Binop argument types differ: {} and {}",
                            self.m.types.show(ta),
                            self.m.types.show(tc)
                        ));
                    }
                    let op = self.binop(v[2], ta);
                    self.def();
                    self.d.asm.text(op).space();
                    self.typed(ta, a);
                    self.d.asm.token(",").space();
                    self.name(c);
                    self.d.asm.token(";");
                    self.install_inst(ta, None, max_values);
                }
            }
            fc::CAST => {
                if arity(self, v.len() == 3, "Cast record expects 3 argments. Found: ") {
                    let x = self.relative(v[0]);
                    let from = self.value_type(x, false);
                    let to = self.get_type(v[1]);
                    let op = self.cast(v[2], from, to);
                    self.def();
                    self.d.asm.text(op).space();
                    self.typed(from, x);
                    self.d.asm.space().text("to").space();
                    self.ty(to);
                    self.d.asm.token(";");
                    self.install_inst(to, None, max_values);
                }
            }
            fc::RET => {
                terminating = true;
                self.d.asm.text("ret").space();
                match v.len() {
                    0 => {
                        self.d.asm.text("void");
                    }
                    1 => {
                        let x = self.relative(v[0]);
                        let t = self.value_type(x, false);
                        self.typed(t, x);
                    }
                    n => self.d.error_line(format_args!(
                        "Function return record expects an optional return argument. Found: {n} arguments"
                    )),
                }
                self.d.asm.token(";");
            }
            fc::BR => {
                terminating = true;
                if arity(self, v.len() == 1 || v.len() == 3, "Function branch record expects 1 or 3 arguments. Found: ")
                {
                    self.d.asm.text("br").space();
                    if v.len() == 3 {
                        let c = self.relative(v[2]);
                        let t = self.value_type(c, false);
                        if t != I1 {
                            self.d.error_line("Branch condition not i1");
                        }
                        self.d.asm.start();
                        self.typed(t, c);
                        self.d.asm.token(",").finish().space();
                    }
                    self.check_branch(v[0], expected_bbs);
                    self.d.asm.start().text("label").space().text("%b").num(v[0]);
                    if v.len() == 3 {
                        self.check_branch(v[1], expected_bbs);
                        self.d.asm.token(",").finish().space().start().text("label").space().text("%b").num(v[1]);
                    }
                    self.d.asm.token(";").finish();
                }
            }
            fc::SWITCH => {
                terminating = true;
                if arity(self, v.len() >= 4, "Function switch record expects at least 4 arguments. Found: ") {
                    self.switch(v, expected_bbs);
                }
            }
            fc::UNREACHABLE => {
                terminating = true;
                if !v.is_empty() {
                    self.d.error_line(format_args!(
                        "Function unreachable record expects no arguments. Found: {}",
                        v.len()
                    ));
                }
                self.d.asm.text("unreachable").token(";");
            }
            fc::PHI => {
                if arity(self, v.len() >= 3, "Function phi record expects at least 3 arguments. Found: ") {
                    if v.len().is_multiple_of(2) {
                        self.d.error_line(format_args!(
                            "Function phi records should have an odd number of arguments. Found: {}",
                            v.len()
                        ));
                    }
                    let t = self.get_type(v[0]);
                    self.d.asm.text("%v").num(u64::from(self.num_valued)).space().text("=").start().space();
                    self.d.asm.text("phi").space();
                    self.ty(t);
                    let mut i = 1;
                    while i < v.len() {
                        if i > 1 {
                            self.d.asm.token(",");
                        }
                        let x = self.relative(pnacl_bitcode::ir::decode_sign_rotated(v[i]) as u64);
                        self.d.asm.finish().space().start().open("[");
                        self.name(x);
                        // An even count leaves the last value without a block: the original
                        // reads past the record (a zero there, in practice).
                        let bb = v.get(i + 1).copied().unwrap_or(0);
                        self.d.asm.token(",").space().text("%b").num(bb).close("]");
                        i += 2;
                    }
                    self.d.asm.token(";").finish();
                    self.install_inst(t, None, max_values);
                }
            }
            fc::ALLOCA => {
                if arity(self, v.len() == 2, "Function alloca record expects 2 arguments. Found: ") {
                    let size = self.relative(v[0]);
                    let st = self.value_type(size, false);
                    let align = self.alignment(v[1]);
                    if self.abi && st != I32 {
                        self.d.error_line("alloca array size is not i32");
                    }
                    self.def();
                    self.d.asm.start().text("alloca").space().text("i8").token(",").finish().space().start();
                    self.typed(st, size);
                    self.d.asm.token(",").finish().space().start().text("align").space().num(u64::from(align));
                    self.d.asm.token(";").finish();
                    self.install_inst(I32, None, max_values);
                }
            }
            fc::LOAD => {
                if arity(self, v.len() == 3, "Function load record expects 3 arguments. Found: ") {
                    let align = self.alignment(v[1]);
                    let t = self.get_type(v[2]);
                    self.check_scalar_or_vector("load", t);
                    self.check_access_alignment("load", t, align);
                    self.def();
                    self.d.asm.start().text("load").space();
                    self.ty(t);
                    self.d.asm.text("*").space();
                    let p = self.relative(v[0]);
                    self.name(p);
                    self.d.asm.token(",").finish().space().start().text("align").space().num(u64::from(align));
                    self.d.asm.token(";").finish();
                    self.install_inst(t, None, max_values);
                }
            }
            fc::STORE => {
                if arity(self, v.len() == 3, "Function store record expects 3 arguments. Found: ") {
                    let align = self.alignment(v[2]);
                    let x = self.relative(v[1]);
                    let t = self.value_type(x, false);
                    self.check_scalar_or_vector("store", t);
                    self.check_access_alignment("store", t, align);
                    self.d.asm.start().text("store").space();
                    self.typed(t, x);
                    self.d.asm.token(",").finish().space().start();
                    self.ty(t);
                    self.d.asm.text("*").space();
                    let p = self.relative(v[0]);
                    self.name(p);
                    self.d.asm.token(",").finish().space().start().text("align").space().num(u64::from(align));
                    self.d.asm.token(";").finish();
                }
            }
            fc::CMP2 => {
                if arity(self, v.len() == 3, "Function compare record expects 3 arguments. Found: ") {
                    self.compare(v, max_values);
                }
            }
            fc::VSELECT => {
                if arity(self, v.len() == 3, "Select record expects 3 arguments. Found: ") {
                    self.select(v, max_values);
                }
            }
            fc::EXTRACTELT => {
                if arity(self, v.len() == 2, "Extract element record expects 2 arguments. Found: ") {
                    let (x, i) = (self.relative(v[0]), self.relative(v[1]));
                    self.check_indexed_vector("extractelement", x, i);
                    let (vt, it) = (self.value_type(x, false), self.value_type(i, false));
                    self.d.asm.text("%v").num(u64::from(self.num_valued)).space().text(" = ").space().start();
                    self.d.asm.text("extractelement").space();
                    self.typed(vt, x);
                    self.d.asm.token(",").finish().space().start();
                    self.typed(it, i);
                    self.d.asm.token(";").finish();
                    let elt = self.m.types.scalar(vt);
                    self.install_inst(elt, None, max_values);
                }
            }
            fc::INSERTELT => self.insert_element(v, max_values),
            fc::CALL | fc::CALL_INDIRECT => self.call(r, max_values),
            fc::FORWARDTYPEREF => {
                if arity(self, v.len() == 2, "Forward declare record expects 2 arguments. Found: ") {
                    let t = self.get_type(v[1]);
                    self.d.asm.text("declare").space().start();
                    self.ty(t);
                    self.d.asm.space();
                    self.name(v[0] as u32);
                    self.d.asm.token(";").finish();
                    let index = (v[0] as u32).wrapping_sub(self.first_inst());
                    self.install_inst(t, Some(index), max_values);
                }
            }
            _ => self.d.error_line("Unknown record found in module block."),
        }
        self.d.annotation(r.abbrev_id, b.global_abbrevs);
        self.d.asm.endline();
        self.d.write_record(r);
        if let Some(f) = b.function.as_mut() {
            f.terminating |= terminating;
            if let Some(n) = declared {
                f.expected_bbs = n;
            }
        }
    }

    fn switch(&mut self, v: &[u64], expected_bbs: u32) {
        let t = self.get_type(v[0]);
        let c = self.relative(v[1]);
        let ct = self.value_type(c, false);
        if t != ct {
            self.d.error_line(format_args!(
                "Specified select type {} but found: {}",
                self.m.types.show(t),
                self.m.types.show(ct)
            ));
        }
        if self.abi && !self.m.types.is_valid_int_arithmetic(ct) {
            let message = match self.m.types.int_bits(ct) {
                None => "switch not on integer type",
                Some(1) => "switch on i1 not allowed",
                Some(_) => "switch disallowed for integer type",
            };
            self.d.error_line(message);
        }
        let default = v[2];
        let cases = v[3];
        self.check_branch(default, expected_bbs);
        self.d.asm.text("switch").space().start().start();
        self.ty(t);
        self.d.asm.space();
        self.name(c);
        self.d.asm.finish().space().text("{").finish().endline();
        self.d.asm.indent(1);
        self.d.asm.start().text("default").text(":").space().finish();
        self.d
            .asm
            .start()
            .text("br")
            .space()
            .text("label")
            .space()
            .text("%b")
            .num(default)
            .token(";")
            .finish()
            .endline();
        let mut at = 4;
        for _ in 0..cases {
            if at + 3 >= v.len() {
                self.d.error_line(format_args!("Incomplete case entry in switch. At index: {at}"));
                break;
            }
            let (items, single) = (v[at], v[at + 1]);
            at += 2;
            if items != 1 || single == 0 {
                self.d.error_line("Case ranges are not supported in PNaCl");
                break;
            }
            let value = v[at];
            let label = v[at + 1];
            at += 2;
            self.check_branch(label, expected_bbs);
            self.d.asm.start();
            self.ty(t);
            self.d.asm.space();
            if value & 1 == 1 && t != I1 {
                self.d.asm.text("-");
            }
            self.d.asm.num(value >> 1).text(":").space().finish();
            self.d.asm.start().text("br").space().text("label").space().text("%b").num(label).token(";").finish();
            self.d.asm.endline();
        }
        self.d.asm.indent(-1);
        self.d.asm.text("}");
    }

    fn compare(&mut self, v: &[u64], max_values: u64) {
        let (a, c) = (self.relative(v[0]), self.relative(v[1]));
        let (ta, tc) = (self.value_type(a, false), self.value_type(c, false));
        if ta != tc {
            self.d.error_line(format_args!(
                "Arguments not of same type: {} and {}",
                self.m.types.show(ta),
                self.m.types.show(tc)
            ));
        }
        self.def();
        self.d.asm.start();
        let base = self.m.types.scalar(ta);
        if self.m.types.int_bits(base).is_some() {
            let pred = self.predicate(&ICMP, v[2].wrapping_sub(32), v[2], "Icmp");
            self.d.asm.text("icmp").space().text(pred);
        } else if self.m.types.is_float(base) {
            let pred = self.predicate(&FCMP, v[2], v[2], "Fcmp");
            self.d.asm.text("fcmp").space().text(pred);
        } else {
            self.d.error_line(format_args!("Compare not on integer/float type. Found: {}", self.m.types.show(ta)));
            self.d.asm.text("cmp").space().text("???(").num(v[2]).text(")");
        }
        self.d.asm.finish().space().start();
        self.typed(ta, a);
        self.d.asm.token(",").finish().space().start();
        self.name(c);
        self.d.asm.token(";").finish();
        let result = match self.m.types.lanes(ta) {
            Some(n) => self.m.types.vector(n, I1),
            None => I1,
        };
        self.install_inst(result, None, max_values);
    }

    fn predicate(&mut self, names: &[&'static str], index: u64, raw: u64, what: &str) -> &'static str {
        match names.get(index as usize) {
            Some(&p) => p,
            None => {
                self.d.error_line(format_args!("{what} predicate not understood: {raw}"));
                "???"
            }
        }
    }

    fn select(&mut self, v: &[u64], max_values: u64) {
        let cond = self.relative(v[2]);
        let (x, y) = (self.relative(v[0]), self.relative(v[1]));
        let ct = self.value_type(cond, false);
        let (tx, ty) = (self.value_type(x, false), self.value_type(y, false));
        if tx != ty {
            self.d.error_line(format_args!(
                "Selected arguments not of same type: {} and {}",
                self.m.types.show(tx),
                self.m.types.show(ty)
            ));
        }
        let base = self.m.types.scalar(tx);
        if !(self.m.types.int_bits(base).is_some() || self.m.types.is_float(base)) {
            self.d.error(format_args!("Select arguments not integer/float. Found: {}", self.m.types.show(tx)));
        }
        self.def();
        self.d.asm.start().text("select").space();
        self.typed(ct, cond);
        self.d.asm.token(",").finish().space().start();
        self.typed(tx, x);
        self.d.asm.token(",").finish().space().start();
        self.typed(ty, y);
        self.d.asm.token(";").finish();
        self.install_inst(tx, None, max_values);
    }

    fn insert_element(&mut self, v: &[u64], max_values: u64) {
        // The original checks no arity here, and reads what is there.
        let operand = |w: &mut Self, i: usize| w.relative(v.get(i).copied().unwrap_or(0));
        let (x, e, i) = (operand(self, 0), operand(self, 1), operand(self, 2));
        self.check_indexed_vector("insertelement", x, i);
        let vt = self.value_type(x, false);
        let et = self.value_type(e, false);
        let it = self.value_type(i, false);
        let elt = self.m.types.scalar(vt);
        if et != elt {
            self.d.error_line(format_args!(
                "insertelement: Illegal element type {}. Expected: {}",
                self.m.types.show(et),
                self.m.types.show(elt)
            ));
        }
        self.d.asm.text("%v").num(u64::from(self.num_valued)).space().text(" = ").space().start();
        self.d.asm.text("insertelement").space();
        self.typed(vt, x);
        self.d.asm.token(",").finish().space().start();
        self.typed(et, e);
        self.d.asm.token(",").finish().space().start();
        self.typed(it, i);
        self.d.asm.token(";").finish();
        self.install_inst(vt, None, max_values);
    }

    fn call(&mut self, r: &Record<'_, '_>, max_values: u64) {
        let v = r.ops;
        let direct = r.code == fc::CALL;
        let start = if direct { 2 } else { 3 };
        if v.len() < start {
            self.d.error_line(format_args!("Call record expects at least {start} arguments. Found: {}", v.len()));
            return;
        }
        let callee = self.relative(v[1]);
        let mut nparams = v.len() - start;
        let mut signature = None;
        let ret;
        let mut intrinsic = false;
        if direct {
            let ft = self.value_type(callee, true);
            match self.m.types.signature(ft) {
                Some((rt, params, _)) => {
                    ret = rt;
                    let expects = params.len();
                    signature = Some(ft);
                    if nparams != expects {
                        self.d.error_line(format_args!("Call has {nparams} parameters. Signature expects: {expects}"));
                        nparams = nparams.min(expects);
                    }
                }
                None => {
                    self.d.error_line(format_args!("Invalid function signature: {}", self.m.types.show(ft)));
                    ret = VOID;
                }
            }
            intrinsic = self.m.fn_intrinsic.get(callee as usize).copied().unwrap_or(false);
        } else {
            ret = self.get_type(v[2]);
            let at = self.value_type(callee, false);
            if at != I32 {
                self.d.error_line(format_args!("Call indirect address not i32. Found: {}", self.m.types.show(at)));
            }
        }
        let mut args = std::mem::take(&mut self.call_args);
        args.clear();
        for &a in &v[start..start + nparams] {
            let id = self.relative(a);
            args.push((self.value_type(id, false), id));
        }
        if !intrinsic && self.abi && !self.m.types.is_valid_param(ret) && ret != VOID {
            self.d.error_line(format_args!("Invalid return type: {}", self.m.types.show(ret)));
        }
        if let Some(ft) = signature {
            for (i, &(t, _)) in args.iter().enumerate() {
                let want = self.m.types.signature(ft).map_or(VOID, |(_, params, _)| params[i]);
                if t != want {
                    self.d.error_line(format_args!(
                        "Parameter {} mismatch: {} and {}",
                        i + 1,
                        self.m.types.show(t),
                        self.m.types.show(want)
                    ));
                } else if !intrinsic && self.abi && !self.m.types.is_valid_param(t) {
                    self.d.error_line(format_args!("Invalid type for parameter {i}: {}", self.m.types.show(t)));
                }
            }
        }
        let tail = v[0] & 1 == 1;
        let cc = v[0] >> 1;
        if cc != 0 {
            self.d.error_line(format_args!("Call unknown calling convention:{cc}"));
        }
        if ret != VOID {
            self.def();
        }
        if tail {
            self.d.asm.text("tail").space();
        }
        self.d.asm.text("call").space();
        self.ty(ret);
        self.d.asm.space().start();
        self.name(callee);
        self.d.asm.open("(").start();
        for (i, &(t, id)) in args.iter().enumerate() {
            if i > 0 {
                self.d.asm.token(",").finish().space().start();
            }
            self.typed(t, id);
        }
        self.d.asm.close(")").token(";").finish().finish();
        self.call_args = args;
        if ret != VOID {
            self.install_inst(ret, None, max_values);
        }
    }
}
