//! Function blocks, with the constants and symbol-table blocks nested in them.

use super::operands::Func;
use super::parser::{Asm, R};
use crate::lexer::Tok;
use pnacl_bitcode::codes::block;
use pnacl_bitcode::ir::{
    BlockLayout, BodyLayout, ConstValue, Constant, FunctionBody, ITEM_BLOCK, LocalSymbol, SetType, Signature, Ty,
    ValueId, ValueSpace, encode_sign_rotated,
};
use std::collections::HashMap;

impl<'s> Asm<'s> {
    pub(super) fn function(&mut self) -> R<()> {
        let at = self.at();
        self.kw("function")?;
        let ret = self.ty()?;
        let n_at = self.at();
        let n = self.global(b'f')?;
        let Some(index) = self.m.functions[self.next_body.min(self.m.functions.len())..]
            .iter()
            .position(|f| !f.is_proto)
            .map(|i| (self.next_body + i) as u32)
        else {
            return Err(self.err(n_at, "more function blocks than defined functions"));
        };
        self.next_body = index as usize + 1;
        self.check_index(n_at, "@f", n, index as usize)?;
        self.punct(b'(')?;
        let mut params = Vec::new();
        if !self.eat_punct(b')')? {
            loop {
                params.push(self.ty()?);
                let p_at = self.at();
                let p = self.local(b'p')?;
                self.check_index(p_at, "%p", p, params.len() - 1)?;
                if !self.eat_punct(b',')? {
                    break;
                }
            }
            self.punct(b')')?;
        }
        let sig = Signature { ret, params, vararg: false };
        if self.m.signature(index) != &sig {
            return Err(self.err(at, format!("@f{n} is declared as {}, not {sig}", self.m.signature(index))));
        }
        self.punct(b'{')?;
        let stated = self.explicit_width()?;
        self.offsets.push(at);
        self.bodies += 1;
        let space = ValueSpace {
            functions: self.m.functions.len() as u32,
            globals: self.m.globals.len() as u32,
            params: sig.params.len() as u32,
            consts: 0,
        };
        let mut f = Func {
            index,
            body: FunctionBody { num_params: space.params, local_types: sig.params.clone(), ..FunctionBody::default() },
            sig,
            space,
            declared: HashMap::new(),
            blocks_done: 0,
            layout: BlockLayout::default(),
            constants: None,
            symtab: None,
        };
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => {
                    let mut l = std::mem::take(&mut f.layout);
                    self.local_abbrev(block::FUNCTION, &mut l)?;
                    f.layout = l;
                }
                Tok::Ident("blocks") => {
                    self.next()?;
                    if f.body.num_blocks != 0 || !f.body.insts.is_empty() {
                        return Err(self.err(item_at, "'blocks' must be the function's first record, once"));
                    }
                    f.body.num_blocks = self.u32()?;
                    f.body.block_starts.push(0);
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    f.layout.items.push(self.annotation(block::FUNCTION)?);
                }
                Tok::Ident("constants") => {
                    if f.constants.is_some() || !f.body.insts.is_empty() {
                        return Err(self.err(item_at, "the constants block must come before the instructions, once"));
                    }
                    f.layout.items.push(ITEM_BLOCK);
                    self.constants(&mut f)?;
                }
                Tok::Ident("valuesymtab") => {
                    f.layout.items.push(ITEM_BLOCK);
                    self.function_symtab(&mut f)?;
                }
                Tok::Local(b'b', n) => {
                    self.next()?;
                    self.punct(b':')?;
                    if n != u64::from(f.blocks_done) {
                        return Err(
                            self.err(item_at, format!("label %b{n} is out of order: this is %b{}", f.blocks_done))
                        );
                    }
                }
                _ => {
                    self.instruction(&mut f)?;
                }
            }
        }
        f.layout.abbrev_width = self.width(block::FUNCTION, stated, at, f.layout.abbrevs.len());
        f.body.layout = Some(Box::new(BodyLayout { function: f.layout, constants: f.constants, symtab: f.symtab }));
        self.m.functions[index as usize].body = Some(Box::new(f.body));
        Ok(())
    }

    pub(super) fn constants(&mut self, f: &mut Func) -> R<()> {
        let (at, stated) = self.open_block("constants")?;
        let mut layout = BlockLayout::default();
        let mut current: Option<Ty> = None;
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::CONSTANTS, &mut layout)?,
                Tok::Local(b'c', n) => {
                    self.next()?;
                    self.check_index(item_at, "%c", n, f.body.constants.len())?;
                    self.punct(b'=')?;
                    let t_at = self.at();
                    let ty = self.ty()?;
                    if Some(ty) != current {
                        return Err(self.err(
                            t_at,
                            match current {
                                Some(c) => format!("constant of type {ty} after set type {c}"),
                                None => "a constant needs a set type line before it".into(),
                            },
                        ));
                    }
                    let listed = self.src.record_at(item_at).filter(|r| r.values.len() == 2).map(|r| r.values[1]);
                    let v_at = self.at();
                    // The assembly column says the value; a listing's record column only
                    // adds the bits `%g` loses from a float.
                    let value = match self.next()? {
                        Tok::Ident("undef") => ConstValue::Undef,
                        tok if ty.is_integer() => ConstValue::Int(match tok {
                            // i1 true is stored as -1, as the PNaCl writer stores it.
                            Tok::Int(1) if ty == Ty::I1 => encode_sign_rotated(-1),
                            t => self.sign_rotated(v_at, t)?,
                        }),
                        tok if ty.is_float() => {
                            let bits = self.float_bits(v_at, tok, ty)?;
                            let decimal = matches!(tok, Tok::Float(_) | Tok::Int(_));
                            let exact = listed.filter(|&l| decimal && prints_alike(l, bits, ty));
                            ConstValue::Float(exact.unwrap_or(bits))
                        }
                        t => return Err(self.err(v_at, format!("expected a value for {ty}, found {}", t.describe()))),
                    };
                    self.punct(b';')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::CONSTANTS)?);
                    f.body.constants.push(Constant { ty, value });
                }
                _ => {
                    // A set-type line: `T:`.
                    let ty = self.ty()?;
                    self.punct(b':')?;
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::CONSTANTS)?);
                    f.body.set_types.push(SetType { before: f.body.constants.len() as u32, ty });
                    current = Some(ty);
                }
            }
        }
        layout.abbrev_width = self.width(block::CONSTANTS, stated, at, layout.abbrevs.len());
        f.constants = Some(layout);
        f.space.consts = f.body.constants.len() as u32;
        let types: Vec<Ty> = f.body.constants.iter().map(|c| c.ty).collect();
        f.body.local_types.extend(types);
        Ok(())
    }

    pub(super) fn float_bits(&self, at: usize, tok: Tok<'_>, ty: Ty) -> R<u64> {
        let double = ty == Ty::Double;
        let v: f64 = match tok {
            Tok::Hex(bits) => {
                if !double && bits > u64::from(u32::MAX) {
                    return Err(self.err(at, "bit pattern wider than 32 bits for a float"));
                }
                return Ok(bits);
            }
            Tok::Int(v) => v as f64,
            Tok::Float(s) => match s {
                "nan" => return Ok(if double { 0x7FF8_0000_0000_0000 } else { 0x7FC0_0000 }),
                "-nan" => return Ok(if double { 0xFFF8_0000_0000_0000 } else { 0xFFC0_0000 }),
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => s.parse().map_err(|_| self.err(at, format!("malformed number {s}")))?,
            },
            t => return Err(self.err(at, format!("expected a number, found {}", t.describe()))),
        };
        Ok(if double { v.to_bits() } else { u64::from((v as f32).to_bits()) })
    }

    pub(super) fn function_symtab(&mut self, f: &mut Func) -> R<()> {
        let (at, stated) = self.open_block("valuesymtab")?;
        let mut layout = BlockLayout::default();
        let mut entries = f.body.symtab.take().unwrap_or_default();
        loop {
            let item_at = self.at();
            match self.peek()? {
                Tok::Punct(b'}') => {
                    self.next()?;
                    self.offsets.push(item_at);
                    break;
                }
                Tok::Local(b'a', _) => self.local_abbrev(block::VALUESYMTAB, &mut layout)?,
                _ => {
                    let target = match self.next()? {
                        Tok::Local(b'b', n) => Err(n as u32),
                        Tok::Local(b'p', n) => Ok(f.space.first_param() as u64 + n),
                        Tok::Local(b'c', n) => Ok(f.space.first_const() as u64 + n),
                        Tok::Local(b'v', n) => Ok(f.space.first_inst() as u64 + n),
                        Tok::Global(b'f', n) => Ok(n),
                        Tok::Global(b'g', n) => Ok(f.space.functions as u64 + n),
                        t => {
                            return Err(self.err(item_at, format!("expected a value or block, found {}", t.describe())));
                        }
                    };
                    self.punct(b':')?;
                    let (name, braced) = self.symbol_name()?;
                    if !braced {
                        self.punct(b';')?;
                    }
                    self.offsets.push(item_at);
                    layout.items.push(self.annotation(block::VALUESYMTAB)?);
                    entries.push(match target {
                        Ok(v) => LocalSymbol::Value {
                            value: ValueId(u32::try_from(v).map_err(|_| self.err(item_at, "value index too large"))?),
                            name,
                        },
                        Err(b) => LocalSymbol::Block { block: b, name },
                    });
                }
            }
        }
        layout.abbrev_width = self.width(block::VALUESYMTAB, stated, at, layout.abbrevs.len());
        f.symtab = Some(layout);
        f.body.symtab = Some(entries);
        Ok(())
    }
}

/// Whether two bit patterns of a float type print alike as the disassembler prints them
/// (`%g`): then a listing's record holds the exact bits of the value its assembly shows.
fn prints_alike(a: u64, b: u64, ty: Ty) -> bool {
    let value = |bits: u64| {
        if ty == Ty::Float {
            u32::try_from(bits).ok().map(|b| f64::from(f32::from_bits(b)))
        } else {
            Some(f64::from_bits(bits))
        }
    };
    let (Some(a), Some(b)) = (value(a), value(b)) else { return false };
    let (mut sa, mut sb) = (String::new(), String::new());
    crate::dis::syntax::format_g(&mut sa, a);
    crate::dis::syntax::format_g(&mut sb, b);
    sa == sb
}
