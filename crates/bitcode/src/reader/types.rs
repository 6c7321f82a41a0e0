//! The types block.

use super::context::BlockCtx;
use super::listener::{Item, Listener};
use super::state::{Reader, Stage, State};
use crate::codes::{block, types as tc};
use crate::error::{ReadError, Rule};
use crate::ir::{BlockLayout, Signature, Ty, TypeDef};
use pnacl_bitstream::{Enter, Gather, Record};
use std::collections::HashSet;

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
    pub(super) fn types_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let missing_version = self.st.opts.lenient_structure && self.st.stage == Stage::Start;
        if self.st.stage != Stage::Version && !missing_version {
            let why = if self.st.stage == Stage::Start {
                "The version record must come before the types block"
            } else {
                "Only one types block is allowed, before function addresses and globals"
            };
            return Err(self.st.err(enter.pos, Rule::ModuleOrder, why));
        }
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Types);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        let mut seen = HashSet::new();
        let pos =
            self.leaf_block(block::TYPES, &mut layout, |st, r, remaining| st.type_record(r, remaining, &mut seen))?;
        let expected = self
            .st
            .expected_types
            .ok_or_else(|| self.st.err(pos, Rule::TypesCount, "The types block has no count record"))?;
        if self.st.m.types.len() as u64 != expected {
            return Err(self.st.err(
                pos,
                Rule::TypesCount,
                format!("Expected {expected} types but found: {}", self.st.m.types.len()),
            ));
        }
        if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
            ml.types = l;
        }
        self.st.stage = Stage::Types;
        self.listen_exit(pos);
        self.st.blocks.pop();
        Ok(())
    }
}

impl State {
    fn type_record(
        &mut self,
        r: &Record<'_, '_>,
        remaining: u64,
        seen: &mut HashSet<TypeDef>,
    ) -> Result<Item, ReadError> {
        let n = self.m.types.len() as u64;
        if r.code == tc::NUMENTRY {
            if self.expected_types.is_some() || n != 0 {
                return Err(self.err(r.pos, Rule::TypesCount, "Count record not first record of types block"));
            }
            if r.ops.len() != 1 {
                return Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Count record expects 1 argument. Found: {}", r.ops.len()),
                ));
            }
            // Each type takes a record of at least a few bits; a larger count can't be honest.
            if r.ops[0] > remaining {
                return Err(self.err(
                    r.pos,
                    Rule::TypesCount,
                    format!("Types count {} is larger than the types block can hold", r.ops[0]),
                ));
            }
            self.expected_types = Some(r.ops[0]);
            return Ok(Item::TypeCount(r.ops[0]));
        }
        let expected = self
            .expected_types
            .ok_or_else(|| self.err(r.pos, Rule::TypesCount, "Count record not first record of types block"))?;
        let arity = |want: usize| -> Result<(), ReadError> {
            if r.ops.len() != want {
                Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Type record expects {want} arguments. Found: {}", r.ops.len()),
                ))
            } else {
                Ok(())
            }
        };
        let value_type = |id: u64, what: &str| -> Result<Ty, ReadError> {
            match self.m.types.get(id as usize) {
                Some(TypeDef::Value(t)) => Ok(*t),
                Some(t) => {
                    Err(self.err(r.pos, Rule::TypeRef, format!("{what} can't be the function type {t} (@t{id})")))
                }
                None => Err(self.err(r.pos, Rule::TypeRef, format!("Can't find definition for @t{id}"))),
            }
        };
        let def = match r.code {
            tc::VOID => {
                arity(0)?;
                TypeDef::Value(Ty::Void)
            }
            tc::FLOAT => {
                arity(0)?;
                TypeDef::Value(Ty::Float)
            }
            tc::DOUBLE => {
                arity(0)?;
                TypeDef::Value(Ty::Double)
            }
            tc::INTEGER => {
                arity(1)?;
                let t = Ty::int(r.ops[0]).ok_or_else(|| {
                    self.err(
                        r.pos,
                        Rule::TypeInteger,
                        format!("Type integer record with invalid bitsize: {}", r.ops[0]),
                    )
                })?;
                TypeDef::Value(t)
            }
            tc::VECTOR => {
                arity(2)?;
                let elem = value_type(r.ops[1], "A vector element")?;
                let t = Ty::vector(r.ops[0], elem).ok_or_else(|| {
                    self.err(r.pos, Rule::TypeVector, format!("Vector type <{} x {elem}> not allowed.", r.ops[0]))
                })?;
                TypeDef::Value(t)
            }
            tc::FUNCTION => {
                if r.ops.len() < 2 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Function type record expects at least 2 arguments. Found: {}", r.ops.len()),
                    ));
                }
                let vararg = match r.ops[0] {
                    0 => false,
                    1 => true,
                    v => {
                        return Err(self.err(
                            r.pos,
                            Rule::TypeFunction,
                            format!("Function type has invalid vararg flag {v}"),
                        ));
                    }
                };
                let ret = value_type(r.ops[1], "A return type")?;
                let mut params = Vec::with_capacity(r.ops.len() - 2);
                for (i, &p) in r.ops[2..].iter().enumerate() {
                    let t = value_type(p, "A parameter type")?;
                    if t == Ty::Void {
                        return Err(self.err(
                            r.pos,
                            Rule::TypeFunction,
                            format!("Parameter {} of a function type can't be void", i + 1),
                        ));
                    }
                    params.push(t);
                }
                if vararg {
                    self.abi(r.pos, Rule::Vararg, || {
                        "Functions with variable length arguments is not supported".into()
                    })?;
                }
                TypeDef::Function(Signature { ret, params, vararg })
            }
            code => {
                return Err(self.err(r.pos, Rule::UnknownRecord, format!("Unknown record code {code} in types block")));
            }
        };
        if n >= expected {
            return Err(self.err(r.pos, Rule::TypesCount, format!("Expected {expected} types but found more")));
        }
        if !seen.insert(def.clone()) {
            let first = self.m.types.iter().position(|t| *t == def).unwrap_or(0);
            return Err(self.err(r.pos, Rule::TypeUnique, format!("Type @t{n} ({def}) duplicates @t{first}")));
        }
        if let TypeDef::Value(t) = def {
            self.value_type_ids[t as usize] = Some(n as u32);
        }
        self.m.types.push(def);
        Ok(Item::Type(n as u32))
    }
}
