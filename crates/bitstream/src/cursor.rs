//! Reading a bitstream as a sequence of block, abbreviation and record entries.
//!
//! [`Cursor`] walks the stream one entry at a time and keeps the state the format implies:
//! the abbreviation-id width of each open block, the abbreviations in scope (global ones from
//! BLOCKINFO, then local ones), and the block's declared end. Each entry carries the absolute
//! bit position at which its abbreviation id starts.
//!
//! Counts read from the stream are checked against the bits that remain before anything is
//! allocated for them, and a block can never read past the length it declares.

use crate::abbrev::Abbrev;
use crate::bits::{BitReader, window_at};
use crate::blockinfo::{AbbrevSet, BlockInfo};
use crate::entry::{
    AbbrevTarget, BLOCKINFO_BLOCK_ID, BLOCKINFO_CODE_BLOCKNAME, BLOCKINFO_CODE_SETBID, BLOCKINFO_CODE_SETRECORDNAME,
    DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, Enter, Entry, FIRST_APPLICATION_ABBREV, MAX_ABBREV_WIDTH, MAX_DEPTH,
    Record, Step, UNABBREV_RECORD,
};
use crate::error::{Error, Result};
use crate::gather::{Gather, ShiftGather};
use crate::position::BitPos;
use crate::window::{MAX_RECORD_VALUES, MAX_WINDOW_VALUES, Packed, Vbr6Fields, unabbrev_windows, window_part};
use std::any::type_name;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

/// Where the operands of the last record are in the [`Cursor`].
#[derive(Clone, Copy, Debug)]
enum Operands {
    /// `window_values[start..end]`.
    Window { start: usize, end: usize },
    /// `ops[start..]`.
    Fields { start: usize },
}

#[derive(Clone)]
struct Scope {
    block_id: u32,
    width: u32,
    end: BitPos,
    parent_limit: usize,
    parent_width: u32,
    /// The enclosing block's abbreviations, restored when this block ends.
    parent_set: Arc<AbbrevSet>,
    num_globals: usize,
}

/// A reader of bitstream entries. See the module documentation.
///
/// A clone reads on from the same place, independently.
///
/// `G` is how VBR fields decoded from a window lose their continuation bits: the portable
/// [`ShiftGather`] unless the cursor is created with [`Cursor::with_gather`].
#[derive(Clone)]
pub struct Cursor<'a, G: Gather = ShiftGather> {
    reader: BitReader<'a>,
    top_width: u32,
    scopes: Vec<Scope>,
    /// Abbreviations in scope in the innermost block: the global ones, as BLOCKINFO had them
    /// when the block was entered (shared until the block defines a local one), then the
    /// block's own. Kept here rather than in its [`Scope`] so that the record loop reaches a
    /// plan with one load fewer.
    set: Arc<AbbrevSet>,
    blockinfo: BlockInfo,
    /// Block id that BLOCKINFO records currently describe (set by SETBID).
    setbid: Option<u32>,
    /// Values of the last record read field by field (the abbreviated path decodes the
    /// record code into `ops[0]`).
    ops: Vec<u64>,
    /// Values of the last record decoded by the fast path.
    window_values: [u64; MAX_RECORD_VALUES],
    /// Where the last record's operands are.
    operands: Operands,
    defined: Option<Arc<Abbrev>>,
    /// Abbreviation-id width of the innermost block (cached from `scopes`).
    width: u32,
    /// True when the innermost block is a BLOCKINFO block.
    in_blockinfo: bool,
    /// Records and abbreviation definitions end on a byte boundary (the header's "align
    /// bitcode records" flag); such streams take the field-by-field path.
    align_records: bool,
    /// Details of the last entry read.
    last_pos: BitPos,
    last_abbrev_id: u32,
    last_code: u64,
    last_blob: Option<&'a [u8]>,
    last_enter: Enter,
    last_target: AbbrevTarget,
    gather: PhantomData<fn() -> G>,
}

impl<'a> Cursor<'a> {
    /// Creates a cursor over `data` starting at `start` (the first bit after any header),
    /// with top-level abbreviation ids of `top_width` bits (2 for LLVM and PNaCl files).
    pub fn new(data: &'a [u8], start: BitPos, top_width: u32) -> Result<Self> {
        Self::with_gather(data, start, top_width)
    }

    /// Creates a cursor positioned at the body of a block whose `ENTER_SUBBLOCK` was already
    /// read elsewhere (used to parse blocks independently, for example in parallel).
    pub fn in_block(data: &'a [u8], enter: &Enter, blockinfo: BlockInfo) -> Result<Self> {
        Self::in_block_with_gather(data, enter, blockinfo)
    }
}

impl<'a, G: Gather> Cursor<'a, G> {
    /// [`Cursor::new`] with the gather `G`. Fails, at `start`, if this processor cannot run
    /// `G`.
    pub fn with_gather(data: &'a [u8], start: BitPos, top_width: u32) -> Result<Self> {
        if !G::available() {
            return Err(Error::new(start, format!("{} needs a processor feature this one lacks", type_name::<G>())));
        }
        let mut c = Cursor {
            reader: BitReader::at(data, start)?,
            top_width,
            scopes: Vec::new(),
            set: Arc::default(),
            blockinfo: BlockInfo::default(),
            setbid: None,
            ops: Vec::with_capacity(64),
            window_values: [0; MAX_RECORD_VALUES],
            operands: Operands::Fields { start: 0 },
            defined: None,
            width: 0,
            in_blockinfo: false,
            align_records: false,
            last_pos: BitPos(0),
            last_abbrev_id: 0,
            last_code: 0,
            last_blob: None,
            last_enter: Enter {
                pos: BitPos(0),
                block_id: 0,
                abbrev_width: 0,
                length_words: 0,
                body: BitPos(0),
                end: BitPos(0),
            },
            last_target: AbbrevTarget::Local { abbrev_id: 0 },
            gather: PhantomData,
        };
        c.sync_scope();
        Ok(c)
    }

    /// Refreshes the cached facts about the innermost block.
    fn sync_scope(&mut self) {
        match self.scopes.last() {
            Some(s) => {
                self.width = s.width;
                self.in_blockinfo = s.block_id == BLOCKINFO_BLOCK_ID;
            }
            None => {
                self.width = self.top_width;
                self.in_blockinfo = false;
            }
        }
    }

    /// [`Cursor::in_block`] with the gather `G`.
    pub fn in_block_with_gather(data: &'a [u8], enter: &Enter, blockinfo: BlockInfo) -> Result<Self> {
        let mut c = Self::with_gather(data, enter.body, 2)?;
        let parent_limit = c.reader.limit();
        c.reader.set_limit((enter.end.0 / 8) as usize)?;
        let globals = blockinfo.snapshot(enter.block_id);
        c.push_scope(enter.block_id, enter.abbrev_width, enter.end, parent_limit, 2, globals);
        c.blockinfo = blockinfo;
        c.sync_scope();
        Ok(c)
    }

    /// Opens a block whose abbreviations in scope start as `set`.
    fn push_scope(
        &mut self,
        block_id: u32,
        width: u32,
        end: BitPos,
        parent_limit: usize,
        parent_width: u32,
        set: Arc<AbbrevSet>,
    ) {
        let num_globals = set.abbrevs.len();
        let parent_set = std::mem::replace(&mut self.set, set);
        self.scopes.push(Scope { block_id, width, end, parent_limit, parent_width, parent_set, num_globals });
    }

    /// Closes the innermost block: returns its id, end, and the enclosing data's limit and
    /// abbreviation width.
    fn pop_scope(&mut self) -> Option<(u32, BitPos, usize, u32)> {
        let Scope { block_id, end, parent_limit, parent_width, parent_set, .. } = self.scopes.pop()?;
        self.set = parent_set;
        self.sync_scope();
        Some((block_id, end, parent_limit, parent_width))
    }

    /// Reads records and abbreviation definitions as padded to a byte boundary, as PNaCl's
    /// experimental `--align-bitcode-records` writer pads them.
    pub fn set_align_records(&mut self, align: bool) {
        self.align_records = align;
    }

    /// Position of the next unread bit.
    pub fn pos(&self) -> BitPos {
        self.reader.pos()
    }

    /// Number of open blocks.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// Id of the innermost open block, if any.
    pub fn block_id(&self) -> Option<u32> {
        self.scopes.last().map(|s| s.block_id)
    }

    /// Abbreviation-id width of the innermost open block (the top-level width outside blocks).
    #[inline]
    pub fn abbrev_width(&self) -> u32 {
        self.width
    }

    /// Abbreviations in scope in the innermost block: globals first, then locals.
    pub fn abbrevs(&self) -> &[Arc<Abbrev>] {
        &self.set.abbrevs
    }

    /// How many of [`Cursor::abbrevs`] came from BLOCKINFO.
    pub fn num_global_abbrevs(&self) -> usize {
        self.scopes.last().map_or(0, |s| s.num_globals)
    }

    /// Global abbreviations and names read so far.
    pub fn blockinfo(&self) -> &BlockInfo {
        &self.blockinfo
    }

    /// Declared end of the innermost open block.
    pub fn block_end(&self) -> Option<BitPos> {
        self.scopes.last().map(|s| s.end)
    }

    /// Bits left before the innermost block's end (or the end of the data).
    pub fn remaining_bits(&self) -> u64 {
        self.reader.remaining_bits()
    }

    /// Skips the rest of the innermost block, as if its END_BLOCK had been read.
    pub fn skip_block(&mut self) -> Result<()> {
        let (_, end, parent_limit, _) = self.pop_scope().ok_or_else(|| Error::new(self.pos(), "no block to skip"))?;
        self.reader.set_limit(parent_limit)?;
        self.reader.seek(end)?;
        Ok(())
    }

    /// Reads the next entry.
    #[inline(always)]
    pub fn next_entry(&mut self) -> Result<Entry<'_, 'a>> {
        let pos = self.reader.pos();
        self.last_pos = pos;
        // The record is built from what the fast path decoded, not stored for
        // [`Cursor::record`] and reloaded: a wide reload of narrower stores stalls the
        // pipeline. Only BLOCKINFO records, which update the cursor's own state, are noted.
        if let Some(w) = self.fast_record() {
            if self.in_blockinfo {
                self.record_read(pos, w.id, w.code, Operands::Window { start: w.ops.start, end: w.ops.end }, None)?;
            }
            let ops = &self.window_values[w.ops];
            return Ok(Entry::Record(Record { pos, abbrev_id: w.id, code: w.code, ops, blob: None }));
        }
        Ok(match self.step_slow(pos)? {
            Step::Enter => Entry::Enter(self.last_enter),
            Step::Exit => Entry::Exit(self.last_pos),
            Step::Abbrev => Entry::Abbrev {
                pos: self.last_pos,
                abbrev: self.defined.as_ref().expect("just defined"),
                target: self.last_target,
            },
            Step::Record => Entry::Record(self.record()),
            Step::End => Entry::End(self.last_pos),
        })
    }

    /// Reads the records that follow, one after another, while each fits the fast path
    /// (inside a block other than BLOCKINFO, scalar operands only, ending within one 64-bit
    /// window unless it is unabbreviated), and hands each to `f`. Returns at the first
    /// entry that doesn't fit, without reading it (the next [`Cursor::next_entry`] does), or
    /// with the first error `f` returns, past the record it refused (which
    /// [`Cursor::last_pos`] then gives).
    ///
    /// Reads the same records as repeated [`Cursor::next_entry`] calls would, faster: `f`
    /// cannot touch the cursor, so the loop keeps the position and the abbreviations in
    /// registers across it, where a loop around `next_entry` reloads them from the cursor
    /// after every record handler it calls.
    #[inline(always)]
    pub fn fast_records<E>(
        &mut self,
        mut f: impl FnMut(Record<'_, 'a>) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        if self.scopes.is_empty() || self.in_blockinfo || self.align_records {
            return Ok(());
        }
        let (data, limit) = (self.reader.data(), self.reader.limit_bits());
        let (width, plans) = (self.width, &self.set.plans[..]);
        // The cursor's own buffer: a local one would be zeroed at every call, and the
        // function-block reader calls this after every entry the loop leaves to it.
        let values = &mut self.window_values;
        let (mut pos, mut last) = (self.reader.pos().0, self.last_pos);
        let result = loop {
            let Some(w) = window_record::<G>(data, limit, pos, width, plans, values) else { break Ok(()) };
            last = BitPos(pos);
            pos = w.next;
            let record = Record { pos: last, abbrev_id: w.id, code: w.code, ops: &values[w.ops], blob: None };
            if let Err(e) = f(record) {
                break Err(e);
            }
        };
        self.reader.set_pos(pos);
        self.last_pos = last;
        result
    }

    /// The record read by the last [`Cursor::step`] that returned [`Step::Record`]
    /// ([`Cursor::next_entry`] returns its records directly and need not note them here).
    #[inline]
    pub fn record(&self) -> Record<'_, 'a> {
        Record {
            pos: self.last_pos,
            abbrev_id: self.last_abbrev_id,
            code: self.last_code,
            ops: self.record_args(),
            blob: self.last_blob,
        }
    }

    /// The block entered by the last [`Step::Enter`].
    pub fn entered(&self) -> Enter {
        self.last_enter
    }

    /// The abbreviation defined by the last [`Step::Abbrev`], and where it went.
    pub fn defined(&self) -> (&Arc<Abbrev>, AbbrevTarget) {
        (self.defined.as_ref().expect("an abbreviation was defined"), self.last_target)
    }

    /// Position of the last entry read.
    pub fn last_pos(&self) -> BitPos {
        self.last_pos
    }

    /// Reads the next entry; its details are available through the accessors.
    #[inline(always)]
    pub fn step(&mut self) -> Result<Step> {
        let pos = self.reader.pos();
        self.last_pos = pos;
        if let Some(w) = self.fast_record() {
            let ops = Operands::Window { start: w.ops.start, end: w.ops.end };
            return self.record_read(pos, w.id, w.code, ops, None);
        }
        self.step_slow(pos)
    }

    /// Fast path: a record inside a block that, abbreviation id included, ends within one
    /// 64-bit window (or is unabbreviated and short enough for [`unabbrev_windows`]),
    /// decoded into `window_values`, having moved past it; `None`, without
    /// moving, for anything else (errors included), which [`Cursor::step_slow`] then reads
    /// from the same bits.
    #[inline(always)]
    fn fast_record(&mut self) -> Option<WindowRecord> {
        if self.scopes.is_empty() || self.align_records {
            return None;
        }
        let (data, limit) = (self.reader.data(), self.reader.limit_bits());
        let w =
            window_record::<G>(data, limit, self.reader.pos().0, self.width, &self.set.plans, &mut self.window_values)?;
        self.reader.set_pos(w.next);
        Some(w)
    }

    /// Reads the next entry the field-by-field way, from `pos`.
    fn step_slow(&mut self, pos: BitPos) -> Result<Step> {
        if self.scopes.is_empty() && self.reader.at_end() {
            return Ok(Step::End);
        }
        let width = self.abbrev_width();
        let id = self.reader.read(width)? as u32;
        match id {
            END_BLOCK => self.exit(pos),
            ENTER_SUBBLOCK => self.enter(pos),
            _ if self.scopes.is_empty() => {
                Err(Error::new(pos, format!("expected a block at the top level, found abbreviation id {id}")))
            }
            DEFINE_ABBREV => self.define_abbrev(pos),
            UNABBREV_RECORD => {
                let code = self.reader.read_vbr(6)?;
                let count = self.reader.read_vbr(6)?;
                if count.saturating_mul(6) > self.reader.remaining_bits() {
                    return Err(Error::new(
                        pos,
                        format!("record declares {count} operands, more than the remaining data holds"),
                    ));
                }
                self.ops.clear();
                self.ops.reserve(count as usize);
                self.reader.read_vbr6_values::<G>(count, &mut self.ops)?;
                self.align_if_asked()?;
                self.record_read(pos, id, code, Operands::Fields { start: 0 }, None)
            }
            _ => {
                let index = (id - FIRST_APPLICATION_ABBREV) as usize;
                let Some(abbrev) = self.set.abbrevs.get(index) else {
                    return Err(Error::new(
                        pos,
                        format!("Invalid abbreviation id {id}: block has {} abbreviations", self.set.abbrevs.len()),
                    ));
                };
                let blob = abbrev.decode(&mut self.reader, &mut self.ops, pos)?;
                self.align_if_asked()?;
                self.record_read(pos, id, self.ops[0], Operands::Fields { start: 1 }, blob)
            }
        }
    }

    /// Notes the record just decoded for [`Cursor::record`], and updates BLOCKINFO state
    /// if it is a BLOCKINFO record.
    #[inline(always)]
    fn record_read(
        &mut self,
        pos: BitPos,
        id: u32,
        code: u64,
        operands: Operands,
        blob: Option<&'a [u8]>,
    ) -> Result<Step> {
        self.operands = operands;
        self.last_abbrev_id = id;
        self.last_code = code;
        self.last_blob = blob;
        self.after_record(pos, code)?;
        Ok(Step::Record)
    }

    fn enter(&mut self, pos: BitPos) -> Result<Step> {
        let block_id = self.reader.read_vbr(8)?;
        let width = self.reader.read_vbr(4)?;
        self.reader.align32()?;
        let length_words = self.reader.read(32)?;
        let body = self.reader.pos();
        let block_id =
            u32::try_from(block_id).map_err(|_| Error::new(pos, format!("block id {block_id} is too large")))?;
        if width == 0 || width > u64::from(MAX_ABBREV_WIDTH) {
            return Err(Error::new(pos, format!("invalid abbreviation width {width} for block {block_id}")));
        }
        if self.scopes.len() >= MAX_DEPTH {
            return Err(Error::new(pos, "blocks are nested too deeply"));
        }
        let end = BitPos(body.0 + length_words * 32);
        if end.0 > self.reader.limit() as u64 * 8 {
            return Err(Error::new(
                pos,
                format!("block {block_id} declares {length_words} words, beyond the end of its enclosing data"),
            ));
        }
        let parent_limit = self.reader.limit();
        self.reader.set_limit((end.0 / 8) as usize)?;
        let parent_width = self.abbrev_width();
        let globals = self.blockinfo.snapshot(block_id);
        self.push_scope(block_id, width as u32, end, parent_limit, parent_width, globals);
        self.sync_scope();
        if block_id == BLOCKINFO_BLOCK_ID {
            self.setbid = None;
        }
        self.last_enter =
            Enter { pos, block_id, abbrev_width: width as u32, length_words: length_words as u32, body, end };
        Ok(Step::Enter)
    }

    fn exit(&mut self, pos: BitPos) -> Result<Step> {
        if self.scopes.is_empty() {
            return Err(Error::new(pos, "END_BLOCK at the top level"));
        }
        self.reader.align32()?;
        let (block_id, end, parent_limit, parent_width) = self.pop_scope().expect("checked above");
        let here = self.reader.pos();
        if here != end {
            return Err(Error::new(pos, format!("block {block_id} ends at {here} but its length says {end}")));
        }
        debug_assert_eq!(self.abbrev_width(), parent_width);
        self.reader.set_limit(parent_limit)?;
        Ok(Step::Exit)
    }

    fn define_abbrev(&mut self, pos: BitPos) -> Result<Step> {
        let abbrev = Arc::new(Abbrev::read_definition(&mut self.reader, pos)?);
        self.align_if_asked()?;
        let target = if self.in_blockinfo {
            let block_id =
                self.setbid.ok_or_else(|| Error::new(pos, "abbreviation in BLOCKINFO before any SETBID record"))?;
            let index = self.blockinfo.push(block_id, abbrev.clone());
            AbbrevTarget::Global { block_id, index: index as u32 }
        } else {
            let index = Arc::make_mut(&mut self.set).push(abbrev.clone());
            AbbrevTarget::Local { abbrev_id: index as u32 + FIRST_APPLICATION_ABBREV }
        };
        self.defined = Some(abbrev);
        self.last_target = target;
        Ok(Step::Abbrev)
    }

    /// Skips the padding after a record when records are byte-aligned.
    #[inline]
    fn align_if_asked(&mut self) -> Result<()> {
        if self.align_records { self.reader.align8() } else { Ok(()) }
    }

    /// Updates BLOCKINFO state for records read inside a BLOCKINFO block.
    #[inline]
    fn after_record(&mut self, pos: BitPos, code: u64) -> Result<()> {
        if !self.in_blockinfo {
            return Ok(());
        }
        self.blockinfo_record(pos, code)
    }

    #[cold]
    fn blockinfo_record(&mut self, pos: BitPos, code: u64) -> Result<()> {
        match code {
            BLOCKINFO_CODE_SETBID => {
                let args = self.record_args();
                let id = *args.first().ok_or_else(|| Error::new(pos, "SETBID record without a block id"))?;
                self.setbid =
                    Some(u32::try_from(id).map_err(|_| Error::new(pos, format!("SETBID block id {id} is too large")))?);
            }
            BLOCKINFO_CODE_BLOCKNAME | BLOCKINFO_CODE_SETRECORDNAME => {
                let Some(block) = self.setbid else {
                    return Err(Error::new(pos, "BLOCKINFO name record before any SETBID record"));
                };
                let args = self.record_args();
                let name = |vals: &[u64]| vals.iter().map(|&v| v as u8).collect::<Vec<u8>>();
                if code == BLOCKINFO_CODE_BLOCKNAME {
                    let n = name(args);
                    self.blockinfo.block_names.push((block, n));
                } else if let Some((&rec, rest)) = args.split_first() {
                    let n = name(rest);
                    self.blockinfo.record_names.push((block, rec, n));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Operands of the record just read.
    #[inline]
    fn record_args(&self) -> &[u64] {
        match self.operands {
            Operands::Window { start, end } => &self.window_values[start..end],
            Operands::Fields { start } => &self.ops[start..],
        }
    }
}

/// A record decoded from one window by [`window_record`].
struct WindowRecord {
    id: u32,
    code: u64,
    /// Where its operands are among the decoded values.
    ops: Range<usize>,
    /// The bit after it.
    next: u64,
}

/// Decodes the record at bit `pos` of `data` into `values`, when it is one the fast path
/// takes: with a plan in `plans` and ending within one window, or unabbreviated (over
/// several windows if need be); and ending before `limit`.
#[inline(always)]
fn window_record<G: Gather>(
    data: &[u8],
    limit: u64,
    pos: u64,
    width: u32,
    plans: &[Option<Packed>],
    values: &mut [u64; MAX_RECORD_VALUES],
) -> Option<WindowRecord> {
    let (window, avail) = window_at(data, pos)?;
    let id = (window & (u64::MAX >> (64 - width))) as u32;
    let (rest, rest_avail) = (window >> width, avail - width);
    let (code, ops, next) = if id == UNABBREV_RECORD {
        match unabbrev_window::<G>(rest, rest_avail, window_part(values)) {
            Some((code, count, bits)) => (code, 0..count, pos + u64::from(width + bits)),
            None => {
                let (code, count, next) = unabbrev_windows::<G>(data, pos + u64::from(width), values)?;
                (code, 0..count, next)
            }
        }
    } else if id >= FIRST_APPLICATION_ABBREV {
        let plan = plans.get((id - FIRST_APPLICATION_ABBREV) as usize)?.as_ref()?;
        let bits = plan.decode::<G>(rest, rest_avail, window_part(values))?;
        (values[0], 1..plan.len(), pos + u64::from(width + bits))
    } else {
        return None;
    };
    (next <= limit).then_some(WindowRecord { id, code, ops, next })
}

/// Decodes an unabbreviated record (VBR6 code, count and operands) from the start of
/// `window`, of which the low `avail` bits are valid, into `out`. Returns the code, the
/// number of operands and the bits the record takes, or `None` if it does not end within
/// the window.
#[inline(always)]
fn unabbrev_window<G: Gather>(
    window: u64,
    avail: u32,
    out: &mut [u64; MAX_WINDOW_VALUES],
) -> Option<(u64, usize, u32)> {
    let mut fields = Vbr6Fields::new(window, avail);
    let code = fields.next_field::<G>()?;
    let count = fields.next_field::<G>()? as usize;
    // Each operand takes at least 6 bits, so a window holds fewer than `MAX_WINDOW_VALUES`.
    if count >= MAX_WINDOW_VALUES {
        return None;
    }
    for v in &mut out[..count] {
        *v = fields.next_field::<G>()?;
    }
    Some((code, count, fields.used()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoder::StreamWriter;
    use crate::gather::PextGather;
    use crate::op::Op;
    use crate::window::tests::Rng;

    /// Everything a walk of `data` reads, errors included, in order, and how many records
    /// the record loop read (when the walk uses it before each `next_entry`).
    fn walk<G: Gather>(data: &[u8], record_loop: bool) -> (Vec<String>, usize) {
        let (mut out, mut looped) = (Vec::new(), 0);
        let mut c = Cursor::<G>::with_gather(data, BitPos(0), 2).unwrap();
        loop {
            if record_loop {
                let mut last = None;
                c.fast_records::<()>(|r| {
                    last = Some(r.pos);
                    looped += 1;
                    out.push(format!("{:?}", Entry::Record(r)));
                    Ok(())
                })
                .unwrap();
                if let Some(pos) = last {
                    assert_eq!(c.last_pos(), pos);
                }
            }
            match c.next_entry() {
                Ok(Entry::End(_)) => return (out, looped),
                Ok(e) => out.push(format!("{e:?}")),
                Err(e) => {
                    out.push(e.to_string());
                    return (out, looped);
                }
            }
        }
    }

    /// A stream of nested blocks holding records of every shape the fast path decodes and of
    /// some it leaves to the slow path (arrays, blobs, values longer than a window), cut
    /// short at a random place half the time.
    fn stream(rng: &mut Rng) -> Vec<u8> {
        let shapes = [
            vec![Op::Literal(2), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)],
            vec![Op::Literal(3), Op::Vbr(6), Op::Vbr(4), Op::Vbr(4)],
            vec![Op::Literal(4), Op::Fixed(3)],
            vec![Op::Vbr(6), Op::Vbr(8), Op::Char6],
            vec![Op::Literal(5), Op::Array, Op::Fixed(8)],
            vec![Op::Literal(6), Op::Blob],
        ];
        let mut w = StreamWriter::new(b"", 2);
        w.enter_block(8, 3).unwrap();
        for _ in 0..1 + rng.next() % 4 {
            let width = 2 + (rng.next() % 3) as u32;
            w.enter_block(12, width).unwrap();
            let mut ids = Vec::new();
            for s in &shapes {
                if rng.next().is_multiple_of(3) {
                    continue;
                }
                match w.define_abbrev(Arc::new(Abbrev::new(s.clone()).unwrap())) {
                    Ok(AbbrevTarget::Local { abbrev_id }) if abbrev_id < 1 << width => ids.push((abbrev_id, s)),
                    _ => break,
                }
            }
            for _ in 0..rng.next() % 60 {
                let pick = rng.next() as usize % (ids.len() + 1);
                let big = if rng.next().is_multiple_of(16) { 40 } else { 7 };
                let mut value = |bits: u32| rng.next() & (u64::MAX >> (64 - bits));
                if pick == ids.len() {
                    let n = value(3) as usize;
                    let ops: Vec<u64> = (0..n).map(|_| value(big)).collect();
                    w.record(UNABBREV_RECORD, value(5), &ops, None).unwrap();
                    continue;
                }
                let (id, ops) = ids[pick];
                let (code, args, blob): (u64, Vec<u64>, Option<Vec<u8>>) = match ops[..] {
                    [Op::Literal(c), Op::Vbr(6), Op::Vbr(6), Op::Fixed(4)] => {
                        (c, vec![value(big), value(big), value(4)], None)
                    }
                    [Op::Literal(c), Op::Vbr(6), Op::Vbr(4), Op::Vbr(4)] => {
                        (c, vec![value(big), value(big), value(6)], None)
                    }
                    [Op::Literal(c), Op::Fixed(3)] => (c, vec![value(3)], None),
                    [Op::Vbr(6), Op::Vbr(8), Op::Char6] => (value(big), vec![value(big), u64::from(b'a')], None),
                    [Op::Literal(c), Op::Array, Op::Fixed(8)] => (c, (0..value(3)).map(|_| value(8)).collect(), None),
                    _ => (6, vec![], Some((0..value(3)).map(|_| value(8) as u8).collect())),
                };
                w.record(id, code, &args, blob.as_deref()).unwrap();
            }
            w.exit_block().unwrap();
        }
        w.exit_block().unwrap();
        let mut data = w.finish().unwrap();
        if rng.next().is_multiple_of(2) {
            let cut = (rng.next() % data.len() as u64) as usize;
            data.truncate(cut);
        }
        data
    }

    #[test]
    fn the_record_loop_reads_what_next_entry_reads() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut looped_records, mut records) = (0, 0);
        for _ in 0..2_000 {
            let data = stream(&mut rng);
            let (want, _) = walk::<ShiftGather>(&data, false);
            let (got, looped) = walk::<ShiftGather>(&data, true);
            assert_eq!(got, want);
            if PextGather::available() {
                assert_eq!(walk::<PextGather>(&data, true).0, want);
            }
            looped_records += looped;
            records += want.iter().filter(|e| e.starts_with("Record")).count();
        }
        // Both paths read many records.
        let rest = records - looped_records;
        assert!(looped_records > 10_000 && rest > 10_000, "{looped_records} records in the loop, {rest} outside");
    }

    #[test]
    fn the_record_loop_stops_at_the_record_its_handler_refuses() {
        let mut w = StreamWriter::new(b"", 2);
        w.enter_block(8, 3).unwrap();
        for code in 1..=5 {
            w.record(UNABBREV_RECORD, code, &[code * 10], None).unwrap();
        }
        w.exit_block().unwrap();
        let data = w.finish().unwrap();
        let mut c = Cursor::new(&data, BitPos(0), 2).unwrap();
        assert!(matches!(c.next_entry().unwrap(), Entry::Enter(_)));
        let mut seen = Vec::new();
        let refused = c.fast_records(|r| {
            seen.push((r.code, r.pos));
            if r.code == 3 { Err(r.pos) } else { Ok(()) }
        });
        assert_eq!(refused, Err(seen[2].1));
        assert_eq!(c.last_pos(), seen[2].1);
        // The refused record was read; the cursor goes on after it.
        match c.next_entry().unwrap() {
            Entry::Record(r) => assert_eq!((r.code, r.ops), (4, &[40][..])),
            e => panic!("{e:?}"),
        }
    }
}
