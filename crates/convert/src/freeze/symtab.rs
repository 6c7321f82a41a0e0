//! Symbol tables in the order PNaCl's writer iterates them.
//!
//! The writer walks LLVM's `ValueSymbolTable`, whose order is that of a `StringMap` with
//! a history ([`string_map`](super::string_map)). Two histories occur:
//! - a module read from LLVM 3.x bitcode: LLVM 3.7's reader entered the names in the order
//!   of the input's symbol-table records;
//! - a module assembled from text (`llvm-as < t.ll | pnacl-freeze`): LLVM 3.7's `llvm-as`
//!   entered names as its parser first met them, wrote them in its table's bucket order,
//!   and pnacl-freeze's reader entered them in that order. Bitcode from LLVM 5 and newer
//!   keeps names in a string table with no trace of that order, so it is re-created from
//!   the module: globals in order (names in an initializer before the global itself),
//!   then functions, each followed by the names its body mentions first.
//!
//! Names the history holds that the module no longer has (removed by `strip`) stay behind
//! as tombstones, as they do in LLVM, and still shape the order of the others.

use super::pointers::is_elided;
use super::string_map::StringMap;
use pnacl_bitcode::ir::{LocalSymbol, Symbol, ValueId};
use pnacl_llvm::hash::FastSet;
use pnacl_llvm::ir::{BlockId, Const, ConstId, Function, InstKind, Module, Type, Value};
use std::collections::{HashMap, HashSet};

/// How a module's global names entered LLVM's symbol table before the writer ran.
#[derive(Clone, Copy, Debug)]
pub enum NameHistory<'a> {
    /// Read from bitcode whose symbol table lists the names in this order (LLVM 3.x).
    Read(&'a [String]),
    /// Assembled from LLVM IR text by LLVM 3.7's `llvm-as`, as far as the module shows it.
    Assembled,
}

impl<'a> NameHistory<'a> {
    /// The history of a module whose [`name_history`] is `names`.
    pub fn of(names: Option<&'a [String]>) -> Self {
        names.map_or(NameHistory::Assembled, NameHistory::Read)
    }
}

/// The names of `m`'s globals in the order LLVM's reader entered them, for
/// [`NameHistory::Read`]; `None` when they came from a string table (LLVM 5 and newer),
/// which keeps no such order. Take it before a pass renames or strips names.
pub fn name_history(m: &Module) -> Option<Vec<String>> {
    (!m.names_from_string_table).then(|| m.name_order.iter().map(|&r| m.props(r).name.clone()).collect())
}

/// Inserts `seq` into a table, removes what is no longer `live`, inserts the live names the
/// history lacks, and returns the table's iteration order.
fn replay<'n>(seq: &[&'n [u8]], live: &[&'n [u8]]) -> Vec<&'n [u8]> {
    let mut map = StringMap::new();
    for &n in seq {
        map.insert(n);
    }
    let live_set: HashSet<&[u8]> = live.iter().copied().collect();
    let seq_set: HashSet<&[u8]> = seq.iter().copied().collect();
    for &n in seq {
        if !live_set.contains(n) {
            map.remove(n);
        }
    }
    for &n in live {
        if !seq_set.contains(n) {
            map.insert(n);
        }
    }
    map.iter().collect()
}

/// The bucket order of a table filled in `order` (the first of two stages).
fn bucket_order<'n>(order: &[&'n [u8]]) -> Vec<&'n [u8]> {
    let mut map = StringMap::new();
    for &n in order {
        map.insert(n);
    }
    map.iter().collect()
}

/// The module symbol table: every named function and global variable.
pub(crate) fn module_symtab(m: &Module, history: NameHistory<'_>) -> Vec<Symbol> {
    let mut ids: HashMap<&[u8], u32> = HashMap::new();
    let mut live: Vec<&[u8]> = Vec::new();
    let f_count = m.functions.len() as u32;
    let named = m.functions.iter().enumerate().map(|(i, f)| (&f.props.name, i as u32));
    let named = named.chain(m.globals.iter().enumerate().map(|(i, g)| (&g.props.name, f_count + i as u32)));
    for (name, id) in named {
        if !name.is_empty() && ids.insert(name.as_bytes(), id).is_none() {
            live.push(name.as_bytes());
        }
    }
    let seq: Vec<&[u8]> = match history {
        NameHistory::Read(h) => h.iter().map(|s| s.as_bytes()).collect(),
        NameHistory::Assembled => bucket_order(&first_mentions(m)),
    };
    replay(&seq, &live).into_iter().map(|n| Symbol { value: ValueId(ids[n]), name: n.to_vec() }).collect()
}

/// Global names in the order LLVM's text parser first meets them (see the module docs).
fn first_mentions(m: &Module) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut seen = FastSet::default();
    fn mention<'m>(out: &mut Vec<&'m [u8]>, seen: &mut FastSet<&'m str>, name: &'m String) {
        if !name.is_empty() && seen.insert(name.as_str()) {
            out.push(name.as_bytes());
        }
    }
    for g in &m.globals {
        if let Some(init) = g.init {
            let mut refs = Vec::new();
            const_refs(m, init, &mut refs, &mut FastSet::default());
            for r in refs {
                mention(&mut out, &mut seen, r);
            }
        }
        mention(&mut out, &mut seen, &g.props.name);
    }
    let mut refs = Vec::new();
    let mut visited = FastSet::default();
    for f in &m.functions {
        mention(&mut out, &mut seen, &f.props.name);
        for (_, id) in f.layout() {
            let mut visit = |v: Value| {
                if let Value::Const(c) = v {
                    visited.clear();
                    const_refs(m, c, &mut refs, &mut visited);
                }
            };
            match &f.inst(id).kind {
                // The text names the callee before the arguments.
                InstKind::Call { callee, args, .. } | InstKind::Invoke { callee, args, .. } => {
                    visit(*callee);
                    args.iter().for_each(|&a| visit(a));
                }
                k => k.for_each_value(visit),
            }
            for r in refs.drain(..) {
                mention(&mut out, &mut seen, r);
            }
        }
    }
    out
}

/// The names of the globals and functions constant `c` refers to, in textual order.
/// (A name met twice is listed twice: the caller keeps first mentions.)
fn const_refs<'m>(m: &'m Module, c: ConstId, out: &mut Vec<&'m String>, visited: &mut FastSet<ConstId>) {
    match m.consts.get(c) {
        Const::Function(f) => out.push(&m.functions[f.0 as usize].props.name),
        Const::Global(g) => out.push(&m.globals[g.0 as usize].props.name),
        Const::Alias(a) => out.push(&m.aliases[a.0 as usize].props.name),
        Const::BlockAddress { func, .. } => out.push(&m.functions[func.0 as usize].props.name),
        other => {
            if other.operands().is_empty() || !visited.insert(c) {
                return;
            }
            for &op in other.operands() {
                const_refs(m, op, out, visited);
            }
        }
    }
}

/// What a local name names.
#[derive(Clone, Copy)]
enum Local {
    Value(u32),
    Block(u32),
}

/// A function's own symbol table (`-allow-local-symbol-tables`): its named arguments,
/// blocks and instructions (elided casts excepted). `value_id` gives the absolute id of an
/// argument or instruction value.
pub(crate) fn function_symtab(
    m: &Module,
    f: &Function,
    value_id: impl Fn(Value) -> Option<u32>,
) -> Option<Vec<LocalSymbol>> {
    let mut named: HashMap<&[u8], Local> = HashMap::new();
    let mut order: Vec<&[u8]> = Vec::new();
    fn add<'f>(
        named: &mut HashMap<&'f [u8], Local>,
        order: &mut Vec<&'f [u8]>,
        name: &'f Option<String>,
        what: Option<Local>,
    ) {
        if let (Some(n), Some(w)) = (name.as_deref(), what)
            && !n.is_empty()
            && named.insert(n.as_bytes(), w).is_none()
        {
            order.push(n.as_bytes());
        }
    }
    // The text parser's order: arguments, then each block when first met (a branch
    // target can be met before its label), then each instruction once its operands are
    // parsed.
    for (i, p) in f.params.iter().enumerate() {
        add(&mut named, &mut order, &p.name, value_id(Value::Arg(i as u32)).map(Local::Value));
    }
    let block = |b: BlockId| (&f.blocks[b.0 as usize].name, Some(Local::Block(b.0)));
    for (bi, blk) in f.blocks.iter().enumerate() {
        let (n, w) = block(BlockId(bi as u32));
        add(&mut named, &mut order, n, w);
        for &id in &blk.insts {
            let inst = f.inst(id);
            let mut refs: Vec<BlockId> = match &inst.kind {
                InstKind::Phi { incoming } => incoming.iter().map(|p| p.1).collect(),
                k => k.successors(),
            };
            refs.dedup();
            for b in refs {
                let (n, w) = block(b);
                add(&mut named, &mut order, n, w);
            }
            let defines = *m.types.get(inst.ty) != Type::Void && !is_elided(m, f, Value::Inst(id));
            if defines {
                add(&mut named, &mut order, &inst.name, value_id(Value::Inst(id)).map(Local::Value));
            }
        }
    }
    if order.is_empty() {
        return None;
    }
    let seq = bucket_order(&order);
    let table = replay(&seq, &order);
    Some(
        table
            .into_iter()
            .map(|n| match named[n] {
                Local::Value(v) => LocalSymbol::Value { value: ValueId(v), name: n.to_vec() },
                Local::Block(b) => LocalSymbol::Block { block: b, name: n.to_vec() },
            })
            .collect(),
    )
}
