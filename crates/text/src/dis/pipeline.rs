//! The threads that list function blocks ahead of the walk, and what they share with it.
//!
//! The walk sets a *run*: adjacent function blocks to list, in order, from one module-level
//! state. The pool's threads claim a *group* of blocks at a time, in order of position,
//! list them one after the other into one buffer, and queue the group; the walk takes the
//! groups in order as it reaches their blocks, and gives each buffer back once it has
//! written it. No thread claims blocks more than the run's window of bits past the first
//! block the walk has not taken, so the text in flight stays small, and it is written to
//! buffers reused while they are still in the cache.
//!
//! This replaced batches listed between barriers: each batch ended with a core waiting for
//! the other's last blocks, and each batch's text (6 MB) went to memory touched for the
//! first time.

use super::output::{Dumper, LayoutState};
use super::parallel::{Job, Listed, Setup, list_function};
use super::walk::{Module, Walker};
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A group holds at most this many blocks...
const GROUP_JOBS: usize = 32;
/// ...or about this many bits of them (at least one block): few enough that the cores share
/// the blocks before a wait, enough that claims and waits are rare.
const GROUP_BITS: u64 = 64 * 1024 * 8;

/// What a run lists: jobs `jobs` (all the adjacent function blocks from the first on) from
/// `module` and `start`.
pub(super) struct Run {
    pub jobs: Range<usize>,
    pub start: LayoutState,
    /// Function blocks read before the run's first.
    pub first: usize,
    pub module: Module,
    /// How far ahead of the walk, in bits of bitcode, blocks may be claimed before the walk
    /// takes the first group, and after.
    pub first_window: u64,
    pub window: u64,
}

/// The listings of a group of blocks: their text, one after the other, and each block's
/// listing (its text a range of `text`).
pub(super) struct Group {
    pub text: Vec<u8>,
    pub listed: Vec<Listed>,
}

/// A group claimed, in order, and its listings once made.
struct Claimed {
    jobs: Range<usize>,
    group: Option<Group>,
}

/// What the threads and the walk share, under one lock.
struct State {
    run: Option<Arc<Run>>,
    /// Changes with every run, so that listings of an abandoned run are dropped.
    generation: u64,
    /// The groups claimed and not yet taken, in order.
    claimed: VecDeque<Claimed>,
    /// The next job to claim, and the first the walk has not taken.
    next: usize,
    taken: usize,
    /// Text buffers given back by the walk.
    buffers: Vec<Vec<u8>>,
    quit: bool,
    /// Whether the walk waits for a group, and how many threads wait for blocks to claim:
    /// a wake-up is a system call, made only when someone waits.
    walk_waits: bool,
    threads_waiting: usize,
    /// Threads listing a group.
    listing: usize,
}

/// Function blocks listed ahead: the jobs the scout found, and the state shared with the
/// threads listing them.
pub(super) struct Pipeline {
    pub jobs: Vec<Job>,
    /// The pool's threads listing blocks.
    threads: usize,
    align: bool,
    abi: bool,
    records: bool,
    assembly: bool,
    state: Mutex<State>,
    /// Signalled when a group is listed (the walk waits on it)...
    listed: Condvar,
    /// ...and when there may be blocks to claim, or the threads must end.
    claimable: Condvar,
}

impl Pipeline {
    pub(super) fn new(jobs: Vec<Job>, align: bool, abi: bool, d: &Dumper<'_>) -> Self {
        let (records, assembly) = d.columns();
        Pipeline {
            jobs,
            threads: rayon::current_num_threads(),
            align,
            abi,
            records,
            assembly,
            state: Mutex::new(State {
                run: None,
                generation: 0,
                claimed: VecDeque::new(),
                next: 0,
                taken: 0,
                buffers: Vec::new(),
                quit: false,
                walk_waits: false,
                threads_waiting: 0,
                listing: 0,
            }),
            listed: Condvar::new(),
            claimable: Condvar::new(),
        }
    }

    /// How many of the pool's threads list blocks.
    pub(super) fn threads(&self) -> usize {
        self.threads
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A thread that panicked while holding the lock left the state consistent: every
        // change under the lock is a single assignment or push.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits (as the walk) for a group.
    fn wait_listed<'g>(&self, mut g: MutexGuard<'g, State>) -> MutexGuard<'g, State> {
        g.walk_waits = true;
        let mut g = self.listed.wait(g).unwrap_or_else(|e| e.into_inner());
        g.walk_waits = false;
        g
    }

    /// Waits (as a thread) for blocks to claim.
    fn wait_claimable<'g>(&self, mut g: MutexGuard<'g, State>) -> MutexGuard<'g, State> {
        g.threads_waiting += 1;
        let mut g = self.claimable.wait(g).unwrap_or_else(|e| e.into_inner());
        g.threads_waiting -= 1;
        g
    }

    /// Wakes the threads waiting for blocks to claim, if any.
    fn wake_threads(&self, g: MutexGuard<'_, State>) {
        let waiting = g.threads_waiting > 0;
        drop(g);
        if waiting {
            self.claimable.notify_all();
        }
    }

    /// Starts listing `run` (abandoning any run before it). Returns its generation.
    pub(super) fn start(&self, run: Arc<Run>) -> u64 {
        let mut s = self.lock();
        s.generation += 1;
        s.claimed.clear();
        s.next = run.jobs.start;
        s.taken = run.jobs.start;
        s.run = Some(run);
        let generation = s.generation;
        self.wake_threads(s);
        generation
    }

    /// Abandons the present run: its blocks are no longer listed.
    pub(super) fn stop(&self) {
        let mut s = self.lock();
        s.generation += 1;
        s.run = None;
        s.claimed.clear();
    }

    /// Ends the threads' work (after the walk).
    pub(super) fn quit(&self) {
        let mut s = self.lock();
        s.quit = true;
        self.wake_threads(s);
    }

    /// Gives a written group's buffer back for reuse.
    pub(super) fn give_back(&self, mut buffer: Vec<u8>) {
        buffer.clear();
        if buffer.capacity() > 0 {
            self.lock().buffers.push(buffer);
        }
    }

    /// Claims the next group of the run, for one of the pool's threads or for the walk, if
    /// the window allows: its jobs, the run and a buffer to list them into.
    fn claim(&self, s: &mut State, by_thread: bool) -> Option<(Range<usize>, Arc<Run>, Vec<u8>)> {
        let run = s.run.clone()?;
        let from = s.next;
        if from >= run.jobs.end {
            return None;
        }
        let before_first = s.taken == run.jobs.start;
        let ahead = self.jobs[from].enter.pos.0.saturating_sub(self.jobs[s.taken].enter.pos.0);
        let window = if before_first { run.first_window } else { run.window };
        if from != s.taken && ahead >= window {
            return None;
        }
        // Until the walk takes the run's first group it is busy (listing the globals block):
        // a core is left to it. With a thread per core listing too, the scheduler shared a
        // core between the walk and a thread in half the runs, and the walk, which the
        // listing waits for, took 20 ms longer.
        if by_thread && before_first && s.listing + 1 >= self.threads {
            return None;
        }
        if by_thread {
            s.listing += 1;
        }
        let mut to = from;
        let mut bits = 0;
        while to < run.jobs.end && to - from < GROUP_JOBS && (to == from || bits < GROUP_BITS) {
            let e = &self.jobs[to].enter;
            bits += e.end.0.saturating_sub(e.pos.0);
            to += 1;
        }
        s.claimed.push_back(Claimed { jobs: from..to, group: None });
        s.next = to;
        Some((from..to, run, s.buffers.pop().unwrap_or_default()))
    }

    /// Lists the jobs `jobs` of `run` with `w`, into `text`.
    fn list(&self, w: &mut Walker<'_>, data: &[u8], run: &Run, jobs: Range<usize>, mut text: Vec<u8>) -> Group {
        let listed = jobs
            .map(|i| {
                let job = &self.jobs[i];
                let setup = Setup {
                    data,
                    align: self.align,
                    start: &run.start,
                    num_defined: run.first + (i - run.jobs.start),
                    // A run holds all the adjacent blocks from its first on.
                    followed: i + 1 < run.jobs.end,
                };
                let listed;
                (listed, text) = list_function(w, job, &setup, std::mem::take(&mut text));
                listed
            })
            .collect();
        Group { text, listed }
    }

    /// Leaves the group of jobs from `from`, listed by one of the pool's threads, in its
    /// place in the queue, unless its run was abandoned.
    fn deposit(&self, generation: u64, from: usize, group: Group) {
        let mut s = self.lock();
        s.listing -= 1;
        if s.generation == generation
            && let Some(c) = s.claimed.iter_mut().find(|c| c.jobs.start == from)
        {
            c.group = Some(group);
        }
        let waits = s.walk_waits;
        let claimable = s.threads_waiting > 0 && s.run.as_ref().is_some_and(|r| s.taken == r.jobs.start);
        drop(s);
        if waits {
            self.listed.notify_one();
        }
        // A thread can take this one's place before the walk's first group.
        if claimable {
            self.claimable.notify_one();
        }
    }

    /// The walker in `slot` if it lists for run `generation`; otherwise a new one there,
    /// listing from `run`'s module-level state with a dumper without a writer.
    fn walker<'s>(
        &self,
        slot: &'s mut Option<(u64, Walker<'static>)>,
        generation: u64,
        run: &Run,
    ) -> &'s mut Walker<'static> {
        if slot.as_ref().is_none_or(|(g, _)| *g != generation) {
            let mut w = Walker::new(Dumper::with_capacity(self.records, self.assembly, None, 0), self.abi);
            w.m = run.module.clone();
            w.found_function_block = true;
            *slot = Some((generation, w));
        }
        &mut slot.as_mut().expect("made above").1
    }

    /// What each of the pool's threads does until [`Pipeline::quit`]: claims and lists
    /// groups of the present run, or waits for blocks to claim.
    pub(super) fn work(&self, data: &[u8]) {
        let mut walker: Option<(u64, Walker<'static>)> = None;
        loop {
            let mut s = self.lock();
            let ((jobs, run, text), generation) = loop {
                if s.quit {
                    return;
                }
                if let Some(claim) = self.claim(&mut s, true) {
                    break (claim, s.generation);
                }
                s = self.wait_claimable(s);
            };
            drop(s);
            let w = self.walker(&mut walker, generation, &run);
            let unfinished = Unfinished { pipeline: self, generation, jobs: jobs.clone() };
            let group = self.list(w, data, &run, jobs.clone(), text);
            std::mem::forget(unfinished);
            self.deposit(generation, jobs.start, group);
        }
    }

    /// The group that starts with job `i` of run `generation`, for the walk: waits for it,
    /// or lists it with `helper` if no thread has claimed it. `None` if the run was
    /// abandoned.
    pub(super) fn take(
        &self,
        generation: u64,
        i: usize,
        data: &[u8],
        helper: &mut Option<(u64, Walker<'static>)>,
    ) -> Option<Group> {
        let mut s = self.lock();
        loop {
            if s.generation != generation {
                return None;
            }
            match s.claimed.front_mut() {
                Some(c) if c.jobs.start != i => return None,
                Some(c) => {
                    if let Some(group) = c.group.take() {
                        s.taken = c.jobs.end;
                        s.claimed.pop_front();
                        // Claims wait for the window to move.
                        self.wake_threads(s);
                        return Some(group);
                    }
                    s = self.wait_listed(s);
                }
                None => {
                    // Nothing claimed: the walk lists the next group itself.
                    let (jobs, run, text) = self.claim(&mut s, false).filter(|(jobs, _, _)| jobs.start == i)?;
                    s.claimed.pop_front();
                    drop(s);
                    let w = self.walker(helper, generation, &run);
                    let group = self.list(w, data, &run, jobs.clone(), text);
                    let mut s = self.lock();
                    if s.generation == generation {
                        s.taken = jobs.end;
                    }
                    self.wake_threads(s);
                    return Some(group);
                }
            }
        }
    }
}

/// A group being listed: if the thread listing it panics, the group is left without
/// listings (the walk lists its blocks itself) rather than waited for forever.
struct Unfinished<'p> {
    pipeline: &'p Pipeline,
    generation: u64,
    jobs: Range<usize>,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        let listed = self.jobs.clone().map(|i| Listed { pos: self.pipeline.jobs[i].enter.pos, done: None }).collect();
        self.pipeline.deposit(self.generation, self.jobs.start, Group { text: Vec::new(), listed });
    }
}
