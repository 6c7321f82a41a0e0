//! The type mapper: how the types of a module being linked in become types of the
//! destination, as LLVM's IR linker (`IRMover`'s `TypeMapTy`) does it.
//!
//! Types are structural: a named struct of the source is the destination's struct with the
//! same body (field types mapped, recursively), whatever either is called. Names only
//! propose pairs: a source struct is tried against the destination's struct of the same
//! name (or, for `%T.3`, of `%T`), and against the types of the symbols it links to; a pair
//! is kept only when the two are isomorphic. An opaque struct takes the body it is paired
//! with; a source struct that matches nothing is copied, under its own name or, when the
//! destination already uses that name for another body, under a numbered one
//! (`%struct.anon.0`), as LLVM's context renames it. Recursive structs are followed through
//! a speculative mapping that is rolled back when the pairing fails.

use pnacl_llvm::ir::{StructType, Type, TypeId, Types};
use std::collections::{HashMap, HashSet};

/// Maps the types of one source module into the destination's table.
pub(super) struct TypeMapper {
    /// Source type to destination type, for every type decided so far.
    mapped: HashMap<TypeId, TypeId>,
    /// Source types mapped by the pairing in progress (undone if it fails).
    speculative: Vec<TypeId>,
    /// Opaque destination structs the pairing in progress gives a body to.
    speculative_dst_opaque: Vec<TypeId>,
    /// Opaque destination structs already promised a source body (only one may be).
    dst_resolved_opaque: HashSet<TypeId>,
    /// Source definitions whose bodies opaque destination structs take, once all pairs
    /// are known.
    definitions_to_resolve: Vec<TypeId>,
    /// The destination's named structs with a body, by body.
    by_body: HashMap<(Vec<TypeId>, bool), TypeId>,
    /// The destination's named structs, by name.
    by_name: HashMap<String, TypeId>,
    /// Source named structs being mapped by [`TypeMapper::get`] (a second visit is a cycle).
    visiting: HashSet<TypeId>,
}

/// The suffix LLVM's context numbers renamed structs with: `%T.12` is a renamed `%T`.
fn name_prefix(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((prefix, digits)) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => prefix,
        _ => name,
    }
}

impl TypeMapper {
    /// A mapper into `dst`, indexing its named structs.
    pub(super) fn new(dst: &Types) -> Self {
        let mut mapper = TypeMapper {
            mapped: HashMap::new(),
            speculative: Vec::new(),
            speculative_dst_opaque: Vec::new(),
            dst_resolved_opaque: HashSet::new(),
            definitions_to_resolve: Vec::new(),
            by_body: HashMap::new(),
            by_name: HashMap::new(),
            visiting: HashSet::new(),
        };
        for id in dst.ids() {
            if let Type::Struct(s) = dst.get(id)
                && let Some(name) = &s.name
            {
                mapper.by_name.entry(name.clone()).or_insert(id);
                if !s.opaque {
                    mapper.by_body.entry((s.fields.clone(), s.packed)).or_insert(id);
                }
            }
        }
        mapper
    }

    /// Pairs destination type `d` with source type `s` if they are isomorphic (LLVM's
    /// `addTypeMapping`); otherwise leaves every mapping as it was.
    pub(super) fn add_mapping(&mut self, dst: &Types, src: &Types, d: TypeId, s: TypeId) {
        debug_assert!(self.speculative.is_empty() && self.speculative_dst_opaque.is_empty());
        if !self.isomorphic(dst, src, d, s) {
            for t in self.speculative.drain(..) {
                self.mapped.remove(&t);
            }
            let keep = self.definitions_to_resolve.len() - self.speculative_dst_opaque.len();
            self.definitions_to_resolve.truncate(keep);
            for t in self.speculative_dst_opaque.drain(..) {
                self.dst_resolved_opaque.remove(&t);
            }
        }
        self.speculative.clear();
        self.speculative_dst_opaque.clear();
    }

    /// Pairs each named struct of `src` with the destination's struct of the same name (or
    /// of the name without LLVM's `.N` suffix), when they are isomorphic: how an opaque
    /// declaration meets its definition, and same-named identical types stay one.
    pub(super) fn add_mappings_by_name(&mut self, dst: &Types, src: &Types) {
        for s in src.ids() {
            let Type::Struct(StructType { name: Some(name), .. }) = src.get(s) else { continue };
            let found = self.by_name.get(name.as_str()).or_else(|| self.by_name.get(name_prefix(name)));
            if let Some(&d) = found {
                self.add_mapping(dst, src, d, s);
            }
        }
    }

    /// Gives the opaque destination structs paired with source definitions their mapped
    /// bodies (LLVM's `linkDefinedTypeBodies`).
    pub(super) fn link_defined_bodies(&mut self, dst: &mut Types, src: &Types) {
        for s in std::mem::take(&mut self.definitions_to_resolve) {
            let d = self.mapped[&s];
            let Type::Struct(body) = src.get(s) else { continue };
            let (fields, packed) = (body.fields.clone(), body.packed);
            let fields: Vec<TypeId> = fields.into_iter().map(|f| self.get(dst, src, f)).collect();
            self.by_body.entry((fields.clone(), packed)).or_insert(d);
            dst.set_struct_body(d, fields, packed);
        }
        self.dst_resolved_opaque.clear();
    }

    /// LLVM's `areTypesIsomorphic`: could `s` be `d`? Records speculative mappings on the
    /// way (a cycle through a named struct then finds its own speculation).
    fn isomorphic(&mut self, dst: &Types, src: &Types, d: TypeId, s: TypeId) -> bool {
        let (dt, st) = (dst.get(d), src.get(s));
        if std::mem::discriminant(dt) != std::mem::discriminant(st) {
            return false;
        }
        if let Some(&e) = self.mapped.get(&s) {
            return e == d;
        }
        let pairs: Vec<(TypeId, TypeId)> = match (dt, st) {
            (Type::Struct(ds), Type::Struct(ss)) => {
                if ss.name.is_some() && ss.opaque {
                    // An opaque source struct takes whatever struct it meets.
                    self.speculate(s, d);
                    return true;
                }
                if ds.name.is_some() && ds.opaque {
                    if ss.name.is_none() || !self.dst_resolved_opaque.insert(d) {
                        return false;
                    }
                    self.definitions_to_resolve.push(s);
                    self.speculative_dst_opaque.push(d);
                    self.speculate(s, d);
                    return true;
                }
                if ds.name.is_some() != ss.name.is_some()
                    || ds.packed != ss.packed
                    || ds.fields.len() != ss.fields.len()
                {
                    return false;
                }
                ds.fields.iter().copied().zip(ss.fields.iter().copied()).collect()
            }
            (Type::Pointer { pointee: dp, addr_space: da }, Type::Pointer { pointee: sp, addr_space: sa }) => {
                match (dp, sp) {
                    _ if da != sa => return false,
                    (None, None) => return true,
                    (Some(dp), Some(sp)) => vec![(*dp, *sp)],
                    _ => return false,
                }
            }
            (Type::Array { len: dl, elem: de }, Type::Array { len: sl, elem: se }) if dl == sl => vec![(*de, *se)],
            (Type::Vector { len: dl, elem: de, scalable: dsc }, Type::Vector { len: sl, elem: se, scalable: ssc })
                if dl == sl && dsc == ssc =>
            {
                vec![(*de, *se)]
            }
            (
                Type::Function { ret: dr, params: dps, vararg: dv },
                Type::Function { ret: sr, params: sps, vararg: sv },
            ) if dv == sv && dps.len() == sps.len() => {
                std::iter::once((*dr, *sr)).chain(dps.iter().copied().zip(sps.iter().copied())).collect()
            }
            (Type::Array { .. } | Type::Vector { .. } | Type::Function { .. }, _) => return false,
            // Types without contained types: isomorphic when equal (an integer's width).
            _ => return dt == st,
        };
        self.speculate(s, d);
        pairs.into_iter().all(|(dc, sc)| self.isomorphic(dst, src, dc, sc))
    }

    fn speculate(&mut self, s: TypeId, d: TypeId) {
        self.mapped.insert(s, d);
        self.speculative.push(s);
    }

    /// The destination type for source type `s` (LLVM's `TypeMapTy::get`): a paired type,
    /// an existing struct with the same body, or a new one.
    pub(super) fn get(&mut self, dst: &mut Types, src: &Types, s: TypeId) -> TypeId {
        if let Some(&d) = self.mapped.get(&s) {
            return d;
        }
        let d = match src.get(s) {
            Type::Struct(st) if st.name.is_some() => return self.get_named(dst, src, s),
            Type::Struct(st) => {
                let fields = st.fields.iter().map(|&f| self.get(dst, src, f)).collect();
                Type::Struct(StructType { name: None, fields, packed: st.packed, opaque: false })
            }
            Type::Pointer { pointee, addr_space } => {
                Type::Pointer { pointee: pointee.map(|p| self.get(dst, src, p)), addr_space: *addr_space }
            }
            Type::Array { len, elem } => Type::Array { len: *len, elem: self.get(dst, src, *elem) },
            Type::Vector { len, elem, scalable } => {
                Type::Vector { len: *len, elem: self.get(dst, src, *elem), scalable: *scalable }
            }
            Type::Function { ret, params, vararg } => {
                let params = params.clone();
                let ret = self.get(dst, src, *ret);
                let params = params.into_iter().map(|p| self.get(dst, src, p)).collect();
                Type::Function { ret, params, vararg: *vararg }
            }
            other => other.clone(),
        };
        let d = dst.intern(d);
        self.mapped.insert(s, d);
        d
    }

    fn get_named(&mut self, dst: &mut Types, src: &Types, s: TypeId) -> TypeId {
        let Type::Struct(st) = src.get(s) else { unreachable!("a named struct") };
        let name = st.name.clone().expect("a named struct");
        if !self.visiting.insert(s) {
            // A cycle: the struct being mapped refers to itself. Its copy is made now and
            // given its body when the outer visit has mapped the fields.
            let d = self.new_struct(dst, &name);
            self.mapped.insert(s, d);
            return d;
        }
        if st.opaque {
            let d = self.new_struct(dst, &name);
            self.mapped.insert(s, d);
            return d;
        }
        let (fields, packed) = (st.fields.clone(), st.packed);
        let fields: Vec<TypeId> = fields.into_iter().map(|f| self.get(dst, src, f)).collect();
        if let Some(&d) = self.mapped.get(&s) {
            // Made by a cycle while the fields were mapped.
            if matches!(dst.get(d), Type::Struct(x) if x.opaque) {
                self.by_body.entry((fields.clone(), packed)).or_insert(d);
                dst.set_struct_body(d, fields, packed);
            }
            return d;
        }
        let key = (fields, packed);
        if let Some(&d) = self.by_body.get(&key) {
            self.mapped.insert(s, d);
            return d;
        }
        let d = self.new_struct(dst, &name);
        dst.set_struct_body(d, key.0.clone(), packed);
        self.by_body.insert(key, d);
        self.mapped.insert(s, d);
        d
    }

    /// A new opaque named struct in `dst`, called `name` if that is free, or `name.N` with
    /// the first free `N` otherwise.
    fn new_struct(&mut self, dst: &mut Types, name: &str) -> TypeId {
        let name = if self.by_name.contains_key(name) {
            (0u64..).map(|k| format!("{name}.{k}")).find(|n| !self.by_name.contains_key(n)).expect("a free name")
        } else {
            name.to_string()
        };
        let d = dst.named_struct(name.clone());
        self.by_name.insert(name, d);
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(t: &mut Types, name: &str, fields: Vec<TypeId>) -> TypeId {
        let id = t.named_struct(name);
        t.set_struct_body(id, fields, false);
        id
    }

    #[test]
    fn same_name_different_body_is_renamed_same_body_is_shared() {
        let mut dst = Types::new();
        let i32d = dst.int(32);
        let sd = named(&mut dst, "struct.S", vec![i32d, i32d]);
        let mut src = Types::new();
        let (i8s, f64s, i32s) = (src.int(8), src.double(), src.int(32));
        let other = named(&mut src, "struct.S", vec![i8s, f64s]);
        let same = named(&mut src, "struct.T", vec![i32s, i32s]);
        let mut m = TypeMapper::new(&dst);
        m.add_mappings_by_name(&dst, &src);
        m.link_defined_bodies(&mut dst, &src);
        let o = m.get(&mut dst, &src, other);
        assert_ne!(o, sd);
        assert!(matches!(dst.get(o), Type::Struct(s) if s.name.as_deref() == Some("struct.S.0")));
        assert_eq!(dst.alloc_size(o), Some(16));
        assert_eq!(m.get(&mut dst, &src, same), sd, "an identical body is the same type, whatever its name");
    }

    #[test]
    fn recursive_structs_pair_or_copy() {
        // %struct.node = { %struct.node*, i32 } in both: one type.
        let mut dst = Types::new();
        let i32d = dst.int(32);
        let nd = dst.named_struct("struct.node");
        let pd = dst.pointer_to(nd);
        dst.set_struct_body(nd, vec![pd, i32d], false);
        let mut src = Types::new();
        let i32s = src.int(32);
        let ns = src.named_struct("struct.node");
        let ps = src.pointer_to(ns);
        src.set_struct_body(ns, vec![ps, i32s], false);
        // %struct.list = { %struct.list*, %struct.list*, i8 } exists only in the source.
        let i8s = src.int(8);
        let ls = src.named_struct("struct.node.7");
        let lp = src.pointer_to(ls);
        src.set_struct_body(ls, vec![lp, lp, i8s], false);
        let mut m = TypeMapper::new(&dst);
        m.add_mappings_by_name(&dst, &src);
        m.link_defined_bodies(&mut dst, &src);
        assert_eq!(m.get(&mut dst, &src, ns), nd);
        let l = m.get(&mut dst, &src, ls);
        let Type::Struct(body) = dst.get(l).clone() else { panic!("a struct") };
        assert_eq!(body.fields.len(), 3);
        assert_eq!(dst.pointee(body.fields[0]), Some(l), "the copy refers to itself");
        assert_eq!(body.name.as_deref(), Some("struct.node.7"));
    }

    #[test]
    fn opaque_meets_definition_both_ways() {
        let mut dst = Types::new();
        let od = dst.named_struct("struct.T");
        let i32d = dst.int(32);
        let defd = named(&mut dst, "struct.U", vec![i32d]);
        let mut src = Types::new();
        let i64s = src.int(64);
        let defs = named(&mut src, "struct.T", vec![i64s, i64s]);
        let ous = src.named_struct("struct.U");
        let mut m = TypeMapper::new(&dst);
        m.add_mappings_by_name(&dst, &src);
        m.link_defined_bodies(&mut dst, &src);
        assert_eq!(m.get(&mut dst, &src, defs), od);
        assert_eq!(dst.alloc_size(od), Some(16), "the destination's opaque struct took the body");
        assert_eq!(m.get(&mut dst, &src, ous), defd);
    }

    #[test]
    fn failed_pairing_is_rolled_back() {
        // Pairing { %A*, i8 } with { %B*, i16 } fails after %B speculatively met %A.
        let mut dst = Types::new();
        let (i8d, i32d) = (dst.int(8), dst.int(32));
        let ad = named(&mut dst, "struct.A", vec![i32d]);
        let apd = dst.pointer_to(ad);
        let outer_d = named(&mut dst, "struct.O", vec![apd, i8d]);
        let mut src = Types::new();
        let (i16s, i32s) = (src.int(16), src.int(32));
        let bs = named(&mut src, "struct.B", vec![i32s]);
        let bps = src.pointer_to(bs);
        let outer_s = named(&mut src, "struct.O", vec![bps, i16s]);
        let mut m = TypeMapper::new(&dst);
        m.add_mapping(&dst, &src, outer_d, outer_s);
        assert!(m.mapped.is_empty(), "nothing stays mapped: {:?}", m.mapped);
        assert_eq!(m.get(&mut dst, &src, bs), ad, "%B has %A's body: the same type");
        let o = m.get(&mut dst, &src, outer_s);
        assert_ne!(o, outer_d);
        assert!(matches!(dst.get(o), Type::Struct(s) if s.name.as_deref() == Some("struct.O.0")));
    }
}
