//! The plan of an embedding: the fragment's records and parts, the functions, types and
//! globals the module needs, the padding choices, and the queries rendering and search
//! share (the synthesized types table, the module's slots and the gaps between parts).

use crate::spec::errata::Erratum;
use crate::spec::listing::{Listing, code};
use crate::spec::types::{self, Ty};
use std::collections::BTreeMap;

/// Block ids.
pub(super) const MODULE: u32 = 8;
pub(super) const BLOCKINFO: u32 = 0;
pub(super) const CONSTANTS: u32 = 11;
pub(super) const FUNCTION: u32 = 12;
pub(super) const VALUESYMTAB: u32 = 14;
pub(super) const TYPES: u32 = 17;
pub(super) const GLOBALS: u32 = 19;

/// Positions in the module block's sequence of contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Slot {
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
pub(super) struct Rec {
    pub(super) values: Vec<u64>,
    pub(super) abbrev: Option<u32>,
    pub(super) depth: usize,
    pub(super) asm: String,
    pub(super) part: usize,
    /// Innermost block open when the record is read (for an enter: the parent).
    pub(super) block: Option<u32>,
}

impl Rec {
    pub(super) fn code(&self) -> u64 {
        self.values[0]
    }
    pub(super) fn entered(&self) -> Option<u32> {
        (self.abbrev == Some(1) && self.code() == code::ENTER).then(|| self.values[1] as u32)
    }
    pub(super) fn is_exit(&self) -> bool {
        self.abbrev == Some(0) && self.code() == code::EXIT
    }
    pub(super) fn is_header(&self) -> bool {
        self.abbrev.is_none() && self.code() == code::HEADER
    }
    pub(super) fn is_abbrev_definition(&self) -> bool {
        self.abbrev == Some(2) && self.code() == code::DEFINE_ABBREV
    }
    /// A data record (not an enter, exit, abbreviation definition or header).
    pub(super) fn is_data(&self) -> bool {
        self.entered().is_none() && !self.is_exit() && !self.is_abbrev_definition() && !self.is_header()
    }
}

/// A line of a part.
#[derive(Clone, Copy, Debug)]
pub(super) enum Item {
    Line(usize),
    /// A missing record, at a depth.
    Erratum(&'static Erratum, usize),
}

/// How far a function block got when a part ends inside it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Progress {
    pub(super) index: usize,
    pub(super) blocks: u64,
    pub(super) terminators: u64,
}

#[derive(Clone, Debug)]
pub(super) struct Part {
    pub(super) items: Vec<Item>,
    pub(super) start: Slot,
    pub(super) end: Slot,
    /// The part starts inside the block of this function (its header is synthesized).
    pub(super) anon: Option<usize>,
    /// Blocks open at the end of the part (module included).
    pub(super) end_stack: Vec<u32>,
    /// The function open at the end, if any.
    pub(super) progress: Option<Progress>,
}

#[derive(Clone, Debug)]
pub(super) enum Types {
    /// The fragment shows the types block.
    Shown(Vec<Ty>),
    /// Synthesized: types at fixed indices, and the others needed.
    Synth { fixed: BTreeMap<usize, Ty>, required: Vec<Ty> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Body {
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
pub(super) struct Func {
    pub(super) sig: Ty,
    pub(super) body: Body,
    pub(super) record_shown: bool,
}

impl Func {
    pub(super) fn defined(&self) -> bool {
        self.body != Body::None
    }
}

/// The padding choices.
#[derive(Clone, Debug, Default)]
pub(super) struct Knobs {
    /// Filler types: first in the holes between fixed indices, then appended.
    pub(super) fillers: Vec<Ty>,
    /// Declared functions added after the needed ones.
    pub(super) extra_fns: usize,
    /// Globals added after the needed ones.
    pub(super) extra_globals: usize,
    /// A module symbol table: number of entries and total length of their names.
    pub(super) vst: Option<(usize, usize)>,
    /// Last resort, for globals that start too early for an unabbreviated function
    /// address record before them: 3-bit abbreviation ids in the module block, no
    /// abbreviations block, and function address records abbreviated by a local
    /// `%a0 = abbrev <8, fixed(T), fixed(1), fixed(1), fixed(1)>` with this `T`.
    pub(super) compact: Option<u32>,
}

/// Types offered as fillers, in order of preference.
pub(super) fn filler_pool() -> Vec<Ty> {
    vec![Ty::Float, Ty::Double, Ty::Int(1), Ty::Int(8), Ty::Int(16), Ty::Int(64), Ty::Int(32)]
}

/// Most extra filler types, declared functions, globals and symbol-table entries tried.
pub(super) const MAX_EXTRA_FILLERS: usize = 3;
pub(super) const MAX_EXTRA_FNS: usize = 2;
pub(super) const MAX_EXTRA_GLOBALS: usize = 2;
pub(super) const MAX_VST_ENTRIES: usize = 4;
pub(super) const MAX_VST_EXTRA_CHARS: usize = 48;

pub(super) struct Plan<'a> {
    pub(super) listing: &'a Listing,
    pub(super) parts: Vec<Part>,
    pub(super) types: Types,
    pub(super) fns: Vec<Func>,
    /// Number of globals to synthesize (`None`: the fragment shows the globals block).
    pub(super) globals: Option<usize>,
    pub(super) vst_shown: bool,
    pub(super) width: usize,
}

pub(super) fn is_terminator(code: u64) -> bool {
    matches!(code, 10 | 11 | 12 | 15)
}

/// The type a record in a function or constants block refers to by index, and the index.
pub(super) fn type_use(r: &Rec) -> Option<(usize, Ty)> {
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
    /// The synthesized types table without fillers: fixed indices, then each required
    /// type in the lowest free index after its components. `None` marks a hole.
    pub(super) fn base_table(&self) -> Result<Vec<Option<Ty>>, String> {
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
    pub(super) fn type_table(&self, fillers: &[Ty]) -> Result<Vec<Ty>, String> {
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
    pub(super) fn holes(&self) -> usize {
        self.base_table().map_or(0, |t| t.iter().filter(|x| x.is_none()).count())
    }

    /// Filler types that the table does not already define.
    pub(super) fn pool(&self) -> Vec<Ty> {
        match &self.types {
            Types::Synth { required, .. } => filler_pool().into_iter().filter(|t| !required.contains(t)).collect(),
            Types::Shown(_) => Vec::new(),
        }
    }

    /// The module's sequence of slots.
    pub(super) fn slots(&self, knobs: &Knobs) -> Vec<Slot> {
        let mut s = vec![Slot::Header, Slot::ModuleEnter, Slot::Version, Slot::Abbrevs, Slot::Types];
        s.extend((0..self.fns.len() + knobs.extra_fns).map(Slot::FnRecord));
        s.extend([Slot::Globals, Slot::Vst]);
        s.extend((0..self.fns.len()).filter(|&n| self.fns[n].defined()).map(Slot::Body));
        s.push(Slot::ModuleExit);
        s
    }

    /// The gap (0 = before the first part, `parts.len()` = after the last) holding `slot`,
    /// or `None` if a part covers it.
    pub(super) fn gap_of(&self, slot: Slot) -> Option<usize> {
        (0..=self.parts.len()).find(|&g| {
            (g == 0 || slot > self.parts[g - 1].end) && (g == self.parts.len() || slot < self.parts[g].start)
        })
    }
}
