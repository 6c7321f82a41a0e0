//! The census: every record of a module, by block kind, with duplicates counted once.
//!
//! The search works on each kind's distinct records weighted by how often they occur (a
//! function block's records repeat a lot: the same load, the same branch). Each block
//! instance keeps the sequence of its records' ids, and a template of where its nested
//! blocks sit among them, taken from the layout the module was read with so that the
//! output lists everything in the same order as the input.

use pnacl_bitcode::ir::{BlockLayout, ITEM_ABBREV, ITEM_BLOCK, ITEM_UNABBREVIATED};
use pnacl_bitcode::{BlockEntry, BlockRecords, BlockRef, Canonical, Module, WriteError};
use rayon::prelude::*;
use std::hash::BuildHasher;

/// A distinct record of a kind.
#[derive(Clone, Copy, Debug)]
pub struct Rec {
    /// The record code.
    pub code: u64,
    start: usize,
    len: u32,
    /// How many times it occurs.
    pub count: u64,
}

/// The distinct records of one kind of block.
#[derive(Default)]
pub struct Table {
    values: Vec<u64>,
    recs: Vec<Rec>,
    index: hashbrown::HashTable<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl Table {
    /// Counts one occurrence of a record; returns its id.
    pub fn insert(&mut self, code: u64, ops: &[u64]) -> u32 {
        let hash = self.hasher.hash_one((code, ops));
        let (values, recs) = (&self.values, &mut self.recs);
        let eq = |&id: &u32| {
            let r = &recs[id as usize];
            r.code == code && &values[r.start..r.start + r.len as usize] == ops
        };
        if let Some(&id) = self.index.find(hash, eq) {
            recs[id as usize].count += 1;
            return id;
        }
        let id = self.recs.len() as u32;
        self.recs.push(Rec { code, start: self.values.len(), len: ops.len() as u32, count: 1 });
        self.values.extend_from_slice(ops);
        let (values, recs) = (&self.values, &self.recs);
        self.index.insert_unique(hash, id, |&id| {
            let r = &recs[id as usize];
            self.hasher.hash_one((r.code, &values[r.start..r.start + r.len as usize]))
        });
        id
    }

    /// Number of distinct records.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The record with id `id`.
    pub fn rec(&self, id: u32) -> &Rec {
        &self.recs[id as usize]
    }

    /// The operands of record `id`.
    pub fn ops(&self, id: u32) -> &[u64] {
        let r = &self.recs[id as usize];
        &self.values[r.start..r.start + r.len as usize]
    }

    /// Every distinct record: id, code, operands, count.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64, &[u64], u64)> + '_ {
        self.recs
            .iter()
            .enumerate()
            .map(|(i, r)| (i as u32, r.code, &self.values[r.start..r.start + r.len as usize], r.count))
    }

    /// Total number of records (occurrences).
    pub fn occurrences(&self) -> u64 {
        self.recs.iter().map(|r| r.count).sum()
    }
}

/// All the blocks of one block id.
pub struct Kind {
    /// The block id.
    pub block_id: u32,
    /// Number of blocks.
    pub instances: u64,
    /// Entries that pay the blocks' abbreviation-id width, other than local abbreviation
    /// definitions: records, nested blocks entered, and each block's end.
    pub items: u64,
    /// The distinct records.
    pub table: Table,
}

/// One block of the module.
pub struct Instance {
    /// Which block.
    pub block: BlockRef,
    /// Index of its kind in [`Census::kinds`].
    pub kind: usize,
    /// Its records' ids, in order.
    pub ids: Vec<u32>,
    /// Its contents in file order: [`ITEM_BLOCK`] for a nested block, [`ITEM_UNABBREVIATED`]
    /// for each record. For the module block, the abbreviations block is always included.
    pub template: Vec<u16>,
}

/// Every record of a module.
pub struct Census {
    /// The kinds, in order of first appearance.
    pub kinds: Vec<Kind>,
    /// Every block, in file order.
    pub instances: Vec<Instance>,
}

impl Census {
    /// Takes the census of `m`.
    pub fn take(m: &Module) -> Result<Census, WriteError> {
        let canonical = Canonical::new(m);
        let blocks = canonical.blocks();
        let records: Vec<Result<BlockRecords, WriteError>> =
            blocks.par_iter().with_min_len(32).map(|&b| canonical.records(b)).collect();
        let mut kinds: Vec<Kind> = Vec::new();
        let mut instances = Vec::with_capacity(blocks.len());
        for (block, recs) in blocks.into_iter().zip(records) {
            let recs = recs?;
            let block_id = block.block_id();
            let kind = match kinds.iter().position(|k| k.block_id == block_id) {
                Some(k) => k,
                None => {
                    kinds.push(Kind { block_id, instances: 0, items: 0, table: Table::default() });
                    kinds.len() - 1
                }
            };
            let k = &mut kinds[kind];
            k.instances += 1;
            let mut ids = Vec::with_capacity(recs.record_count());
            for (code, ops) in recs.records() {
                ids.push(k.table.insert(code, ops));
            }
            let blocks_in = recs.block_count();
            k.items += (ids.len() + blocks_in + 1) as u64;
            let template = template(m, block, &recs);
            instances.push(Instance { block, kind, ids, template });
        }
        Ok(Census { kinds, instances })
    }
}

/// Where a block's nested blocks sit among its records: as the module was read when its
/// layout says so (and agrees with the records), else in canonical order.
fn template(m: &Module, block: BlockRef, recs: &BlockRecords) -> Vec<u16> {
    let canonical = || {
        recs.entries()
            .map(|e| match e {
                BlockEntry::Record { .. } => ITEM_UNABBREVIATED,
                BlockEntry::Block => ITEM_BLOCK,
            })
            .collect::<Vec<u16>>()
    };
    let Some(kept) = recorded(m, block) else { return canonical() };
    let mut items: Vec<u16> = kept
        .items
        .iter()
        .filter(|&&i| i != ITEM_ABBREV)
        .map(|&i| if i == ITEM_BLOCK { ITEM_BLOCK } else { ITEM_UNABBREVIATED })
        .collect();
    if block == BlockRef::Module && m.layout.as_ref().is_some_and(|l| l.blockinfo.is_none()) {
        // The canonical module holds the abbreviations block right after the version record.
        match items.iter().position(|&i| i != ITEM_BLOCK) {
            Some(first) => items.insert(first + 1, ITEM_BLOCK),
            None => return canonical(),
        }
    }
    let records = items.iter().filter(|&&i| i != ITEM_BLOCK).count();
    if records != recs.record_count() || items.len() - records != recs.block_count() {
        return canonical();
    }
    items
}

/// The layout the module recorded for a block, if any.
fn recorded(m: &Module, block: BlockRef) -> Option<&BlockLayout> {
    let module = m.layout.as_deref();
    let body = |f: u32| m.functions.get(f as usize)?.body.as_deref()?.layout.as_deref();
    match block {
        BlockRef::Module => module.map(|l| &l.module),
        BlockRef::Types => module.map(|l| &l.types),
        BlockRef::Globals => module.map(|l| &l.globals),
        BlockRef::ModuleSymtab => module?.symtab.as_ref(),
        BlockRef::Function(f) => body(f).map(|l| &l.function),
        BlockRef::Constants(f) => body(f)?.constants.as_ref(),
        BlockRef::FunctionSymtab(f) => body(f)?.symtab.as_ref(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_counts_duplicates() {
        let mut t = Table::default();
        let a = t.insert(2, &[1, 2, 3]);
        let b = t.insert(2, &[1, 2]);
        let c = t.insert(2, &[1, 2, 3]);
        let d = t.insert(3, &[1, 2, 3]);
        assert_eq!((a, b, c, d), (0, 1, 0, 2));
        assert_eq!(t.rec(a).count, 2);
        assert_eq!(t.ops(b), &[1, 2]);
        assert_eq!(t.occurrences(), 4);
    }
}
