//! Writing a bitstream from block, abbreviation and record entries.
//!
//! [`StreamWriter`] is the inverse of [`crate::Cursor`]: it tracks the same scopes
//! (abbreviation width, globals from BLOCKINFO, locals) and back-patches each block's length
//! word when the block ends. Feeding it every entry a cursor reads reproduces the input bits,
//! provided the input used minimal VBR encodings and zero padding (as every LLVM and PNaCl
//! writer does).

use crate::abbrev::Abbrev;
use crate::bits::BitWriter;
use crate::blockinfo::{AbbrevSet, BlockInfo};
use crate::entry::{
    AbbrevTarget, BLOCKINFO_BLOCK_ID, BLOCKINFO_CODE_SETBID, DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, Entry,
    FIRST_APPLICATION_ABBREV, UNABBREV_RECORD,
};
use crate::error::{Error, Result};
use crate::position::BitPos;
use std::sync::Arc;

struct Scope {
    block_id: u32,
    width: u32,
    length_at: usize,
    /// The global abbreviations as the block started (shared, not copied: blocks are
    /// entered far more often than BLOCKINFO changes), then the block's own.
    globals: Arc<AbbrevSet>,
    locals: Vec<Arc<Abbrev>>,
}

impl Scope {
    /// The abbreviation with index `index` (its id less the first application id).
    fn abbrev(&self, index: usize) -> Option<&Arc<Abbrev>> {
        let globals = &self.globals.abbrevs;
        globals.get(index).or_else(|| self.locals.get(index - globals.len()))
    }

    fn len(&self) -> usize {
        self.globals.abbrevs.len() + self.locals.len()
    }
}

/// A block-structured bitstream writer.
pub struct StreamWriter {
    w: BitWriter,
    top_width: u32,
    scopes: Vec<Scope>,
    blockinfo: BlockInfo,
    setbid: Option<u32>,
    align_records: bool,
}

impl StreamWriter {
    /// Creates a writer whose output starts with `prefix` (a file header), with top-level
    /// abbreviation ids of `top_width` bits.
    pub fn new(prefix: &[u8], top_width: u32) -> Self {
        StreamWriter {
            w: BitWriter::with_prefix(prefix),
            top_width,
            scopes: Vec::new(),
            blockinfo: BlockInfo::default(),
            setbid: None,
            align_records: false,
        }
    }

    /// Pads every record and abbreviation definition to a byte boundary with zero bits, as
    /// PNaCl's experimental `-align-bitcode-records` writer does (the header of such a file
    /// carries the "align bitcode records" flag, and readers skip the padding).
    pub fn set_align_records(&mut self, align: bool) {
        self.align_records = align;
    }

    fn align_if_asked(&mut self) {
        if self.align_records {
            self.w.align8();
        }
    }

    /// Position of the next bit to be written.
    pub fn pos(&self) -> BitPos {
        self.w.pos()
    }

    /// Abbreviation-id width of the innermost open block.
    pub fn abbrev_width(&self) -> u32 {
        self.scopes.last().map_or(self.top_width, |s| s.width)
    }

    /// Number of open blocks.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// How many abbreviations are in scope in the innermost block.
    pub fn num_abbrevs(&self) -> usize {
        self.scopes.last().map_or(0, Scope::len)
    }

    /// Global abbreviations defined so far.
    pub fn blockinfo(&self) -> &BlockInfo {
        &self.blockinfo
    }

    fn write_abbrev_id(&mut self, id: u32) -> Result<()> {
        let width = self.abbrev_width();
        put_abbrev_id(&mut self.w, width, id)
    }

    /// Starts a block with abbreviation ids of `width` bits.
    pub fn enter_block(&mut self, block_id: u32, width: u32) -> Result<()> {
        if width == 0 || width > 32 {
            return Err(Error::new(self.pos(), format!("invalid abbreviation width {width}")));
        }
        self.write_abbrev_id(ENTER_SUBBLOCK)?;
        self.w.write_vbr(8, u64::from(block_id));
        self.w.write_vbr(4, u64::from(width));
        self.w.align32();
        let length_at = (self.w.pos().0 / 8) as usize;
        self.w.write(32, 0);
        let globals = self.blockinfo.snapshot(block_id);
        self.scopes.push(Scope { block_id, width, length_at, globals, locals: Vec::new() });
        if block_id == BLOCKINFO_BLOCK_ID {
            self.setbid = None;
        }
        Ok(())
    }

    /// Ends the innermost block and fills in its length word.
    pub fn exit_block(&mut self) -> Result<()> {
        if self.scopes.is_empty() {
            return Err(Error::new(self.pos(), "no block to end"));
        }
        self.write_abbrev_id(END_BLOCK)?;
        self.w.align32();
        let scope = self.scopes.pop().expect("checked above");
        let words = ((self.w.pos().0 / 8) as usize - scope.length_at - 4) / 4;
        let words = u32::try_from(words).map_err(|_| Error::new(self.pos(), "block longer than 2^32 words"))?;
        self.w.patch_u32(scope.length_at, words);
        Ok(())
    }

    /// Defines an abbreviation: a global one for the SETBID block when inside BLOCKINFO,
    /// otherwise a local one of the current block.
    pub fn define_abbrev(&mut self, abbrev: Arc<Abbrev>) -> Result<AbbrevTarget> {
        let Some(scope) = self.scopes.last() else {
            return Err(Error::new(self.pos(), "abbreviation outside any block"));
        };
        let in_blockinfo = scope.block_id == BLOCKINFO_BLOCK_ID;
        let setbid = self.setbid;
        self.write_abbrev_id(DEFINE_ABBREV)?;
        abbrev.write_definition(&mut self.w);
        self.align_if_asked();
        if in_blockinfo {
            let block_id =
                setbid.ok_or_else(|| Error::new(self.pos(), "abbreviation in BLOCKINFO before any SETBID record"))?;
            let index = self.blockinfo.push(block_id, abbrev) as u32;
            Ok(AbbrevTarget::Global { block_id, index })
        } else {
            let scope = self.scopes.last_mut().expect("checked above");
            scope.locals.push(abbrev);
            Ok(AbbrevTarget::Local { abbrev_id: scope.len() as u32 - 1 + FIRST_APPLICATION_ABBREV })
        }
    }

    /// Writes a record with abbreviation `abbrev_id` (3 = unabbreviated).
    pub fn record(&mut self, abbrev_id: u32, code: u64, ops: &[u64], blob: Option<&[u8]>) -> Result<()> {
        let Some(scope) = self.scopes.last() else {
            return Err(Error::new(self.pos(), "record outside any block"));
        };
        let block_id = scope.block_id;
        if abbrev_id == UNABBREV_RECORD {
            if blob.is_some() {
                return Err(Error::new(self.pos(), "an unabbreviated record can't carry a blob"));
            }
            self.write_abbrev_id(UNABBREV_RECORD)?;
            self.w.write_vbr(6, code);
            self.w.write_vbr(6, ops.len() as u64);
            for &v in ops {
                self.w.write_vbr(6, v);
            }
        } else {
            let index = abbrev_id
                .checked_sub(FIRST_APPLICATION_ABBREV)
                .ok_or_else(|| Error::new(self.pos(), format!("abbreviation id {abbrev_id} is reserved")))?
                as usize;
            // Borrowed, not cloned: no reference count to change for every record.
            let (w, width) = (&mut self.w, scope.width);
            let Some(abbrev) = scope.abbrev(index) else {
                return Err(Error::new(
                    w.pos(),
                    format!("abbreviation id {abbrev_id} is not defined ({} in scope)", scope.len()),
                ));
            };
            abbrev
                .can_encode(code, ops, blob)
                .map_err(|m| Error::new(w.pos(), format!("record can't be written with abbreviation {abbrev}: {m}")))?;
            put_abbrev_id(w, width, abbrev_id)?;
            abbrev.encode(w, code, ops, blob);
        }
        self.align_if_asked();
        if block_id == BLOCKINFO_BLOCK_ID && code == BLOCKINFO_CODE_SETBID {
            let id = *ops.first().ok_or_else(|| Error::new(self.pos(), "SETBID without a block id"))?;
            self.setbid = Some(u32::try_from(id).map_err(|_| Error::new(self.pos(), "SETBID block id too large"))?);
        }
        Ok(())
    }

    /// Writes raw bits at the current position, bypassing every check. This is how tools
    /// build deliberately malformed input (for example an abbreviation definition the
    /// format forbids) to test readers.
    pub fn raw_bits(&mut self, width: u32, value: u64) {
        self.w.write(width, value);
    }

    /// Writes a raw abbreviation id in the current block's width (see [`StreamWriter::raw_bits`]).
    pub fn raw_abbrev_id(&mut self, id: u32) {
        let width = self.abbrev_width();
        self.w.write(width, u64::from(id));
    }

    /// Writes an entry read by a [`crate::Cursor`] (record-exact copying).
    pub fn copy(&mut self, entry: &Entry<'_, '_>) -> Result<()> {
        match entry {
            Entry::Enter(e) => self.enter_block(e.block_id, e.abbrev_width),
            Entry::Exit(_) => self.exit_block(),
            Entry::Abbrev { abbrev, .. } => self.define_abbrev(Arc::clone(abbrev)).map(|_| ()),
            Entry::Record(r) => self.record(r.abbrev_id, r.code, r.ops, r.blob),
            Entry::End(_) => Ok(()),
        }
    }

    /// Finishes the stream. Fails if a block is still open.
    pub fn finish(self) -> Result<Vec<u8>> {
        if let Some(scope) = self.scopes.last() {
            return Err(Error::new(self.w.pos(), format!("block {} is still open", scope.block_id)));
        }
        Ok(self.w.finish())
    }
}

/// Writes abbreviation id `id` in `width` bits, if it fits.
fn put_abbrev_id(w: &mut BitWriter, width: u32, id: u32) -> Result<()> {
    if width < 32 && id >> width != 0 {
        return Err(Error::new(w.pos(), format!("abbreviation id {id} does not fit in {width} bits")));
    }
    w.write(width, u64::from(id));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cursor::Cursor;
    use crate::op::Op;

    #[test]
    fn writes_what_the_cursor_reads() {
        let mut sw = StreamWriter::new(b"", 2);
        sw.enter_block(8, 3).unwrap();
        sw.record(3, 1, &[1], None).unwrap();
        sw.enter_block(0, 2).unwrap();
        sw.record(3, 1, &[14], None).unwrap();
        let g = Arc::new(Abbrev::new(vec![Op::Literal(1), Op::Vbr(8), Op::Array, Op::Char6]).unwrap());
        assert_eq!(sw.define_abbrev(g).unwrap(), AbbrevTarget::Global { block_id: 14, index: 0 });
        sw.exit_block().unwrap();
        sw.enter_block(14, 3).unwrap();
        sw.record(4, 1, &[0, b'f' as u64], None).unwrap();
        let l = Arc::new(Abbrev::new(vec![Op::Literal(2), Op::Fixed(3)]).unwrap());
        assert_eq!(sw.define_abbrev(l).unwrap(), AbbrevTarget::Local { abbrev_id: 5 });
        sw.record(5, 2, &[7], None).unwrap();
        assert!(sw.record(5, 2, &[8], None).is_err());
        sw.exit_block().unwrap();
        sw.exit_block().unwrap();
        let bytes = sw.finish().unwrap();

        let mut c = Cursor::new(&bytes, BitPos(0), 2).unwrap();
        let mut copy = StreamWriter::new(b"", 2);
        let mut records = Vec::new();
        loop {
            let e = c.next_entry().unwrap();
            if let Entry::End(_) = e {
                break;
            }
            if let Entry::Record(r) = &e {
                records.push((r.abbrev_id, r.code, r.ops.to_vec()));
            }
            copy.copy(&e).unwrap();
        }
        assert_eq!(records, vec![(3, 1, vec![1]), (3, 1, vec![14]), (4, 1, vec![0, b'f' as u64]), (5, 2, vec![7])]);
        assert_eq!(copy.finish().unwrap(), bytes);
    }
}
