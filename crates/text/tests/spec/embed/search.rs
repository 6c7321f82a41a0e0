//! The search over padding choices, gap by gap, for an embedding whose records are all in
//! place.

use super::model::*;
use crate::spec::check::{self, Report};
use crate::spec::embedding::Embedded;
use crate::spec::types::Ty;

impl<'a> Plan<'a> {
    /// Searches the padding choices, gap by gap, for an embedding whose records are all
    /// in place. In each gap: extra declared functions (0 first), extra globals (0 first),
    /// filler types (fewest first), then no symbol table, an empty one, then symbol tables
    /// of 1, 2, ... entries with names of growing total length. Only if that finds nothing,
    /// the same again with compact function address records ([`Knobs::compact`]).
    pub(super) fn search(&self) -> Result<Embedded, String> {
        let pool = self.pool();
        let knobs = Knobs { fillers: pool.iter().take(self.holes()).cloned().collect(), ..Knobs::default() };
        let mut evaluations = 0;
        let mut best: Option<(usize, String)> = None;
        for compact in [false, true] {
            if let Some(e) = self.dfs(0, &knobs, &pool, compact, &mut evaluations, &mut best)? {
                return Ok(e);
            }
        }
        let (_, why) = best.unwrap_or_default();
        Err(format!("no embedding found in {evaluations} candidates; the closest: {why}"))
    }

    pub(super) fn dfs(
        &self,
        g: usize,
        knobs: &Knobs,
        pool: &[Ty],
        allow_compact: bool,
        evaluations: &mut usize,
        best: &mut Option<(usize, String)>,
    ) -> Result<Option<Embedded>, String> {
        if g == self.parts.len() {
            return self.render(knobs).map(Some);
        }
        let owns = |slot: Slot| self.gap_of(slot) == Some(g);
        let synth_types = matches!(self.types, Types::Synth { .. });
        let fillers: Vec<Vec<Ty>> = if synth_types && owns(Slot::Types) {
            let holes = self.holes();
            let mut all = Vec::new();
            for size in holes..=(holes + MAX_EXTRA_FILLERS).min(pool.len()) {
                combinations(pool, size, &mut Vec::new(), 0, &mut all);
            }
            all
        } else {
            vec![knobs.fillers.clone()]
        };
        let extra_fns: Vec<usize> =
            if owns(Slot::FnRecord(self.fns.len())) { (0..=MAX_EXTRA_FNS).collect() } else { vec![knobs.extra_fns] };
        let extra_globals: Vec<usize> = if self.globals.is_some() && owns(Slot::Globals) {
            (0..=MAX_EXTRA_GLOBALS).collect()
        } else {
            vec![knobs.extra_globals]
        };
        let vst_groups: Vec<Vec<Option<(usize, usize)>>> = if !self.vst_shown && owns(Slot::Vst) {
            let mut groups = vec![vec![None], vec![Some((0, 0))]];
            for n in 1..=MAX_VST_ENTRIES {
                groups.push((n..=n + MAX_VST_EXTRA_CHARS).map(|s| Some((n, s))).collect());
            }
            groups
        } else {
            vec![vec![knobs.vst]]
        };
        let compact: Vec<Option<u32>> = if !allow_compact {
            vec![None]
        } else if owns(Slot::ModuleEnter)
            && owns(Slot::Version)
            && owns(Slot::FnRecord(0))
            && self.fns.iter().all(|f| !f.record_shown)
        {
            (1..=32).map(Some).collect()
        } else {
            vec![knobs.compact]
        };
        let first_of_part = self.listing.records.iter().position(|r| r.part == g);
        for &ef in &extra_fns {
            for &eg in &extra_globals {
                for &compact in &compact {
                    for f in &fillers {
                        for group in &vst_groups {
                            for &vst in group {
                                let k = Knobs { fillers: f.clone(), extra_fns: ef, extra_globals: eg, vst, compact };
                                *evaluations += 1;
                                let Ok(embedded) = self.render(&k) else { continue };
                                let report = match check::assemble_and_check(self.listing, &embedded) {
                                    Ok(r) => r,
                                    Err(e) => {
                                        if best.is_none() {
                                            *best = Some((0, e));
                                        }
                                        continue;
                                    }
                                };
                                if self.in_place(&report, g) {
                                    if let Some(e) = self.dfs(g + 1, &k, pool, allow_compact, evaluations, best)? {
                                        return Ok(Some(e));
                                    }
                                    continue;
                                }
                                let placed = report.placed;
                                if best.as_ref().is_none_or(|(b, _)| placed > *b) {
                                    *best = Some((placed, report.problems.first().cloned().unwrap_or_default()));
                                }
                                // Growing names only moves the part further: stop at overshoot.
                                if let (Some((i, want, Some(got))), Some(first)) =
                                    (report.first_misplaced, first_of_part)
                                    && i == first
                                    && got > want
                                {
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(None)
    }

    /// True if every record of parts `0..=g` is in place and as shown.
    pub(super) fn in_place(&self, report: &Report, g: usize) -> bool {
        report.failed.iter().all(|&i| self.listing.records[i].part > g)
    }
}

fn combinations(pool: &[Ty], size: usize, current: &mut Vec<Ty>, from: usize, out: &mut Vec<Vec<Ty>>) {
    if current.len() == size {
        out.push(current.clone());
        return;
    }
    for i in from..pool.len() {
        current.push(pool[i].clone());
        combinations(pool, size, current, i + 1, out);
        current.pop();
    }
}
