//! Reading a fragment into a [`Plan`]: its records and parts, and what the module around
//! them must hold.

use super::model::*;
use crate::spec::errata::{self, Erratum, Fix};
use crate::spec::listing::Listing;
use crate::spec::types::{self, Ty};
use std::collections::BTreeMap;

impl<'a> Plan<'a> {
    pub(super) fn new(listing: &'a Listing) -> Result<Self, String> {
        let last_line = listing.lines.last().map_or(0, |l| l.number);
        let errata = errata::within(listing.first_line(), last_line);
        // Records, with the missing ones errata restore.
        let mut recs = Vec::new();
        let mut inserted_after: BTreeMap<usize, (&'static Erratum, usize)> = BTreeMap::new();
        for e in &errata {
            let Some(r) = listing.records.iter().find(|r| listing.lines[r.line].number == e.line) else {
                return Err(format!("erratum for line {}: no record starts there", e.line));
            };
            if listing.record_text(r) != e.shows {
                return Err(format!(
                    "erratum for line {}: expected `{}`, found `{}`",
                    e.line,
                    e.shows,
                    listing.record_text(r)
                ));
            }
        }
        for r in &listing.records {
            recs.push(Rec {
                values: r.values.clone(),
                abbrev: r.abbrev,
                depth: r.depth,
                asm: listing.asm(r),
                part: r.part,
                block: None,
            });
            for e in &errata {
                if let Fix::Missing { asm, values } = e.fix
                    && e.line == listing.lines[r.line].number
                {
                    inserted_after.insert(r.end - 1, (e, r.depth));
                    recs.push(Rec {
                        values: values.to_vec(),
                        abbrev: Some(3),
                        depth: r.depth,
                        asm: asm.to_string(),
                        part: r.part,
                        block: None,
                    });
                }
            }
        }

        // Functions the fragment names: records, blocks, references.
        let mut fn_sigs: BTreeMap<usize, (Ty, Body, bool)> = BTreeMap::new();
        let mut referenced = 0usize;
        for r in &recs {
            for n in types::globals(&r.asm, 'f') {
                referenced = referenced.max(n + 1);
            }
            if r.depth == 1 && r.entered() == Some(FUNCTION) {
                let (n, sig) = types::parse_signature(&r.asm).ok_or_else(|| format!("function header `{}`", r.asm))?;
                let e = fn_sigs.entry(n).or_insert((sig.clone(), Body::Shown, false));
                e.1 = Body::Shown;
            }
        }
        let any_part_starts_inside = recs
            .iter()
            .enumerate()
            .any(|(i, r)| (i == 0 || recs[i - 1].part != r.part) && r.depth >= 2 && !r.is_header());
        let anon_index = if any_part_starts_inside {
            Some(referenced.max(fn_sigs.keys().max().map_or(0, |&k| k + 1)))
        } else {
            None
        };

        // Walk the parts: slots, blocks, function progress.
        let mut parts: Vec<Part> = Vec::new();
        let mut i = 0;
        while i < recs.len() {
            let p = recs[i].part;
            let first = &recs[i];
            let mut stack: Vec<u32> = match first.depth {
                _ if first.is_header() => Vec::new(),
                0 => Vec::new(),
                1 => vec![MODULE],
                2 => vec![MODULE, FUNCTION],
                d => return Err(format!("a part starts at depth {d}")),
            };
            let mut anon = None;
            let mut progress = None;
            // The slot of the last module-level item seen, and of the first.
            let mut slot: Option<Slot> = None;
            if first.depth == 2 {
                let n = anon_index.expect("computed above");
                anon = Some(n);
                progress = Some(Progress { index: n, blocks: 1, terminators: 0 });
                slot = Some(Slot::Body(n));
            }
            let mut first_slot: Option<Slot> = slot;
            while i < recs.len() && recs[i].part == p {
                let r = &mut recs[i];
                r.block = stack.last().copied();
                let expected_depth = if r.is_exit() { stack.len().saturating_sub(1) } else { stack.len() };
                if !r.is_header() && r.depth != expected_depth {
                    return Err(format!(
                        "record at depth {} where depth {expected_depth} was expected: {}",
                        r.depth, r.asm
                    ));
                }
                let mut here = None;
                if r.is_header() {
                    here = Some(Slot::Header);
                } else if let Some(id) = r.entered() {
                    if stack.is_empty() {
                        here = Some(Slot::ModuleEnter);
                    } else if stack.len() == 1 {
                        here = Some(match id {
                            BLOCKINFO => Slot::Abbrevs,
                            TYPES => Slot::Types,
                            GLOBALS => Slot::Globals,
                            VALUESYMTAB => Slot::Vst,
                            FUNCTION => {
                                let (n, _) = types::parse_signature(&r.asm).ok_or("function header")?;
                                progress = Some(Progress { index: n, blocks: 0, terminators: 0 });
                                Slot::Body(n)
                            }
                            _ => return Err(format!("unexpected block {id} in the module")),
                        });
                    }
                    stack.push(id);
                } else if r.is_exit() {
                    stack.pop();
                    if stack.is_empty() {
                        here = Some(Slot::ModuleExit);
                    } else if stack.len() == 1 {
                        progress = None;
                    }
                } else if r.is_abbrev_definition() {
                } else if stack.len() == 1 {
                    here = Some(match r.code() {
                        1 => Slot::Version,
                        8 => Slot::FnRecord(types::first_global(&r.asm, 'f').ok_or("function record without @fN")?),
                        c => return Err(format!("unexpected module record {c}")),
                    });
                } else if stack.last() == Some(&FUNCTION)
                    && let Some(pr) = &mut progress
                {
                    if r.code() == 1 {
                        pr.blocks = r.values[1];
                    } else if is_terminator(r.code()) {
                        pr.terminators += 1;
                    }
                }
                if let Some(h) = here {
                    if slot.is_some_and(|s| s > h) {
                        return Err(format!("{h:?} after {slot:?}"));
                    }
                    slot = Some(h);
                    first_slot.get_or_insert(h);
                }
                i += 1;
            }
            let (Some(start), Some(end)) = (first_slot, slot) else { return Err("a part with no records".into()) };
            if let Some(prev) = parts.last()
                && prev.end >= start
            {
                return Err(format!("part {p} starts at {start:?}, before the previous part ends ({:?})", prev.end));
            }
            parts.push(Part { items: Vec::new(), start, end, anon, end_stack: stack, progress });
        }
        // The lines of each part.
        let mut p = 0;
        for (k, line) in listing.lines.iter().enumerate() {
            if line.row.is_none() {
                p += 1;
                continue;
            }
            parts[p].items.push(Item::Line(k));
            if let Some(&(e, depth)) = inserted_after.get(&k) {
                parts[p].items.push(Item::Erratum(e, depth));
            }
        }

        // Types.
        let shown_types = recs.iter().any(|r| r.depth == 1 && r.entered() == Some(TYPES));
        let types = if shown_types {
            let mut table = Vec::new();
            for r in recs.iter().filter(|r| r.block == Some(TYPES) && r.is_data()) {
                if r.code() == 1 {
                    continue;
                }
                table.push(Ty::from_record(&r.values, &table).ok_or_else(|| format!("type record {:?}", r.values))?);
            }
            Types::Shown(table)
        } else {
            let mut fixed = BTreeMap::new();
            for r in &recs {
                if let Some((i, ty)) = type_use(r).filter(|_| r.is_data())
                    && let Some(old) = fixed.insert(i, ty.clone())
                    && old != ty
                {
                    return Err(format!("@t{i} is both {old} and {ty}"));
                }
            }
            Types::Synth { fixed, required: Vec::new() }
        };

        // Function address records the fragment shows.
        for r in recs.iter().filter(|r| r.depth == 1 && r.block == Some(MODULE) && r.code() == 8 && r.is_data()) {
            let n = types::first_global(&r.asm, 'f').ok_or("function record without @fN")?;
            let sig = match &types {
                Types::Shown(table) => table.get(r.values[1] as usize).cloned().ok_or("function type out of range")?,
                Types::Synth { .. } => types::parse_signature(&r.asm).ok_or("function record signature")?.1,
            };
            let defined = r.values.get(3) == Some(&0);
            let e = fn_sigs.entry(n).or_insert((sig, if defined { Body::Synth } else { Body::None }, true));
            e.2 = true;
            if !defined && e.1 != Body::None {
                return Err(format!("@f{n} is declared but has a body"));
            }
        }
        if let Some(n) = anon_index {
            fn_sigs.insert(n, (Ty::Func(Box::new(Ty::Void), Vec::new()), Body::Anon, false));
        }
        // A signature for functions nothing says anything about: `void ()` if it can be
        // had, or the first function type shown.
        let void_fn = Ty::Func(Box::new(Ty::Void), Vec::new());
        let filler_sig = match &types {
            Types::Shown(table) if !table.contains(&void_fn) => {
                table.iter().find(|t| t.is_func()).cloned().ok_or("the types block defines no function type")?
            }
            _ => void_fn.clone(),
        };
        if let (Types::Shown(table), Some(n)) = (&types, anon_index)
            && !table.contains(&void_fn)
        {
            return Err(format!("the types block has no `void ()` for the function block of @f{n}"));
        }
        let count = referenced.max(fn_sigs.keys().max().map_or(0, |&k| k + 1)).max(1);
        let fns: Vec<Func> = (0..count)
            .map(|n| match fn_sigs.get(&n) {
                Some((sig, body, shown)) => Func { sig: sig.clone(), body: *body, record_shown: *shown },
                None => Func { sig: filler_sig.clone(), body: Body::None, record_shown: false },
            })
            .collect();

        // Types needed, when synthesized.
        let types = match types {
            Types::Synth { fixed, .. } => {
                // Value types, components first, each once.
                fn add(t: &Ty, out: &mut Vec<Ty>) {
                    for c in t.components() {
                        add(c, out);
                    }
                    if !t.is_func() && !out.contains(t) {
                        out.push(t.clone());
                    }
                }
                let mut values: Vec<Ty> = Vec::new();
                for f in &fns {
                    add(&f.sig, &mut values);
                }
                for r in &recs {
                    if matches!(r.block, Some(FUNCTION | CONSTANTS)) {
                        for t in types::types_in(&r.asm) {
                            add(&t, &mut values);
                        }
                    }
                }
                for t in fixed.values() {
                    add(t, &mut values);
                }
                add(&Ty::Void, &mut values);
                let mut required = values;
                for f in &fns {
                    if !required.contains(&f.sig) {
                        required.push(f.sig.clone());
                    }
                }
                for t in fixed.values() {
                    if !required.contains(t) {
                        required.push(t.clone());
                    }
                }
                Types::Synth { fixed, required }
            }
            shown => shown,
        };

        let globals_shown = recs.iter().any(|r| r.depth == 1 && r.entered() == Some(GLOBALS));
        let globals = (!globals_shown).then(|| {
            recs.iter()
                .filter(|r| matches!(r.block, Some(FUNCTION | CONSTANTS)))
                .flat_map(|r| types::globals(&r.asm, 'g'))
                .map(|n| n + 1)
                .max()
                .unwrap_or(0)
        });
        let vst_shown = recs.iter().any(|r| r.depth == 1 && r.entered() == Some(VALUESYMTAB));
        let width = listing.label_width().max(3);
        Ok(Plan { listing, parts, types, fns, globals, vst_shown, width })
    }
}
