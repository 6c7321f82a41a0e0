//! `flatten-globals`: every global initializer becomes bytes and relocations: `[N x i8]`
//! data or zeros, `i32 ptrtoint (@G)` (plus an addend), or a packed struct of those; uses
//! of the global see it through a cast to its old type.
//!
//! Memory follows the input, not the sizes it declares: an initializer is held as runs of
//! bytes, zero-fill (a size) and relocations, as the PNaCl globals block writes it, so
//! `char big[400000000] = {1};` is one byte and a count. Between two relocations Google's
//! pass wrote one `[N x i8]` of data whenever a byte was not zero; here a stretch of at
//! least [`ZERO_FILL`] zeros that the initializer leaves implicit (`zeroinitializer`,
//! padding) becomes zero-fill of its own: the same memory, without writing the zeros out.
//! Globals holding more than 4 GiB, more than a 32-bit address space, are refused.

use crate::util::inst;
use crate::{Pass, PassError};
use pnacl_llvm::ir::{
    BinaryOp, CastOp, Const, ConstId, ExprOp, GlobalId, InstKind, Module, StructType, Type, TypeId, Value,
};
use std::collections::HashMap;

/// The pass.
pub struct FlattenGlobals;

const NAME: &str = "flatten-globals";

/// A stretch of implicit zeros at least this long becomes zero-fill of its own.
pub const ZERO_FILL: u64 = 4096;

/// The most data the globals can hold: a 32-bit address space.
const MAX_DATA: u64 = 1 << 32;

/// A part of a flattened initializer.
#[derive(Debug, PartialEq)]
enum Piece {
    /// Bytes as they are.
    Bytes(Vec<u8>),
    /// This many zero bytes, left implicit.
    Zeros(u64),
    /// A 4-byte relocation: the address of a global value plus an addend.
    Reloc(ConstId, i64),
}

/// An initializer as runs of bytes, zeros and relocations.
#[derive(Default)]
struct Flat {
    pieces: Vec<Piece>,
    /// Its size so far, in bytes.
    len: u64,
}

/// The global value and byte offset a pointer constant denotes.
fn address(m: &Module, c: ConstId) -> Result<Option<(ConstId, i64)>, String> {
    match m.consts.get(c) {
        Const::Global(_) | Const::Function(_) => Ok(Some((c, 0))),
        Const::Null(_) | Const::Zero(_) | Const::Undef(_) | Const::Poison(_) => Ok(None),
        Const::Int { value, .. } => {
            if *value == 0 {
                Ok(None)
            } else {
                Err("an integer constant used as an address".into())
            }
        }
        Const::Expr { op, operands, .. } => match op {
            ExprOp::Cast(CastOp::Bitcast | CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast) => {
                address(m, operands[0])
            }
            ExprOp::Binary(BinaryOp::Add, _) => {
                let k = int_value(m, operands[1]).ok_or("a relocation addend that is not constant")?;
                Ok(address(m, operands[0])?.map(|(g, a)| (g, a.wrapping_add(k))))
            }
            ExprOp::Binary(BinaryOp::Sub, _) => {
                let k = int_value(m, operands[1]).ok_or("a relocation addend that is not constant")?;
                Ok(address(m, operands[0])?.map(|(g, a)| (g, a.wrapping_sub(k))))
            }
            ExprOp::GetElementPtr { source_ty, .. } => {
                let base = address(m, operands[0])?;
                let off = gep_offset(m, *source_ty, &operands[1..])?;
                Ok(base.map(|(g, a)| (g, a.wrapping_add(off))))
            }
            _ => Err("a constant expression that is not an address".into()),
        },
        _ => Err("a constant that is not an address".into()),
    }
}

/// The value of a constant that names no global: an integer, or casts and sums of them.
fn absolute(m: &Module, c: ConstId) -> Option<i64> {
    match m.consts.get(c) {
        Const::Expr { op, operands, .. } => match op {
            ExprOp::Cast(CastOp::Bitcast | CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast) => {
                absolute(m, operands[0])
            }
            ExprOp::Binary(BinaryOp::Add, _) => Some(absolute(m, operands[0])?.wrapping_add(absolute(m, operands[1])?)),
            ExprOp::Binary(BinaryOp::Sub, _) => Some(absolute(m, operands[0])?.wrapping_sub(absolute(m, operands[1])?)),
            _ => None,
        },
        _ => int_value(m, c),
    }
}

/// The sign-extended value of an integer constant.
fn int_value(m: &Module, c: ConstId) -> Option<i64> {
    match m.consts.get(c) {
        Const::Int { ty, value } => {
            let w = m.types.get(*ty).int_width()?;
            Some(if w >= 64 { *value as i64 } else { ((*value << (64 - w)) as i64) >> (64 - w) })
        }
        Const::Zero(_) | Const::Null(_) => Some(0),
        _ => None,
    }
}

/// The byte offset of a constant GEP's indices.
fn gep_offset(m: &Module, source: TypeId, indices: &[ConstId]) -> Result<i64, String> {
    let mut off: i64 = 0;
    let mut cur = source;
    for (k, &i) in indices.iter().enumerate() {
        let idx = int_value(m, i).ok_or("a non-constant index")?;
        if k == 0 {
            off += idx * m.types.alloc_size(cur).ok_or("an unsized type")? as i64;
            continue;
        }
        match m.types.get(cur) {
            Type::Struct(s) => {
                off += m.types.field_offset(cur, idx as usize).ok_or("a field out of range")? as i64;
                cur = s.fields[idx as usize];
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                let e = *elem;
                off += idx * m.types.alloc_size(e).ok_or("an unsized type")? as i64;
                cur = e;
            }
            _ => return Err("an index into a non-aggregate".into()),
        }
    }
    Ok(off)
}

impl Flat {
    fn bytes(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        match self.pieces.last_mut() {
            Some(Piece::Bytes(b)) => b.extend_from_slice(bytes),
            _ if bytes.is_empty() => {}
            _ => self.pieces.push(Piece::Bytes(bytes.to_vec())),
        }
    }

    fn zeros(&mut self, n: u64) {
        self.len = self.len.saturating_add(n);
        match self.pieces.last_mut() {
            Some(Piece::Zeros(z)) => *z = z.saturating_add(n),
            _ if n == 0 => {}
            _ => self.pieces.push(Piece::Zeros(n)),
        }
    }

    /// Pads with zeros up to `end`, or cuts back to it.
    fn resize(&mut self, end: u64) -> Result<(), String> {
        if end >= self.len {
            self.zeros(end - self.len);
            return Ok(());
        }
        while self.len > end {
            let cut = self.len - end;
            let last = self.pieces.last_mut().expect("a non-empty initializer has pieces");
            let size = match last {
                Piece::Bytes(b) => b.len() as u64,
                Piece::Zeros(n) => *n,
                Piece::Reloc(..) => 4,
            };
            if cut >= size {
                self.pieces.pop();
                self.len -= size;
                continue;
            }
            match last {
                Piece::Bytes(b) => b.truncate((size - cut) as usize),
                Piece::Zeros(n) => *n -= cut,
                Piece::Reloc(..) => return Err("a constant larger than its type cuts a relocation".into()),
            }
            self.len = end;
        }
        Ok(())
    }

    /// Appends constant `c` of type `t` as laid out in memory.
    fn put(&mut self, m: &Module, c: ConstId, t: TypeId) -> Result<(), String> {
        let size = m.types.alloc_size(t).ok_or("an unsized initializer")?;
        if size > MAX_DATA {
            return Err(too_much(size));
        }
        let start = self.len;
        match m.consts.get(c) {
            Const::Zero(_) | Const::Undef(_) | Const::Poison(_) | Const::Null(_) => {}
            Const::Int { value, .. } => {
                let n = m.types.store_size(t).unwrap_or(8) as usize;
                self.bytes(&value.to_le_bytes()[..n.min(8)]);
            }
            Const::WideInt { words, .. } => {
                let n = m.types.store_size(t).unwrap_or(0) as usize;
                let all: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                self.bytes(&all[..n.min(all.len())]);
            }
            Const::Float { bits, .. } => {
                let n = m.types.store_size(t).unwrap_or(8) as usize;
                self.bytes(&bits.to_le_bytes()[..n.min(16)]);
            }
            Const::Data { elems, .. } => {
                let elem = m.types.element(t).ok_or("data of a non-sequence")?;
                let n = m.types.store_size(elem).unwrap_or(1) as usize;
                let stride = m.types.alloc_size(elem).unwrap_or(1);
                for e in elems {
                    let at = self.len;
                    self.bytes(&e.to_le_bytes()[..n.min(8)]);
                    self.resize(at + stride)?;
                }
            }
            Const::Aggregate { elems, .. } => match m.types.get(t).clone() {
                Type::Struct(s) => {
                    for (k, (&e, &ft)) in elems.iter().zip(&s.fields).enumerate() {
                        let off = m.types.field_offset(t, k).ok_or("a field out of range")?;
                        self.resize(start + off)?;
                        self.put(m, e, ft)?;
                    }
                }
                Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                    for &e in elems {
                        self.put(m, e, elem)?;
                    }
                }
                _ => return Err("an aggregate of a scalar type".into()),
            },
            _ => {
                // A pointer that is a plain number (a C++ vtable's offset-to-top, `inttoptr
                // (i32 -8 to ptr)`) is data, not a relocation.
                if let Some(v) = absolute(m, c).filter(|&v| v != 0) {
                    let n = m.types.store_size(t).unwrap_or(4) as usize;
                    self.bytes(&v.to_le_bytes()[..n.min(8)]);
                } else if let Some((g, addend)) = address(m, c)? {
                    if m.types.store_size(t) != Some(4) {
                        return Err("an address stored in other than 4 bytes".into());
                    }
                    self.pieces.push(Piece::Reloc(g, addend));
                    self.len += 4;
                }
            }
        }
        self.resize(start + size)
    }
}

/// The refusal of `size` bytes of globals.
fn too_much(size: u64) -> String {
    format!("{size} bytes of data: more than the 4 GiB a PNaCl program's 32-bit address space holds")
}

/// The elements of the bytes and zeros between two relocations (or an end): one
/// `[N x i8]` of zeros if they are all zero, else data, with every stretch of at least
/// [`ZERO_FILL`] implicit zeros as zero-fill of its own.
fn slice_parts(m: &mut Module, slice: &[Piece], parts: &mut Vec<(TypeId, ConstId)>) {
    let i8t = m.types.int(8);
    let mut part = |m: &mut Module, len: u64, data: Option<Vec<u8>>| {
        if len == 0 {
            return;
        }
        let ty = m.types.intern(Type::Array { len, elem: i8t });
        let c = match data {
            Some(bytes) if bytes.iter().any(|&b| b != 0) => {
                Const::Data { ty, elems: bytes.iter().map(|&b| u64::from(b)).collect() }
            }
            _ => Const::Zero(ty),
        };
        parts.push((ty, m.consts.intern(c)));
    };
    let all_zero = slice.iter().all(|p| !matches!(p, Piece::Bytes(b) if b.iter().any(|&x| x != 0)));
    if all_zero {
        let len = slice.iter().map(|p| if let Piece::Bytes(b) = p { b.len() as u64 } else { zeros(p) }).sum();
        return part(m, len, None);
    }
    let mut data: Vec<u8> = Vec::new();
    for p in slice {
        match p {
            Piece::Bytes(b) => data.extend_from_slice(b),
            Piece::Zeros(n) if *n >= ZERO_FILL => {
                let len = data.len() as u64;
                part(m, len, Some(std::mem::take(&mut data)));
                part(m, *n, None);
            }
            Piece::Zeros(n) => data.resize(data.len() + *n as usize, 0),
            Piece::Reloc(..) => unreachable!("a slice holds no relocation"),
        }
    }
    let len = data.len() as u64;
    part(m, len, Some(data));
}

/// The size of a run of zeros.
fn zeros(p: &Piece) -> u64 {
    match p {
        Piece::Zeros(n) => *n,
        _ => 0,
    }
}

/// The flattened initializer: one simple element, or a packed struct of them.
fn build(m: &mut Module, flat: Flat) -> (TypeId, ConstId) {
    let i8t = m.types.int(8);
    let i32t = m.types.int(32);
    let mut parts: Vec<(TypeId, ConstId)> = Vec::new();
    let mut slice = Vec::new();
    for piece in flat.pieces {
        let Piece::Reloc(target, addend) = piece else {
            slice.push(piece);
            continue;
        };
        slice_parts(m, &std::mem::take(&mut slice), &mut parts);
        let p = m.consts.intern(Const::Expr { ty: i32t, op: ExprOp::Cast(CastOp::PtrToInt), operands: vec![target] });
        let c = if addend as u32 == 0 {
            p
        } else {
            let k = m.consts.int(i32t, 32, u64::from(addend as u32));
            m.consts.intern(Const::Expr { ty: i32t, op: ExprOp::Binary(BinaryOp::Add, 0), operands: vec![p, k] })
        };
        parts.push((i32t, c));
    }
    slice_parts(m, &slice, &mut parts);
    if parts.is_empty() {
        // A zero-size global keeps a size of zero.
        let ty = m.types.intern(Type::Array { len: 0, elem: i8t });
        parts.push((ty, m.consts.intern(Const::Zero(ty))));
    }
    if parts.len() == 1 {
        return parts[0];
    }
    let ty = m.types.intern(Type::Struct(StructType {
        name: None,
        fields: parts.iter().map(|p| p.0).collect(),
        packed: true,
        opaque: false,
    }));
    let c = m.consts.intern(Const::Aggregate { ty, elems: parts.iter().map(|p| p.1).collect() });
    (ty, c)
}

/// True if the initializer is already in normal form.
fn is_flat(m: &Module, init: ConstId) -> bool {
    let simple = |c: ConstId| {
        let k = m.consts.get(c);
        let Some(t) = k.own_type() else { return false };
        match m.types.get(t) {
            Type::Array { elem, .. } => {
                *m.types.get(*elem) == Type::Int(8) && matches!(k, Const::Zero(_) | Const::Data { .. })
            }
            Type::Int(32) => matches!(address(m, c), Ok(Some(_))) && matches!(k, Const::Expr { .. }),
            _ => false,
        }
    };
    match m.consts.get(init) {
        Const::Aggregate { ty, elems } => {
            // A compound holds at least two elements (one is written bare, none as zeros).
            matches!(m.types.get(*ty), Type::Struct(s) if s.packed && s.name.is_none())
                && elems.len() >= 2
                && elems.iter().all(|&e| simple(e))
        }
        _ => simple(init),
    }
}

impl Pass for FlattenGlobals {
    fn name(&self) -> &'static str {
        NAME
    }

    fn run(&self, m: &mut Module) -> Result<(), PassError> {
        // What the target cannot hold is refused before anything is made of it.
        let mut total = 0u64;
        for g in m.globals.iter().filter(|g| g.init.is_some()) {
            let size = m.types.alloc_size(g.value_ty).unwrap_or(0);
            total = total.saturating_add(size);
            if total > MAX_DATA {
                let (construct, size) = if size > MAX_DATA {
                    (format!("global @{}", g.props.name), size)
                } else {
                    ("the globals".to_string(), total)
                };
                return Err(PassError { pass: NAME, function: None, construct, message: too_much(size) });
            }
        }
        // Old address types of the globals whose type changes.
        let mut retyped: HashMap<GlobalId, TypeId> = HashMap::new();
        for gi in 0..m.globals.len() {
            let g = &m.globals[gi];
            let Some(init) = g.init else { continue };
            // `llvm.used` and the like are lists for the tools, not data; they stay arrays.
            if is_flat(m, init) || g.props.name.starts_with("llvm.") {
                continue;
            }
            let old_ty = g.value_ty;
            let mut flat = Flat::default();
            flat.put(m, init, old_ty).map_err(|e| PassError {
                pass: NAME,
                function: None,
                construct: format!("global @{}", m.globals[gi].props.name),
                message: e,
            })?;
            let (ty, c) = build(m, flat);
            if ty != old_ty {
                let old_ptr = m.pointer_type(old_ty, m.globals[gi].props.addr_space);
                retyped.insert(GlobalId(gi as u32), old_ptr);
                m.pointer_type(ty, 0);
            }
            let g = &mut m.globals[gi];
            g.value_ty = ty;
            g.init = Some(c);
        }
        if retyped.is_empty() || m.opaque_pointers {
            return Ok(());
        }
        // Typed pointers: an alias of a retyped global names it through a cast.
        let mut casts = HashMap::new();
        for (&g, &old_ptr) in &retyped {
            if let Some(c) = m.consts.find(&Const::Global(g)) {
                let e =
                    m.consts.intern(Const::Expr { ty: old_ptr, op: ExprOp::Cast(CastOp::Bitcast), operands: vec![c] });
                casts.insert(c, e);
            }
        }
        for a in 0..m.aliases.len() {
            m.aliases[a].aliasee = crate::util::remap_const(m, m.aliases[a].aliasee, &mut casts);
        }
        // Typed pointers: instructions that used a retyped global get a cast of it to its old
        // type right before them (the writer elides it).
        for f in crate::util::defined(m) {
            crate::util::rebuild(m, f, |m, id, out, _| {
                let mut kind = m.functions[f.0 as usize].inst(id).kind.clone();
                let mut uses = Vec::new();
                let mut in_expr = false;
                kind.for_each_value(|v| {
                    if let Value::Const(c) = v
                        && matches!(m.consts.get(c), Const::Expr { .. })
                    {
                        in_expr |= mentions(m, c, &retyped);
                    }
                    if let Value::Const(c) = v
                        && let Const::Global(g) = m.consts.get(c)
                        && let Some(&t) = retyped.get(g)
                        && !uses.contains(&(c, t))
                    {
                        uses.push((c, t));
                    }
                });
                if in_expr {
                    return Err(crate::util::error(
                        m,
                        NAME,
                        f,
                        id,
                        "a constant expression of a global whose type changes (expand-constant-expr runs first)",
                    ));
                }
                if !uses.is_empty() {
                    let mut map = HashMap::new();
                    for (c, t) in uses {
                        // A phi cannot have an instruction before it: it gets a constant cast.
                        let cast = if let InstKind::Phi { .. } = kind {
                            let e = Const::Expr { ty: t, op: ExprOp::Cast(CastOp::Bitcast), operands: vec![c] };
                            Value::Const(m.consts.intern(e))
                        } else {
                            out.emit(m, inst(InstKind::Cast { op: CastOp::Bitcast, val: Value::Const(c) }, t))
                        };
                        map.insert(Value::Const(c), cast);
                    }
                    kind.map_values(|v| map.get(&v).copied().unwrap_or(v));
                    m.functions[f.0 as usize].inst_mut(id).kind = kind;
                }
                out.keep(id);
                Ok(())
            })?;
        }
        Ok(())
    }
}

/// True if constant `c` is or contains (through constant expressions) a global of `retyped`.
fn mentions(m: &Module, c: ConstId, retyped: &HashMap<GlobalId, TypeId>) -> bool {
    match m.consts.get(c) {
        Const::Global(g) => retyped.contains_key(g),
        Const::Expr { operands, .. } => operands.iter().any(|&o| mentions(m, o, retyped)),
        _ => false,
    }
}
