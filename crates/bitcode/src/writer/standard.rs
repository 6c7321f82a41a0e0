//! The standard abbreviations `pnacl-finalize` writes, and its choice among them.

use crate::codes::{block, constants as cc, function as fc, globals as gc, symtab as sc, types as tc};
use crate::ir::{BlockinfoItem, BlockinfoLayout};
use pnacl_bitstream::{Abbrev, Op, UNABBREV_RECORD, bits_needed, encode_char6};
use std::sync::Arc;

/// The standard abbreviation set for a module with a given number of types.
pub(crate) struct Standard {
    blockinfo: BlockinfoLayout,
    types_local: Arc<Abbrev>,
    /// Abbreviations in scope per block id (globals, then locals), indexed by id - 4.
    scopes: Vec<(u32, Vec<Arc<Abbrev>>)>,
}

fn abbrev(ops: &[Op]) -> Arc<Abbrev> {
    Arc::new(Abbrev::new(ops.to_vec()).expect("standard abbreviations are well formed"))
}

impl Standard {
    pub fn new(num_types: usize) -> Self {
        use Op::{Array, Char6, Fixed, Literal as L, Vbr};
        // Type ids are fixed-width when that takes at most 6 bits.
        let n = bits_needed(num_types as u64);
        let ty = if n <= 6 { Fixed(n) } else { Vbr(6) };
        let mut items = Vec::new();
        let mut section = |id: u32, abbrevs: Vec<Arc<Abbrev>>| {
            items.push(BlockinfoItem::SetBid { block_id: id, abbrev_id: UNABBREV_RECORD as u16 });
            items.extend(abbrevs.into_iter().map(BlockinfoItem::Abbrev));
        };
        section(
            block::VALUESYMTAB,
            vec![
                abbrev(&[Fixed(3), Vbr(8), Array, Fixed(8)]),
                abbrev(&[L(sc::ENTRY), Vbr(8), Array, Fixed(7)]),
                abbrev(&[L(sc::ENTRY), Vbr(8), Array, Char6]),
                abbrev(&[L(sc::BBENTRY), Vbr(8), Array, Char6]),
            ],
        );
        section(
            block::CONSTANTS,
            vec![
                abbrev(&[L(cc::SETTYPE), ty]),
                abbrev(&[L(cc::INTEGER), Vbr(8)]),
                abbrev(&[L(cc::INTEGER), L(0)]),
                abbrev(&[L(cc::FLOAT), Vbr(8)]),
            ],
        );
        section(
            block::FUNCTION,
            vec![
                abbrev(&[L(fc::LOAD), Vbr(6), Vbr(4), Vbr(4)]),
                abbrev(&[L(fc::BINOP), Vbr(6), Vbr(6), Fixed(4)]),
                abbrev(&[L(fc::CAST), Vbr(6), ty, Fixed(4)]),
                abbrev(&[L(fc::RET)]),
                abbrev(&[L(fc::RET), Vbr(6)]),
                abbrev(&[L(fc::UNREACHABLE)]),
                abbrev(&[L(fc::FORWARDTYPEREF), Vbr(6), ty]),
                abbrev(&[L(fc::STORE), Vbr(6), Vbr(6), Vbr(4)]),
            ],
        );
        section(
            block::GLOBALS,
            vec![
                abbrev(&[L(gc::VAR), Vbr(6), Fixed(1)]),
                abbrev(&[L(gc::COMPOUND), Vbr(8)]),
                abbrev(&[L(gc::ZEROFILL), Vbr(8)]),
                abbrev(&[L(gc::DATA), Array, Fixed(8)]),
                abbrev(&[L(gc::RELOC), Vbr(6)]),
                abbrev(&[L(gc::RELOC), Vbr(6), Vbr(6)]),
            ],
        );
        let mut std = Standard {
            blockinfo: BlockinfoLayout { abbrev_width: 2, items },
            types_local: abbrev(&[L(tc::FUNCTION), Fixed(1), Array, ty]),
            scopes: Vec::new(),
        };
        for id in [block::VALUESYMTAB, block::CONSTANTS, block::FUNCTION, block::GLOBALS, block::TYPES] {
            let mut v = std.blockinfo.abbrevs_for(id);
            v.extend(std.local_abbrevs(id));
            std.scopes.push((id, v));
        }
        std
    }

    /// The abbreviations block.
    pub fn blockinfo(&self) -> &BlockinfoLayout {
        &self.blockinfo
    }

    /// The local abbreviations the types block starts with.
    pub fn local_abbrevs(&self, block_id: u32) -> Vec<Arc<Abbrev>> {
        if block_id == block::TYPES { vec![self.types_local.clone()] } else { Vec::new() }
    }

    /// The abbreviation-id width of a block: enough for every abbreviation in scope.
    pub fn width(&self, block_id: u32) -> u32 {
        if block_id == block::MODULE || block_id == block::BLOCKINFO {
            return 2;
        }
        let n = self.blockinfo.abbrevs_for(block_id).len() + self.local_abbrevs(block_id).len();
        bits_needed(3 + n as u64)
    }

    /// The abbreviation id `pnacl-finalize` uses for a record, or 3 (unabbreviated).
    pub fn choose(&self, block_id: u32, code: u64, ops: &[u64]) -> u32 {
        let id =
            match (block_id, code, ops.len()) {
                (block::TYPES, tc::FUNCTION, _) => 4,
                (block::GLOBALS, gc::VAR, 2) => 4,
                (block::GLOBALS, gc::COMPOUND, 1) => 5,
                (block::GLOBALS, gc::ZEROFILL, 1) => 6,
                (block::GLOBALS, gc::DATA, _) => 7,
                (block::GLOBALS, gc::RELOC, 1) => 8,
                (block::GLOBALS, gc::RELOC, 2) => 9,
                (block::VALUESYMTAB, sc::ENTRY, n) if n > 0 => {
                    let name = &ops[1..];
                    if name.iter().all(|&c| encode_char6(c).is_some()) {
                        6
                    } else if name.iter().all(|&c| c < 128) {
                        5
                    } else {
                        4
                    }
                }
                (block::VALUESYMTAB, sc::BBENTRY, n) if n > 0 => {
                    if ops[1..].iter().all(|&c| encode_char6(c).is_some()) { 7 } else { 4 }
                }
                (block::CONSTANTS, cc::SETTYPE, 1) => 4,
                (block::CONSTANTS, cc::INTEGER, 1) if ops[0] == 0 => 6,
                (block::CONSTANTS, cc::INTEGER, 1) => 5,
                (block::CONSTANTS, cc::FLOAT, 1) => 7,
                (block::FUNCTION, fc::LOAD, 3) => 4,
                (block::FUNCTION, fc::BINOP, 3) => 5,
                (block::FUNCTION, fc::CAST, 3) => 6,
                (block::FUNCTION, fc::RET, 0) => 7,
                (block::FUNCTION, fc::RET, 1) => 8,
                (block::FUNCTION, fc::UNREACHABLE, 0) => 9,
                (block::FUNCTION, fc::FORWARDTYPEREF, 2) => 10,
                (block::FUNCTION, fc::STORE, 3) => 11,
                _ => return UNABBREV_RECORD,
            };
        // Fall back to unabbreviated when the abbreviation can't hold the values.
        let scope = self.scopes.iter().find(|(b, _)| *b == block_id).map(|(_, v)| v.as_slice()).unwrap_or(&[]);
        match scope.get(id as usize - 4) {
            Some(a) if a.can_encode(code, ops, None).is_ok() => id,
            _ => UNABBREV_RECORD,
        }
    }
}
