//! Function blocks listed ahead, on all cores.
//!
//! A function block's listing depends only on the module-level state before it, the
//! formatters' indentation and the block's own bits, and its extent is known from its
//! length word. So a scout walks the module block once, skipping function blocks, to find
//! them; the pool's threads then list runs of adjacent function blocks ahead of the walk
//! (see [`super::pipeline`]), each from the state at the start of its run, and the walk
//! prints each listing in turn in place of listing the block itself, checking first that
//! the state it started from is the state the walk is in.
//!
//! Only listings without any error or warning are used: messages depend on what came before
//! (the error count, the 20-error limit) and error recovery may end the listing, so a block
//! with any is listed again by the walk itself, as before, and the blocks after it are
//! listed ahead again from the state it leaves. Runs hold only function blocks that directly
//! follow each other, so no module-level record changes the state between the start of a
//! run and the blocks it lists.

use super::module::named_intrinsic;
use super::output::{Dumper, LayoutState};
use super::pipeline::{Group, Pipeline, Run};
use super::types::T;
use super::walk::{Kind, Module, Walker};
use pnacl_bitcode::codes::{block, globals, symtab};
use pnacl_bitstream::{BitPos, BlockInfo, Cursor, Enter, Entry};
use std::ops::Range;
use std::sync::Arc;

/// How far ahead of the walk, in bits of bitcode, function blocks are listed: the text in
/// flight (about 25 bytes per byte of bitcode) stays within a few megabytes.
const WINDOW_BITS: u64 = 256 * 1024 * 8;
/// The most that is listed ahead while the globals block is listed, when its text waits
/// until the globals block is printed.
const SIDE_WINDOW_BITS: u64 = 512 * 1024 * 8;

/// Room made in a group's buffer before each function block is listed into it, per byte of
/// the block: about what a full listing takes (so the buffer grows at most once per block,
/// and rarely once it has been reused), but no more than `MAX_CAPACITY` at once, since the
/// length comes from the file.
const TEXT_PER_BYTE: usize = 32;
const MAX_CAPACITY: usize = 1 << 20;

/// A function block the scout found.
pub(super) struct Job {
    pub enter: Enter,
    /// The global abbreviations in effect where it starts.
    blockinfo: Arc<BlockInfo>,
}

/// The listing of one function block, made ahead.
pub(super) struct Listed {
    pub pos: BitPos,
    /// `None` when the block must be listed by the walk (errors, warnings).
    pub done: Option<Done>,
}

/// A listing made ahead and the state it leaves.
pub(super) struct Done {
    /// The listing's text, in its group's buffer.
    text: Range<usize>,
    end: LayoutState,
    record_pos: BitPos,
    num_defined: usize,
    params: Vec<T>,
    consts: Vec<T>,
    insts: Vec<T>,
    num_valued: u32,
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

/// The run the walk takes listings from.
struct Current {
    run: Arc<Run>,
    generation: u64,
    /// The job the walk takes next.
    next: usize,
    /// For a run listed while the globals block was listed: what the module's blocks up to
    /// it were predicted to leave, until it is checked (at the run's first block).
    predicted: Option<Prediction>,
}

/// The function blocks of the module, and the threads listing them ahead.
pub(super) struct Ahead<'a> {
    data: &'a [u8],
    pipeline: Arc<Pipeline>,
    current: Option<Current>,
    /// The group the walk prints from, and the index of its next listing.
    group: Option<(Group, usize)>,
    /// The walk's own walker for blocks it lists ahead itself rather than wait for them.
    helper: Option<(u64, Walker<'static>)>,
}

impl<'a> Ahead<'a> {
    /// Scouts the module block of the bitstream that starts at `start`; `None` when running
    /// on one thread, or if the module holds no function block.
    pub(super) fn new(data: &'a [u8], start: BitPos, align: bool, d: &Dumper<'_>, abi: bool) -> Option<Box<Self>> {
        if rayon::current_num_threads() < 2 {
            return None;
        }
        let jobs = scout(data, start, align);
        if jobs.len() < 2 {
            return None;
        }
        let pipeline = Arc::new(Pipeline::new(jobs, align, abi, d));
        Some(Box::new(Ahead { data, pipeline, current: None, group: None, helper: None }))
    }

    /// The threads' shared state, for [`with_threads`].
    pub(super) fn pipeline(&self) -> Arc<Pipeline> {
        self.pipeline.clone()
    }
}

/// Runs `walk` while the pool's threads list function blocks of `data` for it.
pub(super) fn with_threads<R>(data: &[u8], pipeline: &Pipeline, walk: impl FnOnce() -> R) -> R {
    /// Ends the threads' work however the walk ends.
    struct Quit<'p>(&'p Pipeline);
    impl Drop for Quit<'_> {
        fn drop(&mut self) {
            self.0.quit();
        }
    }
    rayon::in_place_scope(|s| {
        for _ in 0..pipeline.threads() {
            s.spawn(move |_| pipeline.work(data));
        }
        let _quit = Quit(pipeline);
        walk()
    })
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
    /// none or it does not apply: the walk then lists the block itself, and the blocks
    /// after it are listed ahead again from the state it leaves.
    pub(super) fn listed_ahead(&mut self, c: &mut Cursor<'_>, e: &Enter) -> bool {
        let Some(mut ahead) = self.ahead.take() else { return false };
        let printed = self.print_ahead(&mut ahead, c, e);
        if !printed && ahead.current.take().is_some() {
            ahead.pipeline.stop();
            ahead.group = None;
        }
        self.ahead = Some(ahead);
        printed
    }

    fn print_ahead(&mut self, ahead: &mut Ahead<'_>, c: &mut Cursor<'_>, e: &Enter) -> bool {
        let jobs = &ahead.pipeline.jobs;
        let continues = ahead.current.as_ref().is_some_and(|r| r.next < r.run.jobs.end && jobs[r.next].enter == *e);
        if !continues && !self.start_run(ahead, e) {
            return false;
        }
        let Some(current) = &mut ahead.current else { return false };
        if current.predicted.take().is_some_and(|p| !p.holds_for(&self.m)) {
            return false;
        }
        if ahead.group.as_ref().is_none_or(|(g, next)| *next == g.listed.len()) {
            if let Some((g, _)) = ahead.group.take() {
                ahead.pipeline.give_back(g.text);
            }
            let Some(group) = ahead.pipeline.take(current.generation, current.next, ahead.data, &mut ahead.helper)
            else {
                return false;
            };
            ahead.group = Some((group, 0));
        }
        let Some((group, next)) = &mut ahead.group else { return false };
        let listed = &mut group.listed[*next];
        *next += 1;
        let Some(done) = listed.done.take() else { return false };
        let n = done.num_defined - 1;
        if listed.pos != e.pos || self.num_defined != n || current.run.first > n || !self.d.is_idle() {
            return false;
        }
        if !self.d.layout_state().lays_out_as(&current.run.start) {
            return false;
        }
        if c.skip_block().is_err() {
            return false;
        }
        self.d.print_laid_out(&group.text[done.text]);
        self.d.set_layout_state(done.end);
        self.d.record_pos = done.record_pos;
        self.num_defined = done.num_defined;
        self.params = done.params;
        self.consts = done.consts;
        self.insts = done.insts;
        self.num_valued = done.num_valued;
        current.next += 1;
        true
    }

    /// Starts listing ahead the run of adjacent function blocks that begins with `e`, from
    /// the walk's present state. Returns false if the scout did not find `e`, or if `e`
    /// stands alone (listing it in place is as fast).
    fn start_run(&mut self, ahead: &mut Ahead<'_>, e: &Enter) -> bool {
        let jobs = &ahead.pipeline.jobs;
        let Ok(from) = jobs.binary_search_by_key(&e.pos, |j| j.enter.pos) else { return false };
        if jobs[from].enter != *e {
            return false;
        }
        let to = run_end(jobs, from);
        if to - from < 2 {
            return false;
        }
        self.begin_run(ahead, from..to, self.m.clone(), WINDOW_BITS, None);
        true
    }

    /// Sets the pipeline listing jobs `jobs` from `module` and the walk's layout state, at
    /// most `first_window` bits ahead of the walk until it takes the first listing, and
    /// `WINDOW_BITS` after.
    fn begin_run(
        &self,
        ahead: &mut Ahead<'_>,
        jobs: Range<usize>,
        module: Module,
        first_window: u64,
        predicted: Option<Prediction>,
    ) {
        if let Some((group, _)) = ahead.group.take() {
            ahead.pipeline.give_back(group.text);
        }
        let next = jobs.start;
        let run = Arc::new(Run {
            jobs,
            start: self.d.layout_state(),
            first: self.num_defined,
            module,
            first_window,
            window: WINDOW_BITS,
        });
        let generation = ahead.pipeline.start(run.clone());
        ahead.current = Some(Current { run, generation, next, predicted });
    }

    /// Lists the module's globals block `e` (whose ENTER_SUBBLOCK `c` just read) while the
    /// pool's threads list the function blocks after it ahead, from the state the module's
    /// blocks up to them are predicted to leave (see [`predict`]). The prediction is checked
    /// before any of those listings is printed. Returns false, having done nothing, when
    /// nothing is listed ahead: the walk then lists the block itself.
    ///
    /// Without this, listing the globals block (a sixth of a large pexe) would keep all but
    /// one core idle.
    pub(super) fn globals_beside_functions(&mut self, c: &mut Cursor<'_>, e: &Enter) -> bool {
        let Some(mut ahead) = self.ahead.take() else { return false };
        let jobs = &ahead.pipeline.jobs;
        let from = jobs.partition_point(|j| j.enter.pos < e.end);
        let Some(prediction) = jobs.get(from).and_then(|j| predict(c, j.enter.pos, &self.m)) else {
            self.ahead = Some(ahead);
            return false;
        };
        let to = run_end(jobs, from);
        let mut module = self.m.clone();
        module.num_globals = prediction.num_globals;
        module.expected_globals = prediction.expected_globals;
        module.fn_intrinsic.clone_from(&prediction.fn_intrinsic);
        // Far enough ahead to keep the other cores busy while the globals block is listed
        // (about twice its bits), but no more than `SIDE_WINDOW_BITS`: the text waits in
        // memory until the globals block is printed, and memory touched for the first
        // time costs page faults.
        let window = (e.end.0.saturating_sub(e.pos.0) * 2).clamp(WINDOW_BITS, SIDE_WINDOW_BITS);
        self.begin_run(&mut ahead, from..to, module, window, Some(prediction));
        self.ahead = Some(ahead);
        self.block(c, *e, Kind::Globals);
        true
    }
}

/// One past the last of the adjacent function blocks from job `from` on.
fn run_end(jobs: &[Job], from: usize) -> usize {
    let mut to = from + 1;
    while to < jobs.len() && jobs[to].enter.pos == jobs[to - 1].enter.end {
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

/// What a function block listed ahead starts from, besides the module-level state.
pub(super) struct Setup<'s> {
    pub data: &'s [u8],
    pub align: bool,
    pub start: &'s LayoutState,
    pub num_defined: usize,
    /// Another function block directly follows: it starts by resetting the per-function
    /// value types, so they need not be kept.
    pub followed: bool,
}

/// Lists one function block with `w`, a walker holding the module-level state (left as it
/// was, apart from types interned) and a dumper without a writer, after the text in `text`.
/// Returns the listing (its text a range of `text`) and `text`.
pub(super) fn list_function(w: &mut Walker<'_>, job: &Job, s: &Setup<'_>, mut text: Vec<u8>) -> (Listed, Vec<u8>) {
    let pos = job.enter.pos;
    let Ok(mut c) = Cursor::in_block(s.data, &job.enter, (*job.blockinfo).clone()) else {
        return (Listed { pos, done: None }, text);
    };
    c.set_align_records(s.align);
    let from = text.len();
    let bytes = (job.enter.end.0.saturating_sub(pos.0) / 8) as usize;
    text.reserve(bytes.saturating_mul(TEXT_PER_BYTE).min(MAX_CAPACITY));
    w.d.restart(s.start, pos, text);
    w.num_defined = s.num_defined;
    w.block(&mut c, job.enter, Kind::Function);
    // The walk's cursor would go on at the block's end.
    let usable = w.d.is_clean() && w.d.is_idle() && c.pos() == job.enter.end && w.num_defined == s.num_defined + 1;
    let end = w.d.layout_state();
    let mut text = w.d.restart(s.start, pos, Vec::new());
    if !usable {
        text.truncate(from);
        return (Listed { pos, done: None }, text);
    }
    let done = Done {
        end,
        text: from..text.len(),
        record_pos: w.d.record_pos,
        num_defined: w.num_defined,
        params: if s.followed { Vec::new() } else { w.params.clone() },
        consts: if s.followed { Vec::new() } else { w.consts.clone() },
        insts: if s.followed { Vec::new() } else { w.insts.clone() },
        num_valued: w.num_valued,
    };
    (Listed { pos, done: Some(done) }, text)
}
