//! Common subexpressions: an instruction that computes what a dominating one already
//! computed (the same pure operation on the same operands) is replaced by it.
//!
//! A finalized pexe has not been through a code generator: PNaCl's `-O2` ran before
//! `ExpandGetElementPtr` turned each field access into its own address arithmetic, and
//! pnacl-llc's GVN and strength reduction, which cleaned that up, ran in the browser. So a
//! loop that reads five fields of `bodies[j]` computes `@bodies + j*56` five times. V8's
//! optimising tier would remove the copies, but a function called once (a benchmark's
//! `main`, with the loop inside) never leaves V8's baseline compiler, which emits what it
//! is given. This pass removes them before translation, as pnacl-llc did.
//!
//! Only instructions that cannot trap or touch memory take part (integer and float
//! arithmetic other than integer division and remainder, compares, casts, selects); an
//! instruction replaced is left in place with no uses, and the translator emits nothing
//! for an unused pure instruction. Blocks are visited in reverse postorder, so a
//! candidate's block was visited before any block it dominates.

use pnacl_bitcode::ir::{BinOp, Dominators, FunctionBody, Inst, Module, ValueId, ValueSpace};
use rustc_hash::FxHashMap;

/// No replacement.
const NONE: u32 = u32::MAX;

/// True if `inst` is pure and cannot trap, so that a dominating copy can stand in for it.
fn candidate(inst: &Inst) -> bool {
    match *inst {
        // Integer division traps; float division does not, but the operand type is not in
        // the instruction, and float division is rare in address arithmetic.
        Inst::Binop { op, .. } => !matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem),
        Inst::Cast { .. } | Inst::Cmp { .. } | Inst::Select { .. } => true,
        _ => false,
    }
}

/// Work space kept by each thread from one function to the next (most functions are small,
/// and allocating these per function cost more than the search).
#[derive(Default)]
struct Spare {
    inst_value: Vec<u32>,
    replace: Vec<u32>,
    seen: FxHashMap<Inst, (u32, u32)>,
    dom: Dominators,
}

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::new(Spare::default());
}

/// The body of function `f` with its common subexpressions replaced, or `None` if it has
/// none (the usual case for small functions: the body is then not copied).
pub(crate) fn eliminate(m: &Module, f: u32, body: &FunctionBody) -> Option<FunctionBody> {
    SPARE.with(|spare| eliminate_with(m, f, body, &mut spare.borrow_mut()))
}

fn eliminate_with(m: &Module, f: u32, body: &FunctionBody, spare: &mut Spare) -> Option<FunctionBody> {
    // First, whether any candidate is computed twice at all, operands as written: without
    // such a pair there is nothing to replace, and no dominator tree is needed.
    spare.seen.clear();
    let mut repeated = false;
    for inst in &body.insts {
        if candidate(inst) && spare.seen.insert(*inst, (0, 0)).is_some() {
            repeated = true;
            break;
        }
    }
    if !repeated {
        return None;
    }
    let Spare { inst_value, replace, seen, dom } = spare;
    seen.clear();
    let space: ValueSpace = m.value_space(f);
    let first = space.first_inst();
    // The value each instruction defines.
    inst_value.clear();
    let mut next = 0u32;
    for inst in &body.insts {
        if m.defines_value(inst) {
            inst_value.push(next);
            next += 1;
        } else {
            inst_value.push(NONE);
        }
    }
    replace.clear();
    replace.resize(next as usize, NONE);
    let map = |replace: &[u32], v: ValueId| match v.0.checked_sub(first).and_then(|n| replace.get(n as usize)) {
        Some(&r) if r != NONE => ValueId(r),
        _ => v,
    };
    dom.compute(body);
    // Each candidate computation seen, with the value and block that computed it last: a
    // copy in a block it does not dominate takes its place (blocks come in reverse
    // postorder, so that is usually the copy later blocks can use).
    let mut found = false;
    for &b in dom.reverse_postorder() {
        let start = body.block_starts.get(b as usize).map_or(0, |&s| s as usize);
        let end = body.block_starts.get(b as usize + 1).map_or(body.insts.len(), |&s| s as usize);
        let end = end.min(body.insts.len());
        let start = start.min(end);
        for (&inst, &v) in body.insts[start..end].iter().zip(&inst_value[start..end]) {
            if v == NONE || !candidate(&inst) {
                continue;
            }
            let key = inst.map_operands(|x| map(replace, x));
            match seen.get(&key) {
                Some(&(w, c)) if c == b || dom.dominates(c, b) => {
                    replace[v as usize] = first + w;
                    found = true;
                }
                _ => {
                    seen.insert(key, (v, b));
                }
            }
        }
    }
    if !found {
        return None;
    }
    // What the translator reads of a body (not its encoding, positions or symbols).
    let mut out = FunctionBody {
        num_blocks: body.num_blocks,
        constants: body.constants.clone(),
        insts: body.insts.clone(),
        block_starts: body.block_starts.clone(),
        num_params: body.num_params,
        local_types: body.local_types.clone(),
        operands: body.operands.clone(),
        cases: body.cases.clone(),
        ..FunctionBody::default()
    };
    out.map_operands(|x| map(replace, x));
    Some(out)
}
