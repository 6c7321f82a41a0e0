//! Embedding a listing fragment in a complete module.
//!
//! A module block holds, in order: version, abbreviations, types, function addresses,
//! globals, symbol table, function blocks (spec "Module block"). Each part of a fragment
//! (the runs of lines between `...` lines) covers a stretch of that sequence, possibly
//! starting or ending inside a function block. The embedding keeps every line of the
//! fragment verbatim and synthesizes the rest as listing lines with empty address and
//! record columns:
//!
//! - `module {` (the assembler then writes the standard 16-byte header); this line is
//!   written with its address and record, `16:0|1: <65535, 8, 2>|`, because the assembler
//!   reads a text as a listing only if its first line has an address, and takes the lines
//!   after a header record, up to the next address, as part of the header;
//! - `version 1;`, an empty `abbreviations` block (which ends at 40:0);
//! - a types block defining every type the fragment uses, at the indices its records
//!   give them (type ids in function address, set-type, cast, load, switch, phi,
//!   forward-declaration and indirect-call records); like every types block of a module
//!   with functions in the reference, it includes `void`;
//! - function address records for functions the fragment shows or refers to but does not
//!   declare (at least one: the module needs a non-empty sequence of them);
//! - a globals block (`count N;` with the globals the fragment refers to);
//! - function blocks for defined functions the fragment does not show, the header and
//!   `blocks 1;` of a function whose inside alone is shown, the rest of a function whose
//!   beginning alone is shown; closing braces.
//!
//! Synthesized content before an addressed part is then padded, by search, until the part
//! starts at its address: filler types in the types block, extra declared functions or
//! globals, and a module symbol table with names of chosen lengths, in the order
//! [`Plan::search`] describes (no padding first; a symbol table naming `@f0` "f" is what
//! the reference's own examples show). Only if nothing fits, function address records are
//! abbreviated instead ([`Knobs::compact`]): that is what a globals block at 52:0 needs.
//!
//! Smallest: the addresses fix the size of everything up to the last part, so embeddings
//! that fit differ only after it, where nothing optional is added (no abbreviations block,
//! symbol table, extra type, function or global; declared rather than defined functions;
//! one-block bodies). Before an addressed part, where sizes are equal, the abbreviations
//! block and the `void` type every reference module has are kept.

use super::check::{self, Report};
use super::errata::{self, Erratum, Fix};
use super::types::{self, Ty};
use super::{Listing, code};
use std::collections::BTreeMap;

/// Where a line of an embedding comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The listing's line with this index in [`Listing::lines`].
    Fragment(usize),
    /// A synthesized line.
    Synthesized,
    /// A line standing for a record the listing is missing (the erratum's spec line).
    Erratum(usize),
}

/// A line of an embedding.
#[derive(Clone, Debug)]
pub struct OutLine {
    /// The text.
    pub text: String,
    /// Where it comes from.
    pub origin: Origin,
    /// The index of the bitstream entry (enter, exit, abbreviation, record) the line
    /// starts, among all entries of the file, if it starts one.
    pub entry: Option<usize>,
}

/// A complete module in listing form containing a fragment.
#[derive(Clone, Debug)]
pub struct Embedded {
    /// The module text (a listing the assembler accepts).
    pub text: String,
    /// Its lines.
    pub lines: Vec<OutLine>,
}

impl Embedded {
    /// The embedding's line for the listing line with index `line`.
    pub fn line_of(&self, line: usize) -> Option<&OutLine> {
        self.lines.iter().find(|l| l.origin == Origin::Fragment(line))
    }

    /// Number of synthesized lines.
    pub fn synthesized(&self) -> usize {
        self.lines.iter().filter(|l| l.origin == Origin::Synthesized).count()
    }
}

/// Embeds a listing in the smallest complete module that puts each of its records at the
/// address written on it (see the module documentation). A whole module is its own
/// embedding. Fails if no module in the search space fits.
pub fn embed(listing: &Listing) -> Result<Embedded, String> {
    Plan::new(listing)?.search()
}

/// Block ids.
const MODULE: u32 = 8;
const BLOCKINFO: u32 = 0;
const CONSTANTS: u32 = 11;
const FUNCTION: u32 = 12;
const VALUESYMTAB: u32 = 14;
const TYPES: u32 = 17;
const GLOBALS: u32 = 19;

/// Positions in the module block's sequence of contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Header,
    ModuleEnter,
    Version,
    Abbrevs,
    Types,
    FnRecord(usize),
    Globals,
    Vst,
    Body(usize),
    ModuleExit,
}

/// A record of the fragment, or one an erratum says is missing.
#[derive(Clone, Debug)]
struct Rec {
    values: Vec<u64>,
    abbrev: Option<u32>,
    depth: usize,
    asm: String,
    part: usize,
    /// Innermost block open when the record is read (for an enter: the parent).
    block: Option<u32>,
}

impl Rec {
    fn code(&self) -> u64 {
        self.values[0]
    }
    fn entered(&self) -> Option<u32> {
        (self.abbrev == Some(1) && self.code() == code::ENTER).then(|| self.values[1] as u32)
    }
    fn is_exit(&self) -> bool {
        self.abbrev == Some(0) && self.code() == code::EXIT
    }
    fn is_header(&self) -> bool {
        self.abbrev.is_none() && self.code() == code::HEADER
    }
    fn is_abbrev_definition(&self) -> bool {
        self.abbrev == Some(2) && self.code() == code::DEFINE_ABBREV
    }
    /// A data record (not an enter, exit, abbreviation definition or header).
    fn is_data(&self) -> bool {
        self.entered().is_none() && !self.is_exit() && !self.is_abbrev_definition() && !self.is_header()
    }
}

/// A line of a part.
#[derive(Clone, Copy, Debug)]
enum Item {
    Line(usize),
    /// A missing record, at a depth.
    Erratum(&'static Erratum, usize),
}

/// How far a function block got when a part ends inside it.
#[derive(Clone, Copy, Debug)]
struct Progress {
    index: usize,
    blocks: u64,
    terminators: u64,
}

#[derive(Clone, Debug)]
struct Part {
    items: Vec<Item>,
    start: Slot,
    end: Slot,
    /// The part starts inside the block of this function (its header is synthesized).
    anon: Option<usize>,
    /// Blocks open at the end of the part (module included).
    end_stack: Vec<u32>,
    /// The function open at the end, if any.
    progress: Option<Progress>,
}

#[derive(Clone, Debug)]
enum Types {
    /// The fragment shows the types block.
    Shown(Vec<Ty>),
    /// Synthesized: types at fixed indices, and the others needed.
    Synth { fixed: BTreeMap<usize, Ty>, required: Vec<Ty> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Body {
    /// Declared: no body.
    None,
    /// Shown by the fragment.
    Shown,
    /// Shown from inside: the header is synthesized.
    Anon,
    /// Synthesized.
    Synth,
}

#[derive(Clone, Debug)]
struct Func {
    sig: Ty,
    body: Body,
    record_shown: bool,
}

impl Func {
    fn defined(&self) -> bool {
        self.body != Body::None
    }
}

/// The padding choices.
#[derive(Clone, Debug, Default)]
struct Knobs {
    /// Filler types: first in the holes between fixed indices, then appended.
    fillers: Vec<Ty>,
    /// Declared functions added after the needed ones.
    extra_fns: usize,
    /// Globals added after the needed ones.
    extra_globals: usize,
    /// A module symbol table: number of entries and total length of their names.
    vst: Option<(usize, usize)>,
    /// Last resort, for globals that start too early for an unabbreviated function
    /// address record before them: 3-bit abbreviation ids in the module block, no
    /// abbreviations block, and function address records abbreviated by a local
    /// `%a0 = abbrev <8, fixed(T), fixed(1), fixed(1), fixed(1)>` with this `T`.
    compact: Option<u32>,
}

/// Types offered as fillers, in order of preference.
fn filler_pool() -> Vec<Ty> {
    vec![Ty::Float, Ty::Double, Ty::Int(1), Ty::Int(8), Ty::Int(16), Ty::Int(64), Ty::Int(32)]
}

/// Most extra filler types, declared functions, globals and symbol-table entries tried.
const MAX_EXTRA_FILLERS: usize = 3;
const MAX_EXTRA_FNS: usize = 2;
const MAX_EXTRA_GLOBALS: usize = 2;
const MAX_VST_ENTRIES: usize = 4;
const MAX_VST_EXTRA_CHARS: usize = 48;

struct Plan<'a> {
    listing: &'a Listing,
    parts: Vec<Part>,
    types: Types,
    fns: Vec<Func>,
    /// Number of globals to synthesize (`None`: the fragment shows the globals block).
    globals: Option<usize>,
    vst_shown: bool,
    width: usize,
}

fn is_terminator(code: u64) -> bool {
    matches!(code, 10 | 11 | 12 | 15)
}

/// The type a record in a function or constants block refers to by index, and the index.
fn type_use(r: &Rec) -> Option<(usize, Ty)> {
    let after = |word: &str| r.asm.find(word).and_then(|i| types::parse_type(&r.asm[i + word.len()..])).map(|(t, _)| t);
    let (i, ty) = match (r.block?, r.code()) {
        (MODULE, 8) => (1, types::parse_signature(&r.asm)?.1),
        (CONSTANTS, 1) => (1, types::parse_type(&r.asm)?.0),
        (FUNCTION, 3) => (2, after(" to ")?),
        (FUNCTION, 20) => (3, after("load ")?),
        (FUNCTION, 43) => (2, after("declare ")?),
        (FUNCTION, 12) => (1, after("switch ")?),
        (FUNCTION, 44) => (3, after("call ")?),
        (FUNCTION, 16) => (1, after("phi ")?),
        _ => return None,
    };
    Some((*r.values.get(i)? as usize, ty))
}

impl<'a> Plan<'a> {
    fn new(listing: &'a Listing) -> Result<Self, String> {
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

    /// The synthesized types table without fillers: fixed indices, then each required
    /// type in the lowest free index after its components. `None` marks a hole.
    fn base_table(&self) -> Result<Vec<Option<Ty>>, String> {
        let Types::Synth { fixed, required } = &self.types else { return Ok(Vec::new()) };
        let len = fixed.keys().max().map_or(0, |&k| k + 1);
        let mut table: Vec<Option<Ty>> = vec![None; len];
        for (&i, t) in fixed {
            table[i] = Some(t.clone());
        }
        for t in required {
            if table.iter().any(|x| x.as_ref() == Some(t)) {
                continue;
            }
            let mut after = 0;
            for c in t.components() {
                let at = table.iter().position(|x| x.as_ref() == Some(c)).ok_or_else(|| format!("{c} before {t}"))?;
                after = after.max(at + 1);
            }
            match (after..table.len()).find(|&i| table[i].is_none()) {
                Some(i) => table[i] = Some(t.clone()),
                None => table.push(Some(t.clone())),
            }
        }
        Ok(table)
    }

    /// The synthesized types table: [`Plan::base_table`] with its holes filled by the
    /// first fillers, the others appended.
    fn type_table(&self, fillers: &[Ty]) -> Result<Vec<Ty>, String> {
        let mut table = self.base_table()?;
        let mut fillers = fillers.iter();
        for slot in table.iter_mut().filter(|x| x.is_none()) {
            *slot = Some(fillers.next().ok_or("not enough filler types")?.clone());
        }
        table.extend(fillers.map(|t| Some(t.clone())));
        let table: Vec<Ty> = table.into_iter().map(|t| t.expect("filled")).collect();
        for (i, t) in table.iter().enumerate() {
            for c in t.components() {
                if !table[..i].contains(c) {
                    return Err(format!("@t{i} = {t} comes before its component {c}"));
                }
            }
        }
        Ok(table)
    }

    /// Number of holes in the synthesized types table.
    fn holes(&self) -> usize {
        self.base_table().map_or(0, |t| t.iter().filter(|x| x.is_none()).count())
    }

    /// Filler types that the table does not already define.
    fn pool(&self) -> Vec<Ty> {
        match &self.types {
            Types::Synth { required, .. } => filler_pool().into_iter().filter(|t| !required.contains(t)).collect(),
            Types::Shown(_) => Vec::new(),
        }
    }

    /// The module's sequence of slots.
    fn slots(&self, knobs: &Knobs) -> Vec<Slot> {
        let mut s = vec![Slot::Header, Slot::ModuleEnter, Slot::Version, Slot::Abbrevs, Slot::Types];
        s.extend((0..self.fns.len() + knobs.extra_fns).map(Slot::FnRecord));
        s.extend([Slot::Globals, Slot::Vst]);
        s.extend((0..self.fns.len()).filter(|&n| self.fns[n].defined()).map(Slot::Body));
        s.push(Slot::ModuleExit);
        s
    }

    /// The gap (0 = before the first part, `parts.len()` = after the last) holding `slot`,
    /// or `None` if a part covers it.
    fn gap_of(&self, slot: Slot) -> Option<usize> {
        (0..=self.parts.len()).find(|&g| {
            (g == 0 || slot > self.parts[g - 1].end) && (g == self.parts.len() || slot < self.parts[g].start)
        })
    }

    fn sig_text(&self, n: usize, sig: &Ty, names: bool) -> String {
        let params: Vec<String> = sig
            .params()
            .iter()
            .enumerate()
            .map(|(i, p)| if names { format!("{p} %p{i}") } else { p.to_string() })
            .collect();
        format!("{} @f{n}({})", sig.ret().expect("a signature"), params.join(", "))
    }

    fn render(&self, knobs: &Knobs) -> Result<Embedded, String> {
        let mut out = Out { lines: Vec::new(), entries: 0, width: self.width };
        let slots = self.slots(knobs);
        let table = match &self.types {
            Types::Synth { .. } => Some(self.type_table(&knobs.fillers)?),
            Types::Shown(_) => None,
        };
        let last = self.parts.len();
        for g in 0..=last {
            if g > 0 {
                self.close(&mut out, &self.parts[g - 1])?;
            }
            for &slot in &slots {
                let after_prev = g == 0 || slot > self.parts[g - 1].end;
                let before_next = g == last || slot < self.parts[g].start;
                if after_prev && before_next {
                    self.render_slot(&mut out, slot, g == last, knobs, table.as_deref())?;
                }
            }
            if g < last {
                let part = &self.parts[g];
                if let Some(n) = part.anon {
                    let f = &self.fns[n];
                    out.synth(1, &format!("function {} {{", self.sig_text(n, &f.sig, true)), true);
                    out.synth(2, "blocks 1;", true);
                }
                for item in &part.items {
                    match *item {
                        Item::Line(k) => {
                            let line = &self.listing.lines[k];
                            let starts = line.row.as_ref().is_some_and(|r| r.addr.is_some())
                                && !self.listing.records.iter().any(|r| r.line == k && r.is_header());
                            out.push(line.text.clone(), Origin::Fragment(k), starts);
                        }
                        Item::Erratum(e, depth) => {
                            let Fix::Missing { asm, .. } = e.fix else {
                                unreachable!("only missing records are inserted")
                            };
                            out.line(depth, asm, Origin::Erratum(e.line), true);
                        }
                    }
                }
            }
        }
        let text = out.lines.iter().map(|l| format!("{}\n", l.text)).collect();
        Ok(Embedded { text, lines: out.lines })
    }

    fn render_slot(
        &self,
        out: &mut Out,
        slot: Slot,
        suffix: bool,
        knobs: &Knobs,
        table: Option<&[Ty]>,
    ) -> Result<(), String> {
        match slot {
            // The assembler writes the standard header when the listing shows none.
            Slot::Header => {}
            // With an address: the assembler reads a text as a listing only if its first
            // line has one, and takes the lines that follow a header record, up to the next
            // address, as the header's. The module always starts right after the 16-byte
            // header, at 16:0, with 2-bit abbreviation ids.
            Slot::ModuleEnter => {
                let enter = format!("1: <65535, 8, {}>", if knobs.compact.is_some() { 3 } else { 2 });
                let text = format!("{:>w$}|{enter:29}|module {{  // BlockID = 8", "16:0", w = out.width);
                out.push(text, Origin::Synthesized, true);
            }
            Slot::Version => {
                out.synth(1, "version 1;", true);
                if let Some(t) = knobs.compact {
                    out.synth(1, &format!("%a0 = abbrev <8, fixed({t}), fixed(1), fixed(1), fixed(1)>;"), true);
                }
            }
            Slot::Abbrevs => {
                if !suffix && knobs.compact.is_none() {
                    out.synth(1, "abbreviations {", true);
                    out.synth(1, "}", true);
                }
            }
            Slot::Types => {
                let table = table.ok_or("types block not synthesized")?;
                out.synth(1, "types {", true);
                out.synth(2, &format!("count {};", table.len()), true);
                for (i, t) in table.iter().enumerate() {
                    out.synth(2, &format!("@t{i} = {t};"), true);
                }
                out.synth(1, "}", true);
            }
            Slot::FnRecord(n) => {
                let (sig, defined) = match self.fns.get(n) {
                    Some(f) => (f.sig.clone(), f.defined()),
                    None => (self.extra_sig(table), false),
                };
                let kw = if defined { "define" } else { "declare" };
                let abbrev = if knobs.compact.is_some() { " <%a0>" } else { "" };
                out.synth(1, &format!("{kw} external {};{abbrev}", self.sig_text(n, &sig, false)), true);
            }
            Slot::Globals => {
                let count = self.globals.ok_or("globals not synthesized")? + knobs.extra_globals;
                out.synth(1, "globals {", true);
                out.synth(2, &format!("count {count};"), true);
                for g in 0..count {
                    out.synth(2, &format!("var @g{g}, align 1,"), true);
                    out.synth(3, "zerofill 1;", true);
                }
                out.synth(1, "}", true);
            }
            Slot::Vst => {
                if let Some((n, chars)) = knobs.vst {
                    let fns = self.fns.len() + knobs.extra_fns;
                    let globals = self.globals.unwrap_or(0) + knobs.extra_globals;
                    if n > fns + globals || chars < n {
                        return Err("symbol table larger than the values".into());
                    }
                    out.synth(1, "valuesymtab {", true);
                    for j in 0..n {
                        let len = chars / n + usize::from(j < chars % n);
                        let name: String = (0..len).map(|i| char::from(b'a' + ((5 + j + i) % 26) as u8)).collect();
                        let value = if j < fns { format!("@f{j}") } else { format!("@g{}", j - fns) };
                        out.synth(2, &format!("{value} : \"{name}\";"), true);
                    }
                    out.synth(1, "}", true);
                }
            }
            Slot::Body(n) => {
                let f = &self.fns[n];
                if f.body != Body::Synth {
                    return Err(format!("body of @f{n} ({:?}) in a gap", f.body));
                }
                out.synth(1, &format!("function {} {{", self.sig_text(n, &f.sig, true)), true);
                out.synth(2, "blocks 1;", true);
                self.ret(out, n, 0, true)?;
                out.synth(1, "}", true);
            }
            Slot::ModuleExit => out.synth(0, "}", true),
        }
        Ok(())
    }

    /// The signature of an extra declared function.
    fn extra_sig(&self, table: Option<&[Ty]>) -> Ty {
        let void_fn = Ty::Func(Box::new(Ty::Void), Vec::new());
        let table: &[Ty] = match (&self.types, table) {
            (Types::Shown(t), _) => t,
            (_, Some(t)) => t,
            _ => &[],
        };
        if table.contains(&void_fn) { void_fn } else { table.iter().find(|t| t.is_func()).cloned().unwrap_or(void_fn) }
    }

    /// `%bK:` and a return from function `n` (a whole body when `fresh`, which may then
    /// start with a constants block holding the value returned).
    fn ret(&self, out: &mut Out, n: usize, block: u64, fresh: bool) -> Result<(), String> {
        let sig = &self.fns[n].sig;
        let ret = sig.ret().expect("a signature");
        let value = if *ret == Ty::Void {
            None
        } else if let Some(p) = sig.params().iter().position(|p| p == ret) {
            Some(format!("%p{p}"))
        } else if fresh {
            out.synth(2, "constants {", true);
            out.synth(3, &format!("{ret}:"), true);
            let v = if matches!(ret, Ty::Vector(..)) { "undef" } else { "0" };
            out.synth(4, &format!("%c0 = {ret} {v};"), true);
            out.synth(3, "}", true);
            Some("%c0".to_string())
        } else {
            return Err(format!("no value to return from @f{n}"));
        };
        out.synth(1, &format!("%b{block}:"), false);
        match value {
            None => out.synth(2, "ret void;", true),
            Some(v) => out.synth(2, &format!("ret {ret} {v};"), true),
        }
        Ok(())
    }

    /// Closes what a part leaves open below the module block.
    fn close(&self, out: &mut Out, part: &Part) -> Result<(), String> {
        let mut stack = part.end_stack.clone();
        while stack.len() > 1 {
            let id = stack.pop().expect("non-empty");
            if id == FUNCTION
                && let Some(p) = part.progress
            {
                let mut block = p.terminators;
                while block < p.blocks {
                    self.ret(out, p.index, block, false)?;
                    block += 1;
                }
            }
            out.synth(stack.len(), "}", true);
        }
        Ok(())
    }

    /// Searches the padding choices, gap by gap, for an embedding whose records are all
    /// in place. In each gap: extra declared functions (0 first), extra globals (0 first),
    /// filler types (fewest first), then no symbol table, an empty one, then symbol tables
    /// of 1, 2, ... entries with names of growing total length. Only if that finds nothing,
    /// the same again with compact function address records ([`Knobs::compact`]).
    fn search(&self) -> Result<Embedded, String> {
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

    fn dfs(
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
    fn in_place(&self, report: &Report, g: usize) -> bool {
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

/// The embedding being written.
struct Out {
    lines: Vec<OutLine>,
    entries: usize,
    width: usize,
}

impl Out {
    fn push(&mut self, text: String, origin: Origin, starts_entry: bool) {
        let entry = starts_entry.then(|| {
            self.entries += 1;
            self.entries - 1
        });
        self.lines.push(OutLine { text, origin, entry });
    }

    fn line(&mut self, depth: usize, asm: &str, origin: Origin, starts_entry: bool) {
        let text = format!("{:w$}|{:29}|{}{asm}", "", "", "  ".repeat(depth), w = self.width);
        self.push(text, origin, starts_entry);
    }

    fn synth(&mut self, depth: usize, asm: &str, starts_entry: bool) {
        self.line(depth, asm, Origin::Synthesized, starts_entry);
    }
}
