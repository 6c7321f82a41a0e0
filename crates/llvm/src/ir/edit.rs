//! Editing a module: removing functions, globals and aliases, which renumbers the rest.

use super::constants::{Const, Consts};
use super::module::{AliasId, FuncId, GlobalId, GlobalRef, Module};

impl Consts {
    /// Rewrites every constant with `f`, keeping ids (the uniquing map is rebuilt).
    pub fn rewrite(&mut self, mut f: impl FnMut(&Const) -> Option<Const>) {
        let mut list = Vec::with_capacity(self.len());
        for i in 0..self.len() {
            let c = self.get(super::ConstId(i as u32));
            list.push(f(c).unwrap_or_else(|| c.clone()));
        }
        *self = Consts::from_list(list);
    }
}

/// Keeps the items of `list` that `keep` accepts; each old index's new one, if kept.
fn retain_indexed<T>(list: &mut Vec<T>, mut keep: impl FnMut(u32, &T) -> bool) -> Vec<Option<u32>> {
    let mut map = Vec::with_capacity(list.len());
    let mut next = 0u32;
    let mut kept = Vec::with_capacity(list.len());
    for (i, item) in std::mem::take(list).into_iter().enumerate() {
        if keep(i as u32, &item) {
            map.push(Some(next));
            next += 1;
            kept.push(item);
        } else {
            map.push(None);
        }
    }
    *list = kept;
    map
}

/// Renumbers the entries of `order` that `index` selects by `map`, dropping removed ones.
fn renumber(order: &mut Vec<GlobalRef>, map: &[Option<u32>], index: impl Fn(&mut GlobalRef) -> Option<&mut u32>) {
    order.retain_mut(|r| match index(r) {
        Some(i) => match map[*i as usize] {
            Some(n) => {
                *i = n;
                true
            }
            None => false,
        },
        None => true,
    });
}

impl Module {
    /// Removes the functions `keep` rejects, renumbering the others. Constants that named a
    /// removed function become `undef` of its pointer type; the caller must have removed
    /// their uses.
    pub fn retain_functions(&mut self, mut keep: impl FnMut(FuncId, &super::Function) -> bool) {
        let map = retain_indexed(&mut self.functions, |i, f| keep(FuncId(i), f));
        let undef = self.types.opaque_pointer();
        self.consts.rewrite(|c| match *c {
            Const::Function(f) => Some(match map[f.0 as usize] {
                Some(n) => Const::Function(FuncId(n)),
                None => Const::Undef(undef),
            }),
            Const::BlockAddress { ty, func, block } => Some(match map[func.0 as usize] {
                Some(n) => Const::BlockAddress { ty, func: FuncId(n), block },
                None => Const::Undef(ty),
            }),
            _ => None,
        });
        renumber(&mut self.name_order, &map, |r| match r {
            GlobalRef::Function(f) => Some(&mut f.0),
            _ => None,
        });
    }

    /// Removes the global variables `keep` rejects, renumbering the others (see
    /// [`Module::retain_functions`]).
    pub fn retain_globals(&mut self, mut keep: impl FnMut(GlobalId, &super::GlobalVar) -> bool) {
        let map = retain_indexed(&mut self.globals, |i, g| keep(GlobalId(i), g));
        let undef = self.types.opaque_pointer();
        self.consts.rewrite(|c| match *c {
            Const::Global(g) => Some(map[g.0 as usize].map_or(Const::Undef(undef), |n| Const::Global(GlobalId(n)))),
            _ => None,
        });
        renumber(&mut self.name_order, &map, |r| match r {
            GlobalRef::Global(g) => Some(&mut g.0),
            _ => None,
        });
    }

    /// Removes the aliases `keep` rejects, renumbering the others (see
    /// [`Module::retain_functions`]).
    pub fn retain_aliases(&mut self, mut keep: impl FnMut(AliasId, &super::Alias) -> bool) {
        let map = retain_indexed(&mut self.aliases, |i, a| keep(AliasId(i), a));
        let undef = self.types.opaque_pointer();
        self.consts.rewrite(|c| match *c {
            Const::Alias(a) => Some(map[a.0 as usize].map_or(Const::Undef(undef), |n| Const::Alias(AliasId(n)))),
            _ => None,
        });
        renumber(&mut self.name_order, &map, |r| match r {
            GlobalRef::Alias(a) => Some(&mut a.0),
            _ => None,
        });
    }
}

impl super::Function {
    /// Replaces every use of `old` by `new` in the function's live and dead instructions.
    pub fn replace_all_uses(&mut self, old: super::Value, new: super::Value) {
        for inst in &mut self.insts {
            inst.kind.map_values(|v| if v == old { new } else { v });
        }
    }

    /// Replaces every use of the values `map` has keys for, in one walk.
    pub fn replace_uses(&mut self, map: &std::collections::HashMap<super::Value, super::Value>) {
        if map.is_empty() {
            return;
        }
        // Replacements chain (a value replaced by one that is itself replaced): follow each
        // to its end, bounded so that a cycle cannot hang.
        let resolved: std::collections::HashMap<super::Value, super::Value> = map
            .iter()
            .map(|(&k, &v)| {
                let mut end = v;
                for _ in 0..map.len() {
                    match map.get(&end) {
                        Some(&next) if next != end && next != k => end = next,
                        _ => break,
                    }
                }
                (k, end)
            })
            .collect();
        let map = &resolved;
        // An instruction that replaces a value is usually built from that value (a cast of
        // it): that one use stays, or the instruction would read itself.
        let mut replaces: std::collections::HashMap<super::InstId, Vec<super::Value>> = Default::default();
        for (k, v) in map {
            if let super::Value::Inst(i) = v {
                replaces.entry(*i).or_default().push(*k);
            }
        }
        for (id, inst) in self.insts.iter_mut().enumerate() {
            let own = replaces.get(&super::InstId(id as u32));
            inst.kind.map_values(|v| match map.get(&v) {
                Some(_) if own.is_some_and(|o| o.contains(&v)) => v,
                Some(&r) => r,
                None => v,
            });
        }
    }

    /// Where instruction `id` is: its block and its index there.
    pub fn position(&self, id: super::InstId) -> Option<(super::BlockId, usize)> {
        self.blocks
            .iter()
            .enumerate()
            .find_map(|(b, blk)| blk.insts.iter().position(|&i| i == id).map(|at| (super::BlockId(b as u32), at)))
    }

    /// Adds `inst` to the arena and puts it in block `block` at index `at`.
    pub fn insert(&mut self, block: super::BlockId, at: usize, inst: super::Inst) -> super::InstId {
        let id = self.add_inst(inst);
        self.blocks[block.0 as usize].insts.insert(at, id);
        id
    }

    /// Adds `inst` right before instruction `before` (which must be live).
    ///
    /// # Panics
    /// If `before` is in no block.
    pub fn insert_before(&mut self, before: super::InstId, inst: super::Inst) -> super::InstId {
        let (b, at) = self.position(before).expect("insert_before: instruction is in no block");
        self.insert(b, at, inst)
    }

    /// Takes instruction `id` out of its block (its arena slot stays, dead).
    pub fn remove(&mut self, id: super::InstId) {
        for blk in &mut self.blocks {
            if let Some(at) = blk.insts.iter().position(|&i| i == id) {
                blk.insts.remove(at);
                return;
            }
        }
    }

    /// The number of live uses of each instruction, by arena index.
    pub fn use_counts(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.insts.len()];
        for (_, id) in self.layout() {
            self.inst(id).kind.for_each_value(|v| {
                if let super::Value::Inst(i) = v
                    && let Some(c) = counts.get_mut(i.0 as usize)
                {
                    *c += 1;
                }
            });
        }
        counts
    }
}

impl Module {
    /// Replaces every use of the constants `map` has keys for (instruction operands, switch
    /// cases, other constants' operands, initializers, aliasees, personalities), then merges
    /// constants that became equal, as LLVM's uniquing would have made them one.
    pub fn replace_constants(&mut self, map: &std::collections::HashMap<super::ConstId, super::ConstId>) {
        use super::ConstId;
        if map.is_empty() {
            return;
        }
        let n = self.consts.len();
        let mut canon: Vec<ConstId> = (0..n as u32).map(ConstId).collect();
        for (&from, &to) in map {
            canon[from.0 as usize] = to;
        }
        let resolve = |canon: &Vec<ConstId>, mut c: ConstId| {
            let mut steps = 0;
            while canon[c.0 as usize] != c && steps < n {
                c = canon[c.0 as usize];
                steps += 1;
            }
            c
        };
        // Rewrite operands until no two constants are equal any more.
        loop {
            let mut changed = false;
            let mut seen: std::collections::HashMap<Const, ConstId> = std::collections::HashMap::new();
            let mut list = Vec::with_capacity(n);
            for i in 0..n {
                let id = ConstId(i as u32);
                let mut c = self.consts.get(id).clone();
                match &mut c {
                    Const::Aggregate { elems: ops, .. } | Const::Expr { operands: ops, .. } => {
                        for op in ops.iter_mut() {
                            let r = resolve(&canon, *op);
                            if r != *op {
                                *op = r;
                                changed = true;
                            }
                        }
                    }
                    _ => {}
                }
                if resolve(&canon, id) == id {
                    match seen.get(&c) {
                        Some(&first) => {
                            canon[i] = first;
                            changed = true;
                        }
                        None => {
                            seen.insert(c.clone(), id);
                        }
                    }
                }
                list.push(c);
            }
            self.consts = Consts::from_list(list);
            if !changed {
                break;
            }
        }
        let canon: Vec<ConstId> = (0..n as u32).map(|i| resolve(&canon, ConstId(i))).collect();
        let remap = |c: ConstId| canon[c.0 as usize];
        for g in &mut self.globals {
            g.init = g.init.map(remap);
        }
        for a in &mut self.aliases {
            a.aliasee = remap(a.aliasee);
        }
        for f in &mut self.functions {
            f.personality = f.personality.map(remap);
            for inst in &mut f.insts {
                inst.kind.map_values(|v| match v {
                    super::Value::Const(c) => super::Value::Const(remap(c)),
                    other => other,
                });
                if let super::InstKind::Switch { cases, .. } = &mut inst.kind {
                    for case in cases {
                        case.0 = remap(case.0);
                    }
                }
                if let super::InstKind::LandingPad { clauses, .. } = &mut inst.kind {
                    for cl in clauses {
                        match cl {
                            super::Clause::Catch(c) | super::Clause::Filter(c) => *c = remap(*c),
                        }
                    }
                }
            }
        }
    }
}
