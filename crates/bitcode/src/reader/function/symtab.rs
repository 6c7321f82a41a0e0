//! The records of a function's symbol table, which names its values and basic blocks.

use super::state::{FnState, err};
use crate::codes::symtab as sc;
use crate::error::{ReadError, Rule};
use crate::ir::{LocalSymbol, ValueId};
use crate::reader::fields::name_bytes;
use crate::reader::listener::Item;
use pnacl_bitstream::Record;

impl FnState {
    /// A record of the function's symbol table.
    pub(super) fn local_symbol(&mut self, r: &Record<'_, '_>) -> Result<Item, ReadError> {
        let pos = r.pos;
        let Some((&id, chars)) = r.ops.split_first() else {
            return Err(err(pos, Rule::RecordLength, "Symbol table entry expects an id and a name"));
        };
        let name = name_bytes(pos, chars)?;
        let entry = match r.code {
            sc::ENTRY => {
                if id >= u64::from(self.next_value) {
                    return Err(err(pos, Rule::Symtab, format!("Symbol table entry names undefined value {id}")));
                }
                LocalSymbol::Value { value: ValueId(id as u32), name }
            }
            sc::BBENTRY => {
                if id >= u64::from(self.body.num_blocks) {
                    return Err(err(
                        pos,
                        Rule::Symtab,
                        format!("Symbol table entry names undefined basic block %b{id}"),
                    ));
                }
                LocalSymbol::Block { block: id as u32, name }
            }
            code => {
                return Err(err(pos, Rule::UnknownRecord, format!("Unknown record code {code} in valuesymtab block")));
            }
        };
        let symtab = self.body.symtab.get_or_insert_with(Vec::new);
        symtab.push(entry);
        Ok(Item::LocalSymbol(symtab.len() - 1))
    }
}
