//! Function blocks parsed on all cores.
//!
//! A function block's parse depends only on the module-level declarations before the first
//! of them (types, function signatures, the number of globals, the global abbreviations) and
//! on which defined function it is. So, in a large text, the lines that start with
//! `function` are taken for the starts of the function blocks, and groups of them are
//! parsed in parallel, each by a parser holding a copy of those declarations. A group's
//! parse must end each function block exactly where the next one starts; the results are
//! then taken in text order. If any group fails, or a block does not end where the next is
//! taken to start, nothing is kept and the blocks are parsed one after the other as before,
//! so errors are the ones the sequential parse reports.
//!
//! The globals block (a tenth of a large listing) is parsed meanwhile: the function blocks
//! are parsed from the number of globals its count record states, and their parse is kept
//! only if the declarations they were parsed from are the ones in force where they start.

use super::parser::Asm;
use super::source::Source;
use crate::lexer::{Lexer, Tok, is_word};
use pnacl_bitcode::ir::{Align, FunctionBody, Global, ITEM_BLOCK, Module, ModuleLayout};
use rayon::prelude::*;
use std::collections::HashMap;

/// Texts shorter than this are parsed on one thread.
const PARALLEL_TEXT: usize = 1 << 20;

/// Groups of function blocks per thread: enough for the threads to finish together.
const GROUPS_PER_THREAD: usize = 4;

/// The function blocks to parse in parallel, and what they are parsed from.
struct Plan<'s> {
    src: &'s Source<'s>,
    declarations: Module,
    globals_for: HashMap<u32, usize>,
    /// Where each block starts, and the defined function it is taken to be.
    starts: Vec<usize>,
    defined: Vec<usize>,
}

/// What a group's parse produced.
struct Parsed<'s> {
    /// Each block's function index and body, in text order.
    bodies: Vec<(usize, Box<FunctionBody>)>,
    /// Text offset of every bitstream entry of the blocks, in writing order.
    offsets: Vec<usize>,
    /// The lexer after the group's last block.
    lexer: Lexer<'s>,
}

/// Function blocks parsed while the globals block was, and the state they assumed.
pub(super) struct Ahead<'s> {
    parsed: Vec<Parsed<'s>>,
    declarations: Module,
    globals_for: HashMap<u32, usize>,
    first: usize,
}

impl<'s> Asm<'s> {
    /// Parses the globals block at the lexer while, on the other cores, the function blocks
    /// after it are parsed (see the module documentation); [`Asm::functions_in_parallel`]
    /// takes them.
    pub(super) fn globals_beside_functions(&mut self) -> super::parser::R<()> {
        let at = self.at();
        let counted = if self.parallel_worthwhile() { self.stated_globals(at) } else { None };
        let Some(plan) = counted.and_then(|n| self.plan(at, n)) else { return self.globals() };
        let (globals, parsed) = rayon::join(|| self.globals(), || parse(&plan));
        if let Some(parsed) = parsed {
            let first = plan.starts[0];
            self.ahead = Some(Ahead { parsed, declarations: plan.declarations, globals_for: plan.globals_for, first });
        }
        globals
    }

    /// Parses the function blocks from the one at the lexer on, as far as they directly
    /// follow each other, on all cores (or takes them as parsed beside the globals block),
    /// and records each in `items` (the module block's layout). Returns false, having done
    /// nothing, when they are to be parsed one by one.
    pub(super) fn functions_in_parallel(&mut self, items: &mut Vec<u16>) -> bool {
        if let Some(ahead) = self.ahead.take()
            && ahead.first == self.at()
            && self.bodies == 0
            && self.globals_for == ahead.globals_for
            && ahead.declares(&self.m)
        {
            self.take(ahead.parsed, items);
            return true;
        }
        if !self.parallel_worthwhile() {
            return false;
        }
        let first = self.at();
        let Some(plan) = self.plan(first, self.m.globals.len()) else { return false };
        if plan.starts[0] != first {
            return false;
        }
        let Some(parsed) = parse(&plan) else { return false };
        self.take(parsed, items);
        true
    }

    fn parallel_worthwhile(&self) -> bool {
        rayon::current_num_threads() >= 2 && self.src.text.len() >= PARALLEL_TEXT && self.bodies == 0
    }

    /// The count the globals block at offset `at` states first (`globals { count N;`).
    fn stated_globals(&self, at: usize) -> Option<usize> {
        let mut lx = Lexer::starting_at(&self.src.text, at);
        let mut next = || lx.next_tok().ok();
        let mut t = [next()?, next()?, next()?];
        if t[..2] != [Tok::Ident("globals"), Tok::Punct(b'{')] {
            return None;
        }
        if t[2] == Tok::Punct(b'<') {
            // An explicit width, `<B>`.
            let (Tok::Int(_), Tok::Punct(b'>')) = (next()?, next()?) else { return None };
            t[2] = next()?;
        }
        match (t[2], next()?, next()?) {
            (Tok::Ident("count"), Tok::Int(n), Tok::Punct(b';')) => usize::try_from(n).ok(),
            _ => None,
        }
    }

    /// The function blocks after offset `from`, to be parsed from the present declarations
    /// and `num_globals` globals.
    fn plan(&self, from: usize, num_globals: usize) -> Option<Plan<'s>> {
        let starts = function_starts(&self.src.text, &self.src.line_starts, from);
        let defined: Vec<usize> =
            (self.next_body..self.m.functions.len()).filter(|&i| !self.m.functions[i].is_proto).collect();
        if starts.len() < 2 || defined.len() < starts.len() {
            return None;
        }
        Some(Plan {
            src: self.src,
            declarations: self.declarations(num_globals),
            globals_for: self.globals_for.clone(),
            starts,
            defined,
        })
    }

    /// The module-level state a function block's parse reads, with `num_globals` globals:
    /// the types and functions, not the globals' initializers or the module's layout.
    fn declarations(&self, num_globals: usize) -> Module {
        let blank = Global { align: Align(0), is_const: false, inits: Vec::new(), compound: false };
        Module {
            header: self.m.header.clone(),
            version: 0,
            types: self.m.types.clone(),
            functions: self.m.functions.clone(),
            globals: vec![blank; num_globals],
            symtab: None,
            positions: None,
            layout: None,
        }
    }

    /// Takes the blocks parsed, in order, and goes on after the last of them.
    fn take(&mut self, parsed: Vec<Parsed<'s>>, items: &mut Vec<u16>) {
        for group in parsed {
            for (index, body) in group.bodies {
                self.m.functions[index].body = Some(body);
                self.bodies += 1;
                self.next_body = index + 1;
                items.push(ITEM_BLOCK);
            }
            self.offsets.extend(group.offsets);
            self.lx = group.lexer;
        }
        // The caller recorded the first block already.
        items.pop();
    }
}

impl Ahead<'_> {
    /// True if `m` declares what the blocks were parsed from: the same types and
    /// functions, and as many globals (see [`Asm::declarations`]).
    fn declares(&self, m: &Module) -> bool {
        let d = &self.declarations;
        d.types == m.types && d.functions == m.functions && d.globals.len() == m.globals.len()
    }
}

/// Parses the planned blocks in groups, in parallel; `None` if any group fails.
fn parse<'s>(plan: &Plan<'s>) -> Option<Vec<Parsed<'s>>> {
    let groups = (rayon::current_num_threads() * GROUPS_PER_THREAD).min(plan.starts.len());
    let bounds: Vec<usize> = (0..=groups).map(|g| g * plan.starts.len() / groups).collect();
    bounds.par_windows(2).map(|w| parse_group(plan, w[0], w[1])).collect()
}

/// Parses the blocks `plan.starts[from..to]`; `None` if any fails or does not end where
/// the next starts.
fn parse_group<'s>(plan: &Plan<'s>, from: usize, to: usize) -> Option<Parsed<'s>> {
    let mut a = Asm {
        lx: Lexer::starting_at(&plan.src.text, plan.starts[from]),
        src: plan.src,
        m: plan.declarations.clone(),
        ml: ModuleLayout::default(),
        globals_for: plan.globals_for.clone(),
        offsets: Vec::new(),
        bodies: 0,
        next_body: 0,
        globals_count: None,
        ahead: None,
    };
    let mut bodies = Vec::with_capacity(to - from);
    for k in from..to {
        if a.at() != plan.starts[k] {
            return None;
        }
        let index = plan.defined[k];
        a.next_body = index;
        a.function().ok()?;
        bodies.push((index, a.m.functions[index].body.take()?));
    }
    if plan.starts.get(to).is_some_and(|&next| a.at() != next) {
        return None;
    }
    Some(Parsed { bodies, offsets: a.offsets, lexer: a.lx })
}

/// The offsets, from `from` on, of the lines' first tokens that are the keyword `function`.
/// `line_starts` holds the offset of each line, when known.
fn function_starts(text: &str, line_starts: &[usize], from: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let function_at = |line: usize| {
        let indent = bytes[line..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let at = line + indent;
        (bytes[at..].starts_with(b"function") && bytes.get(at + 8).is_none_or(|&b| !is_word(b)) && at >= from)
            .then_some(at)
    };
    if !line_starts.is_empty() {
        let first = line_starts.partition_point(|&s| s <= from).saturating_sub(1);
        // A look at the start of each of millions of lines: on all cores.
        return line_starts[first..].par_iter().filter_map(|&line| function_at(line)).collect();
    }
    let mut starts = Vec::new();
    let mut line = text[..from].rfind('\n').map_or(0, |i| i + 1);
    while line < bytes.len() {
        starts.extend(function_at(line));
        line = match text[line..].find('\n') {
            Some(i) => line + i + 1,
            None => bytes.len(),
        };
    }
    starts
}
