//! Where the bits of a file go: each block id's own bits, nested blocks excluded.

use pnacl_bitstream::{Container, Cursor, Step};
use std::collections::BTreeMap;

/// The bits of all the blocks of one id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockBits {
    /// The block id.
    pub block_id: u32,
    /// Number of blocks.
    pub blocks: u64,
    /// Number of records in them.
    pub records: u64,
    /// Number of abbreviation definitions in them.
    pub definitions: u64,
    /// Their bits, from each block's enter record to its end (alignment included), less
    /// the bits of the blocks nested in them.
    pub bits: u64,
}

/// Measures a file's bits per block id (in block id order). Fails on a malformed
/// bitstream.
pub fn measure(bytes: &[u8]) -> Result<Vec<BlockBits>, String> {
    let container = Container::detect(bytes).map_err(|e| e.to_string())?;
    let (stream, start) = container.stream(bytes);
    let mut c = Cursor::new(stream, start, 2).map_err(|e| e.to_string())?;
    let mut by_id: BTreeMap<u32, BlockBits> = BTreeMap::new();
    // Open blocks: id, start, and the bits of the blocks nested in it.
    let mut open: Vec<(u32, u64, u64)> = Vec::new();
    loop {
        match c.step().map_err(|e| e.to_string())? {
            Step::End => break,
            Step::Enter => {
                let e = c.entered();
                open.push((e.block_id, e.pos.0, 0));
                by_id
                    .entry(e.block_id)
                    .or_insert_with(|| BlockBits { block_id: e.block_id, ..BlockBits::default() })
                    .blocks += 1;
            }
            Step::Exit => {
                let (id, start, nested) = open.pop().ok_or("block end outside any block")?;
                let total = c.pos().0 - start;
                if let Some(parent) = open.last_mut() {
                    parent.2 += total;
                }
                by_id.get_mut(&id).expect("entered").bits += total - nested;
            }
            Step::Abbrev => {
                if let Some(&(id, ..)) = open.last() {
                    by_id.get_mut(&id).expect("entered").definitions += 1;
                }
            }
            Step::Record => {
                if let Some(&(id, ..)) = open.last() {
                    by_id.get_mut(&id).expect("entered").records += 1;
                }
            }
        }
    }
    Ok(by_id.into_values().collect())
}
