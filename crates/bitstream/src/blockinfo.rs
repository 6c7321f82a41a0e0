//! The abbreviations in scope in a block, and the global ones and names BLOCKINFO blocks
//! define: what a [`crate::Cursor`] keeps of the stream between blocks.

use crate::abbrev::Abbrev;
use crate::window::Packed;
use std::sync::Arc;

/// Abbreviations in scope in a block (abbreviation id = index + 4), each with its plan for
/// decoding from one window. The plans are kept beside the abbreviations, inline, so that
/// the record loop reaches a record's plan with one load from its abbreviation id.
#[derive(Clone, Debug, Default)]
pub(crate) struct AbbrevSet {
    pub(crate) abbrevs: Vec<Arc<Abbrev>>,
    pub(crate) plans: Vec<Option<Packed>>,
}

impl AbbrevSet {
    pub(crate) fn push(&mut self, abbrev: Arc<Abbrev>) -> usize {
        self.plans.push(abbrev.packed());
        self.abbrevs.push(abbrev);
        self.abbrevs.len() - 1
    }
}

/// Global abbreviations and names gathered from BLOCKINFO blocks.
#[derive(Clone, Debug, Default)]
pub struct BlockInfo {
    /// `(block id, abbreviations)`, in the order block ids were first described. Each set
    /// is shared with the blocks that entered while it had its current contents.
    abbrevs: Vec<(u32, Arc<AbbrevSet>)>,
    /// `(block id, name)` from BLOCKNAME records.
    pub block_names: Vec<(u32, Vec<u8>)>,
    /// `(block id, record code, name)` from SETRECORDNAME records.
    pub record_names: Vec<(u32, u64, Vec<u8>)>,
}

impl BlockInfo {
    /// The global abbreviations defined so far for `block_id`.
    pub fn abbrevs(&self, block_id: u32) -> &[Arc<Abbrev>] {
        self.abbrevs.iter().find(|(id, _)| *id == block_id).map(|(_, v)| v.abbrevs.as_slice()).unwrap_or(&[])
    }

    /// A shared snapshot of the global abbreviations for `block_id`.
    pub(crate) fn snapshot(&self, block_id: u32) -> Arc<AbbrevSet> {
        self.abbrevs.iter().find(|(id, _)| *id == block_id).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    /// Adds a global abbreviation for `block_id`; returns its index among that block's globals.
    pub fn push(&mut self, block_id: u32, abbrev: Arc<Abbrev>) -> usize {
        match self.abbrevs.iter_mut().find(|(id, _)| *id == block_id) {
            Some((_, v)) => Arc::make_mut(v).push(abbrev),
            None => {
                let mut set = AbbrevSet::default();
                set.push(abbrev);
                self.abbrevs.push((block_id, Arc::new(set)));
                0
            }
        }
    }

    /// Block ids with global abbreviations, in first-described order.
    pub fn block_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.abbrevs.iter().map(|(id, _)| *id)
    }
}
