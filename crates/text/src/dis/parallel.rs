//! Function blocks listed ahead, on all cores.
//!
//! A function block's listing depends only on the module-level state before it, the
//! formatters' indentation and the block's own bits, and its extent is known from its
//! length word. So a scout walks the module block once, skipping function blocks, to find
//! them; batches of them are then listed in parallel, each from a copy of the state at the
//! start of the batch, and the walk prints each listing in turn in place of listing the block
//! itself, checking first that the state it started from is the state the walk is in.
//!
//! Only listings without any error or warning are used: messages depend on what came before
//! (the error count, the 20-error limit) and error recovery may end the listing, so a block
//! with any is listed again by the walk itself, as before. Results are used only for
//! function blocks that directly follow each other, so no module-level record changes the
//! state between the start of a batch and the blocks it lists.

use super::module::named_intrinsic;
use super::output::Dumper;
use super::output::LayoutState;
use super::types::T;
use super::walk::{Kind, Module, Walker};
use pnacl_bitcode::codes::{block, globals, symtab};
use pnacl_bitstream::{BitPos, BlockInfo, Cursor, Enter, Entry};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Bits of function blocks listed per batch: a batch's listings (about 25 bytes of text per
/// byte of bitcode) are held in memory until printed.
const BATCH_BITS: u64 = 256 * 1024 * 8;

/// Room for the listing of a function block, per byte of it: about what a full listing
/// takes (one allocation for most blocks), but no more than `MAX_CAPACITY` up front, since
/// the length comes from the file.
const TEXT_PER_BYTE: usize = 32;
const MAX_CAPACITY: usize = 1 << 20;

/// A function block the scout found.
struct Job {
    enter: Enter,
    /// The global abbreviations in effect where it starts.
    blockinfo: Arc<BlockInfo>,
}

/// The listing of one function block, made ahead.
struct Listed {
    pos: BitPos,
    /// `None` when the block must be listed by the walk (errors, warnings).
    done: Option<Done>,
}

/// A listing made ahead and the state it leaves.
struct Done {
    text: Vec<u8>,
    end: LayoutState,
    record_pos: BitPos,
    num_defined: usize,
    params: Vec<T>,
    consts: Vec<T>,
    insts: Vec<T>,
    num_valued: u32,
}

/// The state a batch of listings made ahead started from.
struct Start {
    layout: LayoutState,
    /// The number of function blocks read before the first of the batch.
    first: usize,
    /// For a batch listed while the globals block before it was listed: what the module's
    /// blocks up to the batch were predicted to leave (see
    /// [`Walker::globals_beside_functions`]).
    predicted: Option<Prediction>,
}

/// The module-level state the globals block and the symbol table after it leave if they
/// list without error.
#[derive(PartialEq, Eq)]
struct Prediction {
    num_globals: u32,
    expected_globals: u32,
    /// Which functions the symbol table names as intrinsics.
    fn_intrinsic: Vec<bool>,
}

impl Prediction {
    /// True if the walk's module-level state `m` is the one predicted.
    fn holds_for(&self, m: &Module) -> bool {
        self.num_globals == m.num_globals
            && self.expected_globals == m.expected_globals
            && self.fn_intrinsic == m.fn_intrinsic
    }
}

/// The function blocks of the module and the listings made ahead.
pub(super) struct Ahead<'a> {
    data: &'a [u8],
    align: bool,
    jobs: Vec<Job>,
    ready: VecDeque<Listed>,
    /// The state the listings in `ready` started from.
    start: Option<Start>,
    /// Where the function block after the last one printed from `ready` would start.
    follows: Option<BitPos>,
}

impl<'a> Ahead<'a> {
    /// Scouts the module block of the bitstream that starts at `start`; `None` when running
    /// on one thread, or if the module holds no function block.
    pub(super) fn new(data: &'a [u8], start: BitPos, align: bool) -> Option<Box<Self>> {
        if rayon::current_num_threads() < 2 {
            return None;
        }
        let jobs = scout(data, start, align);
        if jobs.len() < 2 {
            return None;
        }
        Some(Box::new(Ahead { data, align, jobs, ready: VecDeque::new(), start: None, follows: None }))
    }
}

/// The function blocks directly in the first module block, in order, as far as the
/// bitstream can be read (the walk lists anything after a fault itself).
fn scout(data: &[u8], start: BitPos, align: bool) -> Vec<Job> {
    let mut jobs = Vec::new();
    let Ok(mut c) = Cursor::new(data, start, 2) else { return jobs };
    c.set_align_records(align);
    match c.next_entry() {
        Ok(Entry::Enter(e)) if e.block_id == block::MODULE => {}
        _ => return jobs,
    }
    let mut blockinfo = Arc::new(c.blockinfo().clone());
    loop {
        let enter = match c.next_entry() {
            Ok(Entry::Enter(e)) => e,
            Ok(Entry::Record(_) | Entry::Abbrev { .. }) => continue,
            _ => return jobs,
        };
        match enter.block_id {
            block::FUNCTION => {
                jobs.push(Job { enter, blockinfo: blockinfo.clone() });
                if c.skip_block().is_err() {
                    return jobs;
                }
            }
            block::BLOCKINFO => {
                // Read through: the cursor keeps the abbreviations it defines.
                loop {
                    match c.next_entry() {
                        Ok(Entry::Exit(_)) => break,
                        Ok(Entry::Record(_) | Entry::Abbrev { .. }) => {}
                        _ => return jobs,
                    }
                }
                blockinfo = Arc::new(c.blockinfo().clone());
            }
            _ => {
                if c.skip_block().is_err() {
                    return jobs;
                }
            }
        }
    }
}

impl Walker<'_> {
    /// Prints the listing of the function block `e` (whose ENTER_SUBBLOCK `c` just read)
    /// made ahead, and skips the block. Returns false, having done nothing, when there is
    /// none or it does not apply: the walk then lists the block itself.
    pub(super) fn listed_ahead(&mut self, c: &mut Cursor<'_>, e: &Enter) -> bool {
        let Some(mut ahead) = self.ahead.take() else { return false };
        let printed = self.print_ahead(&mut ahead, c, e);
        if !printed {
            ahead.ready.clear();
            ahead.follows = None;
        }
        self.ahead = Some(ahead);
        printed
    }

    fn print_ahead(&mut self, ahead: &mut Ahead<'_>, c: &mut Cursor<'_>, e: &Enter) -> bool {
        if ahead.follows != Some(e.pos) || ahead.ready.front().is_none_or(|l| l.pos != e.pos) {
            ahead.ready.clear();
            if !self.list_batch(ahead, e) {
                return false;
            }
        }
        let Some(Start { layout: start, first, predicted }) = &ahead.start else { return false };
        if predicted.as_ref().is_some_and(|p| !p.holds_for(&self.m)) {
            return false;
        }
        let Some(listed) = ahead.ready.pop_front() else { return false };
        let Some(done) = listed.done else { return false };
        let n = done.num_defined - 1;
        if listed.pos != e.pos || self.num_defined != n || *first > n || !self.d.is_idle() {
            return false;
        }
        if !self.d.layout_state().lays_out_as(start) {
            return false;
        }
        if c.skip_block().is_err() {
            return false;
        }
        self.d.print_laid_out(done.text);
        self.d.set_layout_state(done.end);
        self.d.record_pos = done.record_pos;
        self.num_defined = done.num_defined;
        self.params = done.params;
        self.consts = done.consts;
        self.insts = done.insts;
        self.num_valued = done.num_valued;
        ahead.follows = Some(e.end);
        true
    }

    /// Lists, in parallel, the function blocks from `e` on, as far as a batch goes, from
    /// the walk's present state. Returns false if the scout did not find `e`.
    fn list_batch(&mut self, ahead: &mut Ahead<'_>, e: &Enter) -> bool {
        let Ok(from) = ahead.jobs.binary_search_by_key(&e.pos, |j| j.enter.pos) else { return false };
        if ahead.jobs[from].enter != *e {
            return false;
        }
        let to = batch_end(&ahead.jobs, from, BATCH_BITS);
        let start = self.d.layout_state();
        let first = self.num_defined;
        let batch = Batch::new(ahead, &self.m, &start, first, &self.d, self.abi);
        let d = &mut self.d;
        let mut listed = Vec::new();
        // The previous batch's listings are written while this one is made.
        rayon::in_place_scope(|s| {
            s.spawn(|_| listed = batch.list(from, to));
            d.write_deferred();
        });
        ahead.ready = listed.into();
        ahead.start = Some(Start { layout: start, first, predicted: None });
        ahead.follows = Some(e.pos);
        true
    }

    /// Lists the module's globals block `e` (whose ENTER_SUBBLOCK `c` just read) while, on
    /// the other cores, the function blocks after it are listed ahead, from the state the
    /// module's blocks up to them are predicted to leave (see [`predict`]). The prediction
    /// is checked before any of those listings is printed. Returns false, having done
    /// nothing, when nothing is listed ahead: the walk then lists the block itself.
    ///
    /// Without this, listing the globals block (a sixth of a large pexe) would keep all but
    /// one core idle.
    pub(super) fn globals_beside_functions(&mut self, c: &mut Cursor<'_>, e: &Enter) -> bool {
        let Some(mut ahead) = self.ahead.take() else { return false };
        let from = ahead.jobs.partition_point(|j| j.enter.pos < e.end);
        let prediction = ahead.jobs.get(from).and_then(|j| predict(c, j.enter.pos, &self.m));
        let Some(prediction) = prediction else {
            self.ahead = Some(ahead);
            return false;
        };
        let mut module = self.m.clone();
        module.num_globals = prediction.num_globals;
        module.expected_globals = prediction.expected_globals;
        module.fn_intrinsic.clone_from(&prediction.fn_intrinsic);
        // Functions listed while the globals are: about what the other core lists in
        // that time, but no more than two batches. Their text waits in memory until the
        // globals block is printed, and memory touched for the first time costs page
        // faults: with up to four batches, dis of supernet_api faulted 10.8 k times
        // against 7.2 k, and took 175 ms against 170 (one batch left a core idle: 176 ms).
        let bits = (e.end.0.saturating_sub(e.pos.0) * 2).clamp(BATCH_BITS, 2 * BATCH_BITS);
        let to = batch_end(&ahead.jobs, from, bits);
        let start = self.d.layout_state();
        let first = self.num_defined;
        let batch = Batch::new(&ahead, &module, &start, first, &self.d, self.abi);
        let mut listed = Vec::new();
        rayon::in_place_scope(|s| {
            s.spawn(|_| listed = batch.list(from, to));
            self.block(c, *e, Kind::Globals);
        });
        ahead.follows = Some(ahead.jobs[from].enter.pos);
        ahead.ready = listed.into();
        ahead.start = Some(Start { layout: start, first, predicted: Some(prediction) });
        self.ahead = Some(ahead);
        true
    }
}

/// One past the last job of the batch that starts at job `from` and holds about `bits` of
/// function blocks (at least one).
fn batch_end(jobs: &[Job], from: usize, bits: u64) -> usize {
    let mut to = from;
    let mut sum = 0;
    while to < jobs.len() && (to == from || sum < bits) {
        let j = &jobs[to].enter;
        sum += j.end.0.saturating_sub(j.pos.0);
        to += 1;
    }
    to
}

/// The state the module's blocks from the globals block (whose ENTER_SUBBLOCK `c` just
/// read) up to the function block at `function` leave, from the walk's state `m` at the
/// globals block, if they list without error: the count record's value and the number of
/// variable records, and the intrinsics the module symbol table names. `None` unless only
/// symbol tables lie between the two, or if their records can't be read.
fn predict(c: &Cursor<'_>, function: BitPos, m: &Module) -> Option<Prediction> {
    let mut c = c.clone();
    let mut p = Prediction { num_globals: 0, expected_globals: 0, fn_intrinsic: m.fn_intrinsic.clone() };
    loop {
        match c.next_entry().ok()? {
            Entry::Record(r) if r.code == globals::VAR && r.ops.len() == 2 => {
                p.num_globals = p.num_globals.checked_add(1)?;
            }
            Entry::Record(r) if r.code == globals::COUNT && r.ops.len() == 1 => {
                p.expected_globals = u32::try_from(r.ops[0]).ok()?;
            }
            Entry::Record(_) | Entry::Abbrev { .. } => {}
            Entry::Exit(_) => break,
            Entry::Enter(_) | Entry::End(_) => return None,
        }
    }
    loop {
        match c.next_entry().ok()? {
            Entry::Enter(e) if e.block_id == block::FUNCTION => return (e.pos == function).then_some(p),
            Entry::Enter(e) if e.block_id == block::VALUESYMTAB => loop {
                match c.next_entry().ok()? {
                    Entry::Record(r) if r.code == symtab::ENTRY => {
                        if let Some(mark) =
                            named_intrinsic(r.ops).and_then(|(id, _)| p.fn_intrinsic.get_mut(id as usize))
                        {
                            *mark = true;
                        }
                    }
                    Entry::Record(_) | Entry::Abbrev { .. } => {}
                    Entry::Exit(_) => break,
                    Entry::Enter(_) | Entry::End(_) => return None,
                }
            },
            _ => return None,
        }
    }
}

/// What the function blocks of a batch are listed from.
struct Batch<'s> {
    jobs: &'s [Job],
    module: &'s Module,
    start: &'s LayoutState,
    data: &'s [u8],
    align: bool,
    abi: bool,
    records: bool,
    assembly: bool,
    /// Function blocks read before the batch.
    first: usize,
}

impl<'s> Batch<'s> {
    /// A batch of `ahead`'s jobs listed from `module` and `start`, after `first` function
    /// blocks, in the columns `d` shows.
    fn new(
        ahead: &'s Ahead<'_>,
        module: &'s Module,
        start: &'s LayoutState,
        first: usize,
        d: &Dumper<'_>,
        abi: bool,
    ) -> Self {
        let (records, assembly) = d.columns();
        Batch { jobs: &ahead.jobs, module, start, data: ahead.data, align: ahead.align, abi, records, assembly, first }
    }

    /// Lists jobs `from..to` in parallel, each thread with its own copy of the module-level
    /// state.
    ///
    /// The jobs are handed out a few at a time: rayon otherwise stops splitting a part no
    /// other thread has stolen yet, and a core could wait for the other to finish a long
    /// run of blocks at the end of each batch (a tenth of the wall time, measured). The
    /// copies of the module-level state go back to a pool between tasks rather than being
    /// made for each.
    fn list(&self, from: usize, to: usize) -> Vec<Listed> {
        let modules = Mutex::new(Vec::new());
        self.jobs[from..to]
            .par_iter()
            .enumerate()
            .with_max_len(JOBS_PER_TASK)
            .map_init(
                || Borrowed::take(self, &modules),
                |borrowed, (i, job)| {
                    let w = &mut borrowed.0;
                    let followed = self.jobs.get(from + i + 1).is_some_and(|next| next.enter.pos == job.enter.end);
                    let setup = Setup {
                        data: self.data,
                        align: self.align,
                        start: self.start,
                        num_defined: self.first + i,
                        followed,
                    };
                    list_function(w, job, &setup)
                },
            )
            .collect()
    }

    /// A walker holding `m` (the batch's module-level state) and a dumper without a writer.
    fn walker(&self, m: Module) -> Walker<'s> {
        let mut w = Walker::new(Dumper::with_capacity(self.records, self.assembly, None, 0), self.abi);
        w.m = m;
        w.found_function_block = true;
        w
    }
}

/// The most function blocks one rayon task lists.
const JOBS_PER_TASK: usize = 32;

/// A walker for one task. Its copy of the module-level state comes from the batch's pool
/// (or is made) and goes back to it when the task ends: copying it for every task would
/// cost more than the tasks' balance saves.
struct Borrowed<'p, 's>(Walker<'s>, &'p Mutex<Vec<Module>>);

impl<'p, 's> Borrowed<'p, 's> {
    fn take(batch: &Batch<'s>, pool: &'p Mutex<Vec<Module>>) -> Self {
        let m = pool.lock().ok().and_then(|mut p| p.pop()).unwrap_or_else(|| batch.module.clone());
        Borrowed(batch.walker(m), pool)
    }
}

impl Drop for Borrowed<'_, '_> {
    fn drop(&mut self) {
        if let Ok(mut pool) = self.1.lock() {
            pool.push(std::mem::take(&mut self.0.m));
        }
    }
}

/// What a function block listed ahead starts from, besides the module-level state.
struct Setup<'s> {
    data: &'s [u8],
    align: bool,
    start: &'s LayoutState,
    num_defined: usize,
    /// Another function block directly follows: it starts by resetting the per-function
    /// value types, so they need not be kept.
    followed: bool,
}

/// Lists one function block with `w`, a walker holding the module-level state (left as it
/// was, apart from types interned) and a dumper without a writer.
fn list_function(w: &mut Walker<'_>, job: &Job, s: &Setup<'_>) -> Listed {
    let pos = job.enter.pos;
    let Ok(mut c) = Cursor::in_block(s.data, &job.enter, (*job.blockinfo).clone()) else {
        return Listed { pos, done: None };
    };
    c.set_align_records(s.align);
    let bytes = (job.enter.end.0.saturating_sub(pos.0) / 8) as usize;
    w.d.restart(s.start, pos, bytes.saturating_mul(TEXT_PER_BYTE).min(MAX_CAPACITY));
    w.num_defined = s.num_defined;
    w.block(&mut c, job.enter, Kind::Function);
    // The walk's cursor would go on at the block's end.
    if !w.d.is_clean() || !w.d.is_idle() || c.pos() != job.enter.end || w.num_defined != s.num_defined + 1 {
        return Listed { pos, done: None };
    }
    let done = Done {
        end: w.d.layout_state(),
        text: w.d.restart(s.start, pos, 0),
        record_pos: w.d.record_pos,
        num_defined: w.num_defined,
        params: if s.followed { Vec::new() } else { w.params.clone() },
        consts: if s.followed { Vec::new() } else { w.consts.clone() },
        insts: if s.followed { Vec::new() } else { w.insts.clone() },
        num_valued: w.num_valued,
    };
    Listed { pos, done: Some(done) }
}
