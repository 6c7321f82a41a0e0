//! The module block and the module-level blocks: abbreviations, types, function addresses,
//! globals and the module symbol table.

use super::parser::{Asm, R};
use crate::lexer::Tok;
use pnacl_bitcode::codes::block;
use pnacl_bitcode::ir::{
    Align, BlockLayout, BlockinfoItem, BlockinfoLayout, Function, Global, ITEM_BLOCK, Init, Linkage, Signature, Symbol,
    TypeDef, ValueId,
};
use pnacl_bitstream::UNABBREV_RECORD;

/// Block ids PNaClAsm names.
fn block_id_of(name: &str) -> Option<u32> {
    Some(match name {
        "abbreviations" => block::BLOCKINFO,
        "module" => block::MODULE,
        "constants" => block::CONSTANTS,
        "function" => block::FUNCTION,
        "valuesymtab" => block::VALUESYMTAB,
        "types" => block::TYPES,
        "globals" => block::GLOBALS,
        _ => return None,
    })
}

impl<'s> Asm<'s> {
    pub(super) fn module(&mut self) -> R<()> {
        let (at, stated) = self.open_block("module")?;
        let mut layout = BlockLayout::default();
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Ident("version") => {
                    self.next()?;
                    self.m.version = self.uint()?;
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    let a = self.annotation(block::MODULE)?;
                    layout.items.push(a);
                }
                Tok::Ident("abbreviations") => {
                    layout.items.push(ITEM_BLOCK);
                    self.blockinfo()?;
                }
                Tok::Ident("types") => {
                    layout.items.push(ITEM_BLOCK);
                    self.types()?;
                }
                Tok::Ident("globals") => {
                    layout.items.push(ITEM_BLOCK);
                    self.globals_beside_functions()?;
                }
                Tok::Ident("valuesymtab") => {
                    layout.items.push(ITEM_BLOCK);
                    self.module_symtab()?;
                }
                Tok::Ident("function") => {
                    layout.items.push(ITEM_BLOCK);
                    if !self.functions_in_parallel(&mut layout.items) {
                        self.function()?;
                    }
                }
                Tok::Ident("declare" | "define") => {
                    self.function_address()?;
                    let a = self.annotation(block::MODULE)?;
                    layout.items.push(a);
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::MODULE, &mut layout)?,
                _ => return Err(self.unexpected("a module-level construct")),
            }
        }
        layout.abbrev_width = self.width(block::MODULE, stated, at, layout.abbrevs.len());
        self.ml.module = layout;
        self.m.layout = Some(Box::new(std::mem::take(&mut self.ml)));
        Ok(())
    }

    pub(super) fn blockinfo(&mut self) -> R<()> {
        let (at, stated) = self.open_block("abbreviations")?;
        let mut items = Vec::new();
        let mut current: Option<u32> = None;
        loop {
            let item_at = self.at();
            match self.next()? {
                Tok::Punct(b'}') => {
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Ident(name) => {
                    let id = if name == "block" {
                        self.punct(b'(')?;
                        let id = self.u32()?;
                        self.punct(b')')?;
                        id
                    } else {
                        block_id_of(name).ok_or_else(|| self.err(item_at, format!("unknown block name '{name}'")))?
                    };
                    self.punct(b':')?;
                    self.offsets.push(item_at);
                    current = Some(id);
                    items.push(BlockinfoItem::SetBid { block_id: id, abbrev_id: UNABBREV_RECORD as u16 });
                }
                Tok::Global(b'a', n) => {
                    let id =
                        current.ok_or_else(|| self.err(item_at, "an abbreviation needs a block name before it"))?;
                    let count = self.globals_for.entry(id).or_insert(0);
                    let expected = *count;
                    *count += 1;
                    self.check_index(item_at, "@a", n, expected)?;
                    let a = self.abbrev_def()?;
                    self.offsets.push(item_at);
                    items.push(BlockinfoItem::Abbrev(a));
                }
                t => return Err(self.err(item_at, format!("expected a block name or '@aN', found {}", t.describe()))),
            }
        }
        let width = stated.or_else(|| self.listed_width(at)).unwrap_or(2);
        self.ml.blockinfo = Some(BlockinfoLayout { abbrev_width: width, items });
        Ok(())
    }

    pub(super) fn types(&mut self) -> R<()> {
        let (at, stated) = self.open_block("types")?;
        let mut layout = BlockLayout::default();
        let mut count = None;
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::TYPES, &mut layout)?,
                Tok::Ident("count") => {
                    self.next()?;
                    count = Some((self.uint()?, item_at));
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::TYPES)?);
                }
                Tok::Global(b't', n) => {
                    self.next()?;
                    self.check_index(item_at, "@t", n, self.m.types.len())?;
                    self.punct(b'=')?;
                    let t = self.typedef()?;
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::TYPES)?);
                    self.m.types.push(t);
                }
                _ => return Err(self.unexpected("'count', '@tN' or '}'")),
            }
        }
        match count {
            Some((n, _)) if n == self.m.types.len() as u64 => {}
            Some((n, c_at)) => {
                return Err(
                    self.err(c_at, format!("count says {n} types, but the block defines {}", self.m.types.len()))
                );
            }
            None => return Err(self.err(at, "the types block needs a count record")),
        }
        layout.abbrev_width = self.width(block::TYPES, stated, at, layout.abbrevs.len());
        self.ml.types = layout;
        Ok(())
    }

    pub(super) fn function_address(&mut self) -> R<()> {
        let at = self.at();
        let is_proto = self.ident()? == "declare";
        let linkage = match self.ident()? {
            "external" => Linkage::External,
            "internal" => Linkage::Internal,
            w => return Err(self.err(self.lx.last, format!("expected 'external' or 'internal', found '{w}'"))),
        };
        let ret = self.ty()?;
        let n_at = self.at();
        let n = self.global(b'f')?;
        self.check_index(n_at, "@f", n, self.m.functions.len())?;
        self.punct(b'(')?;
        let (params, vararg) = self.param_types()?;
        self.punct(b';')?;
        let ty = self.type_id(at, &TypeDef::Function(Signature { ret, params, vararg }))?;
        self.offsets.push(at);
        self.m.functions.push(Function { ty, cc: 0, is_proto, linkage, body: None });
        Ok(())
    }

    pub(super) fn globals(&mut self) -> R<()> {
        let (at, stated) = self.open_block("globals")?;
        let mut layout = BlockLayout::default();
        // Initializers still expected by the current global, and whether in a compound.
        let mut pending = 0u64;
        let mut compound = false;
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') if compound && pending == 0 => {
                    self.next()?;
                    compound = false;
                }
                Tok::Punct(b'}') => {
                    self.next()?;
                    if pending > 0 {
                        return Err(self.err(
                            item_at,
                            format!("@g{} needs {pending} more initializer(s)", self.m.globals.len() - 1),
                        ));
                    }
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::GLOBALS, &mut layout)?,
                Tok::Ident("count") => {
                    self.next()?;
                    let n = self.uint()?;
                    self.punct(b';')?;
                    self.globals_count = Some((n, item_at));
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                }
                Tok::Ident(w @ ("var" | "const")) => {
                    self.next()?;
                    if pending > 0 {
                        return Err(self.err(
                            item_at,
                            format!("@g{} needs {pending} more initializer(s)", self.m.globals.len() - 1),
                        ));
                    }
                    let n_at = self.at();
                    let n = self.global(b'g')?;
                    self.check_index(n_at, "@g", n, self.m.globals.len())?;
                    self.punct(b',')?;
                    self.kw("align")?;
                    let a_at = self.at();
                    let align = self.u32()?;
                    if align != 0 && !align.is_power_of_two() {
                        return Err(self.err(a_at, format!("alignment {align} is not a power of two")));
                    }
                    self.punct(b',')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                    self.m.globals.push(Global {
                        align: Align::from_bytes(align),
                        is_const: w == "const",
                        inits: Vec::new(),
                        compound: false,
                    });
                    pending = 1;
                }
                Tok::Ident("initializers") => {
                    self.next()?;
                    let n = self.uint()?;
                    self.punct(b'{')?;
                    if pending != 1 || compound || self.m.globals.last().is_none_or(|g| !g.inits.is_empty()) {
                        return Err(self.err(item_at, "a compound initializer must directly follow its global"));
                    }
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                    self.m.globals.last_mut().expect("checked").compound = true;
                    pending = n;
                    compound = true;
                }
                _ => {
                    if pending == 0 {
                        return Err(self.unexpected("'var', 'const' or '}'"));
                    }
                    let init = self.initializer()?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::GLOBALS)?);
                    self.m.globals.last_mut().expect("pending implies a global").inits.push(init);
                    pending -= 1;
                }
            }
        }
        match self.globals_count {
            Some((n, _)) if n == self.m.globals.len() as u64 => {}
            Some((n, c_at)) => {
                return Err(
                    self.err(c_at, format!("count says {n} globals, but the block defines {}", self.m.globals.len()))
                );
            }
            None => return Err(self.err(at, "the globals block needs a count record")),
        }
        layout.abbrev_width = self.width(block::GLOBALS, stated, at, layout.abbrevs.len());
        self.ml.globals = layout;
        Ok(())
    }

    pub(super) fn initializer(&mut self) -> R<Init> {
        let at = self.at();
        match self.next()? {
            Tok::Ident("zerofill") => {
                let n = self.uint()?;
                self.punct(b';')?;
                Ok(Init::Zerofill(n))
            }
            Tok::Punct(b'{') => {
                let mut bytes = Vec::new();
                loop {
                    let b_at = self.at();
                    let v = self.int()?;
                    bytes.push(u8::try_from(v).map_err(|_| self.err(b_at, format!("{v} is not a byte")))?);
                    if !self.eat_punct(b',')? {
                        break;
                    }
                }
                self.punct(b'}')?;
                Ok(Init::Data(bytes))
            }
            Tok::Ident("reloc") => {
                let t_at = self.at();
                let target = match self.next()? {
                    Tok::Global(b'f', n) if n < self.m.functions.len() as u64 => n as u32,
                    Tok::Global(b'g', n) => {
                        let limit = self.globals_count.map_or(u64::MAX, |c| c.0);
                        if n >= limit {
                            return Err(self.err(t_at, format!("@g{n} is beyond the {limit} globals counted")));
                        }
                        (self.m.functions.len() as u64 + n) as u32
                    }
                    t => return Err(self.err(t_at, format!("expected '@fN' or '@gN', found {}", t.describe()))),
                };
                let addend = if self.eat_punct(b'+')? {
                    Some(self.addend(false)?)
                } else if self.eat_punct(b'-')? {
                    Some(self.addend(true)?)
                } else {
                    None
                };
                self.punct(b';')?;
                Ok(Init::Reloc { target: ValueId(target), addend })
            }
            t => Err(self.err(at, format!("expected an initializer, found {}", t.describe()))),
        }
    }

    pub(super) fn addend(&mut self, negative: bool) -> R<u32> {
        let at = self.at();
        let v = self.int()?;
        let v = if negative { -v } else { v };
        if !(-(1i128 << 31)..(1i128 << 32)).contains(&v) {
            return Err(self.err(at, format!("addend {v} does not fit in 32 bits")));
        }
        Ok(v as u32)
    }

    pub(super) fn module_symtab(&mut self) -> R<()> {
        let (at, stated) = self.open_block("valuesymtab")?;
        let mut layout = BlockLayout::default();
        let mut entries = Vec::new();
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::VALUESYMTAB, &mut layout)?,
                Tok::Global(k @ (b'f' | b'g'), n) => {
                    self.next()?;
                    let value = if k == b'f' { n } else { self.m.functions.len() as u64 + n };
                    self.punct(b':')?;
                    let (name, braced) = self.symbol_name()?;
                    if !braced {
                        self.punct(b';')?;
                    }
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::VALUESYMTAB)?);
                    let value = u32::try_from(value).map_err(|_| self.err(item_at, "value index too large"))?;
                    entries.push(Symbol { value: ValueId(value), name });
                }
                _ => return Err(self.unexpected("'@fN', '@gN' or '}'")),
            }
        }
        layout.abbrev_width = self.width(block::VALUESYMTAB, stated, at, layout.abbrevs.len());
        self.ml.symtab = Some(layout);
        self.m.symtab = Some(entries);
        Ok(())
    }
}
