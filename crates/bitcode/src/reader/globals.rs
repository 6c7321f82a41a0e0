//! The globals block: global variables and their initializers.

use super::context::BlockCtx;
use super::fields::MAX_ALIGN_ENCODING;
use super::listener::{Item, Listener};
use super::state::{Reader, Stage, State};
use crate::codes::{block, globals as gc};
use crate::error::{ReadError, Rule};
use crate::ir::{Align, BlockLayout, Global, Init, ValueId};
use pnacl_bitstream::{Enter, Gather, Record};

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
    pub(super) fn globals_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let lenient = self.st.opts.lenient_structure;
        if self.st.stage != Stage::Types && !(lenient && self.st.stage < Stage::Types) {
            let why = if self.st.stage < Stage::Types {
                "The globals block must come after the types block and the function addresses"
            } else {
                "Only one globals block is allowed"
            };
            return Err(self.st.err(enter.pos, Rule::ModuleOrder, why));
        }
        if self.st.m.functions.is_empty() && !lenient {
            return Err(self.st.err(
                enter.pos,
                Rule::ModuleOrder,
                "The module must define at least one function address before the globals block",
            ));
        }
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Globals);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        let pos = self.leaf_block(block::GLOBALS, &mut layout, |st, r, remaining| st.global_record(r, remaining))?;
        let expected = self
            .st
            .expected_globals
            .ok_or_else(|| self.st.err(pos, Rule::GlobalsCount, "The globals block has no count record"))?;
        if self.st.pending_inits > 0 {
            let g = self.st.m.globals.len() - 1;
            return Err(self.st.err(
                pos,
                Rule::GlobalInit,
                format!("More initializers for @g{g} expected: {}", self.st.pending_inits),
            ));
        }
        if self.st.m.globals.len() as u64 != expected {
            return Err(self.st.err(
                pos,
                Rule::GlobalsCount,
                format!("Expected {expected} globals but found: {}", self.st.m.globals.len()),
            ));
        }
        if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
            ml.globals = l;
        }
        self.st.stage = Stage::Globals;
        self.listen_exit(pos);
        self.st.blocks.pop();
        Ok(())
    }
}

impl State {
    fn global_record(&mut self, r: &Record<'_, '_>, remaining: u64) -> Result<Item, ReadError> {
        if r.code == gc::COUNT {
            if self.expected_globals.is_some() || !self.m.globals.is_empty() {
                return Err(self.err(r.pos, Rule::GlobalsCount, "Globals count record not first in block."));
            }
            if r.ops.len() != 1 {
                return Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Globals count record expects 1 argument. Found: {}", r.ops.len()),
                ));
            }
            // Every global needs two records of at least a few bits each.
            if r.ops[0] > remaining / 2 || r.ops[0] > u64::from(u32::MAX / 2) {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalsCount,
                    format!("Globals count {} is larger than the globals block can hold", r.ops[0]),
                ));
            }
            self.expected_globals = Some(r.ops[0]);
            return Ok(Item::GlobalCount(r.ops[0]));
        }
        let expected = self
            .expected_globals
            .ok_or_else(|| self.err(r.pos, Rule::GlobalsCount, "Globals count record not first in block."))?;
        if r.code == gc::VAR {
            if r.ops.len() != 2 {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalVar,
                    format!("Globalvar record expects two arguments. Found: {}", r.ops.len()),
                ));
            }
            let n = self.m.globals.len();
            if self.pending_inits > 0 {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalInit,
                    format!("More initializers for @g{} expected: {}", n.saturating_sub(1), self.pending_inits),
                ));
            }
            if n as u64 >= expected {
                return Err(self.err(r.pos, Rule::GlobalsCount, format!("Expected {expected} globals but found more")));
            }
            let (align, is_const) = (r.ops[0], r.ops[1]);
            if align > MAX_ALIGN_ENCODING {
                return Err(self.err(
                    r.pos,
                    Rule::Align,
                    format!("Alignment can't be greater than 2**29. Found: 2**{}", align - 1),
                ));
            }
            if is_const > 1 {
                return Err(self.err(r.pos, Rule::GlobalVar, format!("Invalid constant flag {is_const} for @g{n}")));
            }
            self.m.globals.push(Global {
                align: Align(align as u8),
                is_const: is_const == 1,
                inits: Vec::new(),
                compound: false,
            });
            if let Some(p) = &mut self.m.positions {
                p.globals.push(r.pos);
            }
            self.pending_inits = 1;
            self.in_compound = false;
            return Ok(Item::Global(n as u32));
        }
        if !matches!(r.code, gc::COMPOUND | gc::ZEROFILL | gc::DATA | gc::RELOC) {
            return Err(self.err(
                r.pos,
                Rule::UnknownRecord,
                format!("Unknown record code {} in globals block", r.code),
            ));
        }
        let Some(g) = self.m.globals.len().checked_sub(1) else {
            return Err(self.err(r.pos, Rule::GlobalInit, "Initializer record before any global variable record"));
        };
        if r.code == gc::COMPOUND {
            if r.ops.len() != 1 {
                return Err(self.err(
                    r.pos,
                    Rule::RecordLength,
                    format!("Compound record expects 1 argument. Found: {}", r.ops.len()),
                ));
            }
            if self.pending_inits != 1 || self.in_compound || !self.m.globals[g].inits.is_empty() {
                return Err(self.err(r.pos, Rule::GlobalInit, "Globals compound record not first initializer"));
            }
            let count = r.ops[0];
            if count == 0 || count > remaining / 2 {
                return Err(self.err(
                    r.pos,
                    Rule::GlobalInit,
                    format!("Compound initializer for @g{g} can't hold {count} initializers"),
                ));
            }
            self.pending_inits = count;
            self.in_compound = true;
            let global = &mut self.m.globals[g];
            global.compound = true;
            // The count was checked against the block's size above.
            global.inits.reserve_exact(count as usize);
            return Ok(Item::Compound { global: g as u32, count });
        }
        if self.pending_inits == 0 {
            return Err(self.err(r.pos, Rule::GlobalInit, format!("Too many initializers for @g{g}")));
        }
        let init = match r.code {
            gc::ZEROFILL => {
                if r.ops.len() != 1 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Zerofill record expects 1 argument. Found: {}", r.ops.len()),
                    ));
                }
                if r.ops[0] > u64::from(u32::MAX) {
                    return Err(self.err(
                        r.pos,
                        Rule::GlobalData,
                        format!("Zerofill of {} bytes is larger than the address space", r.ops[0]),
                    ));
                }
                Init::Zerofill(r.ops[0])
            }
            gc::DATA => {
                if r.ops.is_empty() {
                    return Err(self.err(r.pos, Rule::GlobalData, "Data record has no bytes"));
                }
                // One pass that ORs every value (vectorized), and the search for the culprit
                // only when that pass finds one.
                if r.ops.iter().fold(0, |all, &b| all | b) > 255 {
                    let b = r.ops.iter().find(|&&b| b > 255).expect("some value is over 255");
                    return Err(self.err(r.pos, Rule::GlobalData, format!("Invalid byte value in data record: {b}")));
                }
                Init::Data(r.ops.iter().map(|&b| b as u8).collect())
            }
            gc::RELOC => {
                if r.ops.is_empty() || r.ops.len() > 2 {
                    return Err(self.err(
                        r.pos,
                        Rule::RecordLength,
                        format!("Relocation record expects 1 or 2 arguments. Found: {}", r.ops.len()),
                    ));
                }
                let limit = self.m.functions.len() as u64 + expected;
                if r.ops[0] >= limit {
                    return Err(self.err(
                        r.pos,
                        Rule::GlobalReloc,
                        format!(
                            "Relocation index {} too big. Have {} functions and {} globals",
                            r.ops[0],
                            self.m.functions.len(),
                            expected
                        ),
                    ));
                }
                let addend = match r.ops.get(1) {
                    Some(&a) if a > u64::from(u32::MAX) => {
                        return Err(self.err(
                            r.pos,
                            Rule::GlobalReloc,
                            format!("Addend of global reloc record too big: {a}"),
                        ));
                    }
                    a => a.map(|&a| a as u32),
                };
                Init::Reloc { target: ValueId(r.ops[0] as u32), addend }
            }
            code => {
                return Err(self.err(
                    r.pos,
                    Rule::UnknownRecord,
                    format!("Unknown record code {code} in globals block"),
                ));
            }
        };
        let global = &mut self.m.globals[g];
        if global.inits.capacity() == 0 {
            // A simple initializer: the only one.
            global.inits.reserve_exact(1);
        }
        global.inits.push(init);
        let index = global.inits.len() as u32 - 1;
        self.pending_inits -= 1;
        let ends_compound = self.in_compound && self.pending_inits == 0;
        if self.pending_inits == 0 {
            self.in_compound = false;
        }
        Ok(Item::Initializer { global: g as u32, index, ends_compound })
    }
}
