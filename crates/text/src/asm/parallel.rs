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

use super::parser::Asm;
use crate::lexer::{Lexer, is_word};
use pnacl_bitcode::ir::{FunctionBody, Global, ITEM_BLOCK, Module, ModuleLayout};
use rayon::prelude::*;

/// Texts shorter than this are parsed on one thread.
const PARALLEL_TEXT: usize = 1 << 20;

/// Groups of function blocks per thread: enough for the threads to finish together.
const GROUPS_PER_THREAD: usize = 4;

/// What a group's parse produced.
struct Parsed<'s> {
    /// Each block's function index and body, in text order.
    bodies: Vec<(usize, Box<FunctionBody>)>,
    /// Text offset of every bitstream entry of the blocks, in writing order.
    offsets: Vec<usize>,
    /// The lexer after the group's last block.
    lexer: Lexer<'s>,
}

impl<'s> Asm<'s> {
    /// Parses the function blocks from the one at the lexer on, as far as they directly
    /// follow each other, on all cores, and records each in `items` (the module block's
    /// layout). Returns false, having done nothing, when they are to be parsed one by one.
    pub(super) fn functions_in_parallel(&mut self, items: &mut Vec<u16>) -> bool {
        if rayon::current_num_threads() < 2 || self.src.text.len() < PARALLEL_TEXT || self.bodies != 0 {
            return false;
        }
        let first = self.at();
        let starts = function_starts(&self.src.text, &self.src.line_starts, first);
        let defined: Vec<usize> =
            (self.next_body..self.m.functions.len()).filter(|&i| !self.m.functions[i].is_proto).collect();
        if starts.len() < 2 || starts[0] != first || defined.len() < starts.len() {
            return false;
        }
        let groups = (rayon::current_num_threads() * GROUPS_PER_THREAD).min(starts.len());
        let bounds: Vec<usize> = (0..=groups).map(|g| g * starts.len() / groups).collect();
        let declarations = self.declarations();
        let parsed: Option<Vec<Parsed<'s>>> = bounds
            .par_windows(2)
            .map(|w| self.parse_group(&declarations, &starts, &defined, w[0], w[1]))
            .collect();
        let Some(parsed) = parsed else { return false };
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
        true
    }

    /// The module-level state a function block's parse reads, without what it does not
    /// (the globals' initializers, the module's layout).
    fn declarations(&self) -> Module {
        let blank = self.m.globals.first().map(|g| Global { inits: Vec::new(), ..g.clone() });
        Module {
            header: self.m.header.clone(),
            version: self.m.version,
            types: self.m.types.clone(),
            functions: self.m.functions.clone(),
            globals: blank.map_or_else(Vec::new, |g| vec![g; self.m.globals.len()]),
            symtab: None,
            positions: None,
            layout: None,
        }
    }

    /// Parses the function blocks `starts[from..to]`, the `k`th of them the defined
    /// function `defined[k]`; `None` if any fails or does not end where the next starts.
    fn parse_group(
        &self,
        declarations: &Module,
        starts: &[usize],
        defined: &[usize],
        from: usize,
        to: usize,
    ) -> Option<Parsed<'s>> {
        let mut a = Asm {
            lx: Lexer::starting_at(&self.src.text, starts[from]),
            src: self.src,
            m: declarations.clone(),
            ml: ModuleLayout::default(),
            globals_for: self.globals_for.clone(),
            offsets: Vec::new(),
            bodies: 0,
            next_body: 0,
            globals_count: None,
        };
        let mut bodies = Vec::with_capacity(to - from);
        for k in from..to {
            if a.at() != starts[k] {
                return None;
            }
            a.next_body = defined[k];
            a.function().ok()?;
            bodies.push((defined[k], a.m.functions[defined[k]].body.take()?));
        }
        if starts.get(to).is_some_and(|&next| a.at() != next) {
            return None;
        }
        Some(Parsed { bodies, offsets: a.offsets, lexer: a.lx })
    }
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
        return line_starts[first..].iter().filter_map(|&line| function_at(line)).collect();
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
