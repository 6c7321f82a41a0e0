//! The module symbol table, which names functions and globals and so says which functions
//! are intrinsics; the checks of signatures that depend on it.

use super::context::BlockCtx;
use super::fields::name_bytes;
use super::listener::{Item, Listener};
use super::state::{Reader, Stage, State};
use crate::abi;
use crate::codes::{block, symtab as sc};
use crate::error::{ReadError, Rule};
use crate::ir::{BlockLayout, Symbol, ValueId};
use pnacl_bitstream::{BitPos, Enter, Gather, Record};

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
    pub(super) fn module_symtab_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        let lenient = self.st.opts.lenient_structure;
        match self.st.stage {
            Stage::Globals => {}
            Stage::Symtab if lenient => {}
            Stage::Start | Stage::Version | Stage::Types if lenient => {}
            Stage::Symtab => return Err(self.st.err(enter.pos, Rule::ModuleOrder, "Duplicate valuesymtab in module")),
            Stage::Functions => {
                return Err(self.st.err(
                    enter.pos,
                    Rule::ModuleOrder,
                    "Module symbol table must appear before function blocks",
                ));
            }
            _ => {
                return Err(self.st.err(
                    enter.pos,
                    Rule::ModuleOrder,
                    "The module symbol table must come after the globals block",
                ));
            }
        }
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::ModuleSymtab);
        self.listen_enter(&enter);
        let mut layout = self.st.layout.is_some().then(|| BlockLayout::new(enter.abbrev_width));
        self.st.m.symtab.get_or_insert_with(Vec::new);
        let pos = self.leaf_block(block::VALUESYMTAB, &mut layout, |st, r, _| st.module_symbol(r))?;
        if let (Some(ml), Some(l)) = (&mut self.st.layout, layout) {
            ml.symtab = Some(l);
        }
        self.st.stage = Stage::Symtab;
        self.st.check_signatures()?;
        self.listen_exit(pos);
        self.st.blocks.pop();
        Ok(())
    }
}

impl State {
    fn module_symbol(&mut self, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        if r.code != sc::ENTRY {
            let what = if r.code == sc::BBENTRY {
                "Basic block entries are only allowed in function symbol tables".to_string()
            } else {
                format!("Unknown record code {} in valuesymtab block", r.code)
            };
            let rule = if r.code == sc::BBENTRY { Rule::Symtab } else { Rule::UnknownRecord };
            return Err(self.err(r.pos, rule, what));
        }
        let Some((&value, chars)) = r.ops.split_first() else {
            return Err(self.err(r.pos, Rule::RecordLength, "Symbol table entry expects a value and a name"));
        };
        let limit = (self.m.functions.len() + self.m.globals.len()) as u64;
        if value >= limit {
            return Err(self.err(
                r.pos,
                Rule::Symtab,
                format!("Symbol table entry names undefined value {value} (module has {limit} values)"),
            ));
        }
        let name = name_bytes(r.pos, chars)?;
        if (value as usize) < self.m.functions.len() && abi::is_intrinsic_name(&name) {
            self.check_intrinsic(r.pos, value as u32, &name)?;
        }
        let symtab = self.m.symtab.as_mut().expect("set on entry");
        symtab.push(Symbol { value: ValueId(value as u32), name });
        if let Some(p) = &mut self.m.positions {
            p.symbols.push(r.pos);
        }
        Ok(Item::Symbol(symtab.len() - 1))
    }

    fn check_intrinsic(&mut self, pos: BitPos, f: u32, name: &[u8]) -> Result<(), ReadError> {
        let text = String::from_utf8_lossy(name).into_owned();
        let Some(i) = abi::intrinsic(name) else {
            return self.abi(pos, Rule::Intrinsic, || format!("Invalid intrinsic name: {text}"));
        };
        let sig = self.m.signature(f).clone();
        if let Some(msg) = abi::intrinsic_signature_error(i, &sig) {
            self.abi(pos, Rule::Intrinsic, || msg)?;
        }
        self.intrinsics[f as usize] = Some(i);
        Ok(())
    }

    /// Checks the signature of every function that is not an intrinsic (ABI rule), once the
    /// module symbol table has said which functions are intrinsics.
    pub(crate) fn check_signatures(&mut self) -> Result<(), ReadError> {
        if self.signatures_checked {
            return Ok(());
        }
        self.signatures_checked = true;
        if self.opts.defer_abi {
            return Ok(());
        }
        for f in 0..self.m.functions.len() {
            if self.intrinsics[f].is_some() {
                continue;
            }
            let sig = self.m.signature(f as u32);
            if !abi::is_valid_signature(sig) {
                let msg = format!("Invalid type signature for @f{f}: {sig}");
                return Err(self.err(self.fn_positions[f], Rule::Signature, msg));
            }
        }
        Ok(())
    }
}
