//! The module-level blocks as pnacl-bcdis lists and checks them: the module block's own
//! records, the abbreviations, types, globals and symbol-table blocks.

use super::syntax;
use super::types::{I32, T, VOID};
use super::walk::{Block, Walker};
use pnacl_bitcode::abi::{IType, Intrinsic, intrinsic};
use pnacl_bitcode::codes::{block, globals, module, symtab, types};
use pnacl_bitcode::ir::Ty;
use pnacl_bitstream::Record;

/// Globals may not have more initializers than this (the reader's ILP32 bound).
const MAX_GLOBAL_INITS: u64 = u32::MAX as u64;

impl Walker<'_> {
    pub(super) fn module_record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        self.d.record_pos = r.pos;
        let v = r.ops;
        match r.code {
            module::VERSION => {
                if v.len() != 1 {
                    self.d.error_line(format_args!("Version record should have one argument. Found: {}", v.len()));
                } else {
                    self.d.asm.text("version").space().num(v[0]).token(";");
                    self.d.annotation(r.abbrev_id, b.global_abbrevs);
                    self.d.asm.endline();
                }
            }
            module::FUNCTION => self.function_address(b, r),
            _ => self.d.error_line("Unknown record found in module block"),
        }
        self.d.write_record(r);
    }

    fn function_address(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        let v = r.ops;
        if v.len() != 4 {
            self.d.error_line(format_args!("Function record should have 4 arguments. Found: {}", v.len()));
            return;
        }
        let is_proto = v[2] != 0;
        let f = self.m.fn_types.len() as u32;
        self.d.asm.start().text(if is_proto { "declare" } else { "define" });
        match v[3] {
            0 => {
                self.d.asm.space().text("external");
            }
            3 => {
                self.d.asm.space().text("internal");
            }
            l => self.d.error_line(format_args!("Unknown linkage value: {l}")),
        }
        if v[1] != 0 {
            self.d.error_line(format_args!("Unknown calling convention value: {}", v[1]));
        }
        self.d.asm.finish().space().start();
        let ty = self.get_type(v[0]);
        let fn_ty = if self.m.types.signature(ty).is_some() {
            self.m.types.tokens(&mut self.d.asm, ty, Some(f), false);
            ty
        } else {
            self.d.error_line(format_args!("Not function type: @t{} = {}", v[0], self.m.types.show(ty)));
            self.d.asm.text("???");
            self.m.types.function(VOID, &[], false)
        };
        self.d.asm.token(";").finish();
        self.d.annotation(r.abbrev_id, b.global_abbrevs);
        self.d.asm.endline();
        self.m.fn_types.push(fn_ty);
        self.m.fn_pos.push(r.pos);
        self.m.fn_intrinsic.push(false);
        if !is_proto {
            self.m.defined.push(f);
        }
    }

    /// After the module block: the signatures of functions without a body (known only
    /// now that the symbol table has said which are intrinsics).
    pub(super) fn exit_module(&mut self) {
        // Defined functions were checked with their block (`defined` is in index order).
        let mut defined = self.m.defined.iter().peekable();
        for f in 0..self.m.fn_types.len() {
            if defined.next_if(|&&d| d == f as u32).is_some() {
                continue;
            }
            let ty = self.m.fn_types[f];
            if !self.m.fn_intrinsic[f] && self.abi && !self.m.types.is_valid_function(ty) {
                self.d.record_pos = self.m.fn_pos[f];
                self.d.error_line(format_args!("Invalid type signature for @f{f}: {}", self.m.types.show(ty)));
            }
        }
    }

    pub(super) fn blockinfo_record(&mut self, r: &Record<'_, '_>) {
        if r.code == pnacl_bitstream::BLOCKINFO_CODE_SETBID && !r.ops.is_empty() {
            let id = r.ops[0];
            match u32::try_from(id).ok().and_then(block::name) {
                Some(name) if id != u64::from(block::BLOCKINFO) => {
                    self.d.asm.text(name);
                }
                _ => {
                    self.d.asm.text("block").open("(").num(id).close(")");
                    self.d.error_line(format_args!("Block id {id} not understood."));
                }
            }
            self.d.asm.token(":").endline();
        }
        self.d.write_record(r);
    }

    /// Prints `@tN = T;` and defines type `N`.
    fn install_type(&mut self, b: &Block, r: &Record<'_, '_>, t: T) {
        let n = self.m.type_ids.len() as u64;
        self.d.asm.text("@t").num(n).space().text("=").space();
        if self.m.types.signature(t).is_some() {
            self.d.asm.start();
            self.m.types.tokens(&mut self.d.asm, t, None, false);
            self.d.asm.token(";").finish();
        } else {
            self.m.types.tokens(&mut self.d.asm, t, None, false);
            self.d.asm.token(";");
        }
        self.d.annotation(r.abbrev_id, b.global_abbrevs);
        self.d.asm.endline();
        self.m.type_ids.push(t);
    }

    pub(super) fn types_record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        self.d.record_pos = r.pos;
        let v = r.ops;
        let arity = |w: &mut Self, what: &str, want: usize| {
            if v.len() != want {
                w.d.error_line(format_args!("{what}{}", v.len()));
            }
        };
        match r.code {
            types::NUMENTRY => {
                let size = if v.len() == 1 { v[0] } else { 0 };
                arity(self, "Count record should have 1 argument. Found: ", 1);
                if !b.first_record {
                    self.d.error_line("Count record not first record of types block");
                }
                if size > u64::from(u32::MAX) {
                    self.d.error_line(format_args!("Count record size too big: {size}"));
                }
                self.d.asm.text("count").space().num(size).token(";");
                self.d.annotation(r.abbrev_id, b.global_abbrevs);
                self.d.asm.endline();
                b.expected = size;
            }
            types::VOID => {
                if !v.is_empty() {
                    self.d.error_line(format_args!("Void record shouldn't have arguments. Found: {}", v.len()));
                }
                self.install_type(b, r, VOID);
            }
            types::FLOAT => {
                if !v.is_empty() {
                    self.d.error_line(format_args!("Float record shoudn't have arguments. Found: {}", v.len()));
                }
                self.install_type(b, r, super::types::FLOAT);
            }
            types::DOUBLE => {
                if !v.is_empty() {
                    self.d.error_line(format_args!("Double record shound't have arguments. Found: {}", v.len()));
                }
                self.install_type(b, r, super::types::DOUBLE);
            }
            types::INTEGER => {
                let mut size = 32;
                if v.len() == 1 {
                    size = v[0];
                } else {
                    self.d.error_line(format_args!("Integer record should have one argument. Found: {}", v.len()));
                }
                if !matches!(size, 1 | 8 | 16 | 32 | 64) && self.abi {
                    self.d.error_line(format_args!("Integer record contains bad integer size: {size}"));
                    size = 32;
                }
                // LLVM's widths are 24 bits wide.
                let t = self.m.types.int((size as u32).clamp(1, (1 << 24) - 1));
                self.install_type(b, r, t);
            }
            types::VECTOR => {
                if v.len() != 2 {
                    self.d.error_line(format_args!("Vector record should contain two arguments. Found: {}", v.len()));
                    self.install_type(b, r, VOID);
                } else {
                    let mut elt = self.get_type(v[1]);
                    if !(self.m.types.int_bits(elt).is_some() || self.m.types.is_float(elt)) {
                        self.d.error_line(format_args!(
                            "Vectors can only be defined on primitive types. Found {}. Assuming i32 instead.",
                            self.m.types.show(elt)
                        ));
                        elt = I32;
                    }
                    let t = self.m.types.vector(v[0] as u32, elt);
                    if self.abi && !self.m.types.is_valid_vector(t) {
                        self.d.error_line(format_args!("Vector type {} not allowed.", self.m.types.show(t)));
                    }
                    self.install_type(b, r, t);
                }
            }
            types::FUNCTION => self.function_type(b, r),
            code => self.d.error_line(format_args!("Unknown record code in types block. Found: {code}")),
        }
        self.d.write_record(r);
        b.first_record = false;
    }

    fn function_type(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        let v = r.ops;
        if v.len() < 2 {
            self.d.error_line(format_args!("Function record should contain at least 2 arguments. Found: {}", v.len()));
            self.install_type(b, r, VOID);
            return;
        }
        if v[0] != 0 {
            self.d.error_line("Functions with variable length arguments is not supported");
        }
        let valid_value =
            |w: &Self, t: T| w.m.types.int_bits(t).is_some() || w.m.types.is_float(t) || w.m.types.is_vector(t);
        let mut ret = self.get_type(v[1]);
        if !(valid_value(self, ret) || ret == VOID) {
            self.d.error_line(format_args!("Invalid return type. Found: {}. Assuming: i32", self.m.types.show(ret)));
            ret = I32;
        }
        let mut params = Vec::with_capacity(v.len() - 2);
        for (i, &p) in v.iter().enumerate().skip(2) {
            let mut t = self.get_type(p);
            if !valid_value(self, t) {
                self.d.error_line(format_args!(
                    "Invalid type for parameter {}. Found: {}. Assuming: i32",
                    i - 1,
                    self.m.types.show(t)
                ));
                t = I32;
            }
            params.push(t);
        }
        let t = self.m.types.function(ret, &params, v[0] != 0);
        self.install_type(b, r, t);
    }

    /// Closes a global's initializer list (`}` for a compound one) and restores the
    /// indentation.
    fn close_initializers(&mut self, b: &mut Block) {
        if b.in_compound {
            self.d.unwind_to(b.base_tabs + 1);
            self.d.asm.close("}").endline();
            // Laid out now: the original formats text as it is written.
            self.d.layout_assembly();
        }
        self.d.unwind_to(b.base_tabs);
        self.d.flush();
        b.initializers = 0;
        b.in_compound = false;
    }

    pub(super) fn exit_globals(&mut self, b: &mut Block) {
        if b.initializers > 0 {
            let last = self.m.num_globals.wrapping_sub(1);
            self.d.error_line(format_args!("More initializers for @g{last} expected: {}", b.initializers));
        }
        if self.m.num_globals != self.m.expected_globals {
            self.d.error_line(format_args!(
                "Expected {} globals but found: {}",
                self.m.expected_globals, self.m.num_globals
            ));
        }
    }

    pub(super) fn globals_record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        self.d.record_pos = r.pos;
        let v = r.ops;
        let ga = b.global_abbrevs;
        match r.code {
            globals::VAR => 'var: {
                if v.len() != 2 {
                    self.d.error_line(format_args!("Globalvar record expects two arguments. Found: {}", v.len()));
                    break 'var;
                }
                if self.m.num_globals == self.m.expected_globals {
                    self.d.error_line(format_args!("Exceeded expected number of globals: {}", self.m.expected_globals));
                }
                if b.initializers > 0 {
                    self.d.error_line(format_args!(
                        "Previous initializer list too short. Expects {} more initializers",
                        b.initializers
                    ));
                    self.close_initializers(b);
                }
                let align = self.alignment(v[0]);
                let t = &mut self.d.asm;
                t.start().text(if v[1] != 0 { "const" } else { "var" }).space();
                t.text("@g").num(u64::from(self.m.num_globals)).token(",").finish().space();
                t.start().text("align").space().num(u64::from(align)).token(",").finish();
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                self.d.asm.indent(1);
                self.m.num_globals += 1;
                b.initializers = 1;
            }
            globals::COMPOUND => 'compound: {
                if v.len() != 1 {
                    self.d.error_line(format_args!("Compound record expects one argument. Found: {}", v.len()));
                    break 'compound;
                }
                if b.initializers == 1 {
                    if b.in_compound {
                        self.d.error_line("Nested initialization records not allowed");
                        self.close_initializers(b);
                    }
                } else {
                    self.d.error_line("Compound record must follow globalvars record");
                    self.close_initializers(b);
                }
                self.d.asm.start().text("initializers").space().num(v[0]).finish().space().open("{");
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                if v[0] > MAX_GLOBAL_INITS {
                    self.d.error_line(format_args!("Too many initializers for global var: {}", v[0]));
                }
                self.d.asm.indent(1);
                b.initializers = v[0];
                b.in_compound = true;
            }
            globals::ZEROFILL => 'zerofill: {
                if v.len() != 1 {
                    self.d.error_line(format_args!("Zerofill record expects one argument. Found: {}", v.len()));
                    break 'zerofill;
                }
                if b.initializers == 0 {
                    self.d.error_line("Zerofill initializer not associated with globalvar record");
                }
                self.d.asm.text("zerofill").space().num(v[0]).token(";");
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                b.initializers = b.initializers.wrapping_sub(1);
            }
            globals::DATA => {
                if v.is_empty() {
                    self.d.error_line("Globals data record must have arguments.");
                }
                if b.initializers == 0 {
                    self.d.error_line("Data initializer not associated with globalvar record");
                }
                self.d.asm.start().open("{");
                for (i, &byte) in v.iter().enumerate() {
                    if i > 0 {
                        self.d.asm.token(",").finish().space();
                    }
                    let mut byte = byte;
                    if byte >= 256 {
                        self.d.error_line(format_args!("Invalid byte value in data record: {byte}"));
                        byte &= 0xff;
                    }
                    if i > 0 {
                        self.d.asm.start();
                    }
                    syntax::pad3(&mut self.d.asm, byte);
                }
                self.d.asm.close("}").finish();
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                b.initializers = b.initializers.wrapping_sub(1);
            }
            globals::RELOC => 'reloc: {
                if v.is_empty() || v.len() > 2 {
                    self.d.error_line(format_args!("Invalid reloc record size: {}", v.len()));
                    break 'reloc;
                }
                if b.initializers == 0 {
                    self.d.error_line("Relocation initializer not associated with globalvar record");
                }
                self.d.asm.text("reloc").space().start();
                self.name(v[0] as u32);
                if v.len() == 2 {
                    let addend = v[1] as i32;
                    let t = &mut self.d.asm;
                    t.space().text(if addend < 0 { "-" } else { "+" }).space();
                    // `-Addend` of the most negative i32 is itself, printed negative.
                    if addend == i32::MIN {
                        t.text("-");
                    }
                    t.num(u64::from(addend.unsigned_abs()));
                }
                self.d.asm.token(";").finish();
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                b.initializers = b.initializers.wrapping_sub(1);
            }
            globals::COUNT => {
                let count = if v.len() == 1 { v[0] } else { 0 };
                if v.len() != 1 {
                    self.d.error_line(format_args!("Globals count record expects one argument. Found: {}", v.len()));
                }
                if self.m.num_globals != 0 {
                    self.d.error_line("Count record not first record in block.");
                }
                self.d.asm.text("count").space().num(count).token(";");
                self.d.annotation(r.abbrev_id, ga);
                self.d.asm.endline();
                if count > u64::from(u32::MAX) {
                    self.d.error_line(format_args!("Count record size too big: {count}"));
                }
                self.m.expected_globals = count as u32;
            }
            _ => self.d.error_line("Unknown record found in globals block."),
        }
        self.d.write_record(r);
        if self.m.num_globals > 0 && b.initializers == 0 {
            self.close_initializers(b);
        }
    }

    /// Prints a symbol-table entry's name (`"name";` or `{'a',  36}`).
    fn symbol_entry(&mut self, b: &Block, r: &Record<'_, '_>, name: impl FnOnce(&mut Self)) {
        let v = r.ops;
        if v.len() <= 1 {
            self.d.error_line(format_args!("Valuesymtab entry record expects 2 arguments. Found: {}", v.len()));
            return;
        }
        name(self);
        let mut char6 = true;
        for (i, &byte) in v.iter().enumerate().skip(1) {
            if byte >= 256 {
                self.d.error_line(format_args!("Argument {i} of symbol entry not byte: {byte}"));
                char6 = false;
                break;
            }
            if !pnacl_bitstream::is_char6(&[byte as u8]) {
                char6 = false;
            }
        }
        let bytes: Vec<u8> = v[1..].iter().map(|&c| c as u8).collect();
        self.d.symbol_name(&bytes, char6);
        self.d.annotation(r.abbrev_id, b.global_abbrevs);
        self.d.asm.endline();
    }

    pub(super) fn symtab_record(&mut self, b: &mut Block, r: &Record<'_, '_>) {
        self.d.record_pos = r.pos;
        let v = r.ops;
        match r.code {
            symtab::ENTRY => 'entry: {
                let id = v.first().copied().unwrap_or(0) as u32;
                self.symbol_entry(b, r, |w| w.name(id));
                let Some((id, intrinsic)) = named_intrinsic(v).filter(|&(id, _)| (id as usize) < self.m.fn_types.len())
                else {
                    break 'entry;
                };
                self.m.fn_intrinsic[id as usize] = true;
                self.check_intrinsic(intrinsic, id);
            }
            symtab::BBENTRY => {
                let bb = v.first().copied().unwrap_or(0);
                self.symbol_entry(b, r, |w| {
                    w.d.asm.text("%b").num(bb);
                });
            }
            _ => self.d.error_line("Unknown record in valuesymtab block."),
        }
        self.d.write_record(r);
    }

    /// Compares a function named as an intrinsic with the intrinsic's signature.
    fn check_intrinsic(&mut self, i: &pnacl_bitcode::abi::Intrinsic, f: u32) {
        let Some((ret, params, _)) = self.m.types.signature(self.m.fn_types[f as usize]) else { return };
        let params = params.to_vec();
        if params.len() != i.params.len() {
            self.d.error_line(format_args!(
                "Intrinsic {} expects {} arguments. Found: {}",
                i.name,
                i.params.len(),
                params.len()
            ));
            return;
        }
        if !self.abi {
            return;
        }
        if !self.pointer_equiv(i.ret, ret) {
            self.d.error_line(format_args!(
                "Intrinsic {} expects return type {}. Found: {}",
                i.name,
                i.ret,
                self.m.types.show(ret)
            ));
            return;
        }
        for (n, (&want, &got)) in i.params.iter().zip(&params).enumerate() {
            if !self.pointer_equiv(want, got) {
                self.d.error_line(format_args!(
                    "Intrinsic {} expects {want} for argument {}. Found: {}",
                    i.name,
                    n + 1,
                    self.m.types.show(got)
                ));
                break;
            }
        }
    }

    /// PNaClABITypeChecker::IsPointerEquivType: pointers match `i32`.
    fn pointer_equiv(&mut self, want: IType, got: T) -> bool {
        match want {
            IType::Ptr(_) => got == I32,
            IType::Val(t) => self.pnacl_type(t) == got,
        }
    }

    /// The interned form of a PNaCl type.
    pub(super) fn pnacl_type(&mut self, t: Ty) -> T {
        if t.is_vector() {
            let e = self.pnacl_type(t.element());
            return self.m.types.vector(t.lanes(), e);
        }
        match t {
            Ty::Void => VOID,
            Ty::Float => super::types::FLOAT,
            Ty::Double => super::types::DOUBLE,
            _ => self.m.types.int(t.bits()),
        }
    }
}

/// The function a symbol-table entry record's values (`id, name bytes...`) name, and the
/// intrinsic its name is, if it is one. (The walk marks intrinsics by it, and the listing
/// made ahead predicts the marks by it.)
pub(super) fn named_intrinsic(values: &[u64]) -> Option<(u32, &'static Intrinsic)> {
    let (&id, name) = values.split_first()?;
    let name: Vec<u8> = name.iter().map(|&c| c as u8).collect();
    intrinsic(&name).map(|i| (id as u32, i))
}
