//! Inlining of small functions, after translation.
//!
//! V8 does not inline one wasm function into another (Node 20). A pexe Google built calls
//! newlib's `sqrt` wrapper, which calls `__fpclassifyd` (a few bit operations) on every
//! call, where pnacl-llc would have inlined it; nbody does so 20 million times. So a call
//! to a function of at most [`MAX_CALLEE`] bytes of code is replaced by the function's
//! translated body: its parameters and locals become new locals of the caller, the body a
//! `block` of its result type, and each `return` a branch out of that block.
//!
//! Only functions that cannot trap are inlined, since a trap message names the function
//! it happened in (read from the stack), and the function that touches no memory: none
//! with an access to memory, an integer division, a trapping conversion, `unreachable`, a
//! call of a helper (the traps, the memory intrinsics, the adapters), an indirect call, a
//! frame on the guest stack (it sets a global), SIMD, atomics or exception handling
//! (setjmp). A call it makes stays a call (what that callee does is named as before). A
//! function is never inlined into itself, and nothing inlined is inlined again. The locals
//! of an inlined body are not reset at each call: the translator writes every local
//! before it reads it (values are SSA, and phis are written on every edge into their
//! block).

use crate::function::{Body, call_sites};
use crate::module::{Env, val_type};
use rayon::prelude::*;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{BlockType, Encode, Instruction, ValType};
use wasmparser::{BinaryReader, Operator, OperatorsReader};

/// The largest body inlined, in bytes of code. Inlining `sqrt` itself (1.2 KB) into
/// nbody's loop made it no faster: V8's baseline code for a larger function with many more
/// locals lost what the call cost.
const MAX_CALLEE: usize = 256;
/// The most code inlined into one function, in bytes.
const MAX_GROWTH: usize = 16 * 1024;

/// What an inlined function needs: its parameters, locals and result, and its code.
struct Callee<'b> {
    params: Vec<ValType>,
    result: Option<ValType>,
    body: &'b Body,
}

/// A caller's body after inlining: its code, locals and loop nesting.
struct Inlined {
    code: Vec<u8>,
    locals: Vec<ValType>,
    loop_nesting: u32,
}

/// The operators of a body's code (its instructions, the final `end` included).
fn operators(code: &[u8]) -> OperatorsReader<'_> {
    OperatorsReader::new(BinaryReader::new(code, 0))
}

/// True if the body `code` may be inlined: see the module's comment. Decided on each
/// instruction's opcode, which groups what matters: what traps, what touches memory.
fn inlinable(code: &[u8], closing_unreachable: bool) -> bool {
    if code.len() > MAX_CALLEE {
        return false;
    }
    let mut ops = operators(code);
    while !ops.eof() {
        let at = ops.original_position() as usize;
        let Ok(op) = ops.read() else { return false };
        if let Operator::Call { .. } = op {
            return false;
        }
        // The `unreachable` the translator ends a body with when its structured code does
        // not show that every path returns: never reached, since every block of the IR
        // ends in a terminator (an `unreachable` of the IR there would not be marked).
        if matches!(op, Operator::Unreachable) && closing_unreachable && ops.is_end_then_eof() {
            continue;
        }
        let refused = match code.get(at).copied() {
            // unreachable; try, catch, throw, rethrow; call_indirect and the tail calls;
            // delegate, catch_all; global.set and the table accesses.
            Some(0x00 | 0x06..=0x09 | 0x11..=0x13 | 0x18 | 0x19 | 0x24..=0x26) => true,
            // The loads and stores, memory.size and memory.grow.
            Some(0x28..=0x40) => true,
            // Integer division and remainder, and the float-to-integer conversions that trap.
            Some(0x6d..=0x70 | 0x7f..=0x82 | 0xa8..=0xab | 0xae..=0xb1) => true,
            // The saturating conversions (0xfc 0..=7) are kept; bulk memory is refused.
            Some(0xfc) => !matches!(code.get(at + 1), Some(0..=7)),
            // SIMD (its loads and stores among it) and atomics.
            Some(0xfd | 0xfe) => true,
            _ => false,
        };
        if refused {
            return false;
        }
    }
    true
}

/// Appends `callee`'s body to `out` as a block, its locals numbered from `base`.
fn emit_inlined(callee: &Callee<'_>, base: u32, out: &mut Vec<u8>) -> Option<()> {
    let n = callee.params.len() as u32;
    for k in (0..n).rev() {
        Instruction::LocalSet(base + k).encode(out);
    }
    let ty = callee.result.map_or(BlockType::Empty, BlockType::Result);
    Instruction::Block(ty).encode(out);
    let mut depth = 0u32;
    let mut ops = operators(&callee.body.code);
    let mut re = RoundtripReencoder;
    while !ops.eof() {
        let op = ops.read().ok()?;
        let instruction = match op {
            Operator::LocalGet { local_index } => Instruction::LocalGet(base + local_index),
            Operator::LocalSet { local_index } => Instruction::LocalSet(base + local_index),
            Operator::LocalTee { local_index } => Instruction::LocalTee(base + local_index),
            Operator::Return => Instruction::Br(depth),
            Operator::Block { .. } | Operator::Loop { .. } | Operator::If { .. } => {
                depth += 1;
                re.instruction(op).ok()?
            }
            Operator::End => {
                // The body's own `end` closes the block this call became.
                depth = depth.saturating_sub(1);
                Instruction::End
            }
            other => re.instruction(other).ok()?,
        };
        instruction.encode(out);
    }
    Some(())
}

/// The code of `caller` (wasm function `own`) with its calls in loops to the functions
/// of `callees` (by wasm index) inlined, and its new locals; `None` if it has no such call.
fn inline_into(caller: &Body, own: u32, first: u32, callees: &[Option<Callee<'_>>], params: u32) -> Option<Inlined> {
    let callee_at = |index: u32| -> Option<&Callee<'_>> {
        let k = index.checked_sub(first)? as usize;
        callees.get(k)?.as_ref().filter(|_| index != own)
    };
    // First, whether there is anything to do, without reading the code.
    if !caller.direct_calls.iter().any(|&c| callee_at(c).is_some()) {
        return None;
    }
    let mut locals = caller.locals.clone();
    let mut out = Vec::with_capacity(caller.code.len() * 2);
    let mut grown = 0usize;
    // An inlined loop keeps its nesting at least (it may be inside one of the caller's).
    let mut loop_nesting = caller.loop_nesting;
    let mut ops = operators(&caller.code);
    while !ops.eof() {
        let start = ops.original_position() as usize;
        let op = ops.read().ok()?;
        let end = ops.original_position() as usize;
        if let Operator::Call { function_index } = op
            && let Some(callee) = callee_at(function_index)
            && grown + callee.body.code.len() <= MAX_GROWTH
        {
            let base = params + locals.len() as u32;
            locals.extend_from_slice(&callee.params);
            locals.extend_from_slice(&callee.body.locals);
            emit_inlined(callee, base, &mut out)?;
            loop_nesting = loop_nesting.max(callee.body.loop_nesting);
            grown += callee.body.code.len();
            continue;
        }
        // Everything else is copied as it is.
        out.extend_from_slice(caller.code.get(start..end)?);
    }
    Some(Inlined { code: out, locals, loop_nesting })
}

/// Inlines small functions into the loops that call them (see the module's comment).
/// `defined` are the module functions whose bodies `bodies` are, in order.
pub(crate) fn inline_small_calls(env: &Env<'_>, defined: &[u32], bodies: &mut [Body]) {
    let m = env.m;
    let first = env.first_defined();
    // The defined functions' wasm indices are consecutive, in the order of `defined`.
    if defined.iter().enumerate().any(|(k, &f)| env.function_index(f) != first + k as u32) {
        return;
    }
    // Only functions that something calls, and that call nothing themselves, are read.
    let sites = call_sites(bodies, first);
    let callees: Vec<Option<Callee<'_>>> = defined
        .par_iter()
        .zip(bodies.par_iter())
        .zip(sites.par_iter())
        .map(|((&f, body), &sites)| {
            (sites > 0 && body.direct_calls.is_empty() && inlinable(&body.code, body.closing_unreachable)).then(|| {
                let sig = m.signature(f);
                let params = sig.params.iter().map(|&p| val_type(p)).collect();
                let result = (sig.ret != pnacl_bitcode::ir::Ty::Void).then(|| val_type(sig.ret));
                Callee { params, result, body }
            })
        })
        .collect();
    if callees.iter().all(Option::is_none) {
        return;
    }
    let rewritten: Vec<Option<Inlined>> = defined
        .par_iter()
        .zip(bodies.par_iter())
        .enumerate()
        .map(|(k, (&f, body))| {
            let params = m.signature(f).params.len() as u32;
            inline_into(body, first + k as u32, first, &callees, params)
        })
        .collect();
    drop(callees);
    for (body, new) in bodies.iter_mut().zip(rewritten) {
        if let Some(new) = new {
            body.loop_nesting = new.loop_nesting;
            body.code = new.code;
            body.locals = new.locals;
        }
    }
}
