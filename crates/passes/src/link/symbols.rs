//! Symbol resolution: what becomes of each global value of the module being linked in, by
//! the rules of LLVM's `ModuleLinker::shouldLinkFromSource` (a definition wins over a
//! declaration, a strong definition over a weak or common one, the larger of two common
//! symbols wins, two strong definitions are an error), and the names of the result (an
//! external symbol takes its name from a local one that had it, which is renamed).

use super::LinkError;
use pnacl_llvm::ir::{AliasId, FuncId, GlobalId, GlobalProps, GlobalRef, Linkage, Module, UnnamedAddr, Visibility};
use std::collections::HashMap;

/// What becomes of one global value of the source module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    /// It is added to the destination as a new symbol.
    New,
    /// The destination's symbol stands for it; its own body or initializer, if any, is
    /// dropped.
    Existing(GlobalRef),
    /// It takes the place of the destination's symbol: a definition over a declaration, a
    /// strong definition over a weak one, a larger common symbol over a smaller one.
    Replaces(GlobalRef),
    /// Both are `appending` arrays (`llvm.global_ctors`, `llvm.used`): its elements are
    /// appended to the destination's.
    Appends(GlobalId),
}

/// The fate of every global value of the source, by kind and index.
pub(super) struct Plan {
    pub(super) functions: Vec<Fate>,
    pub(super) globals: Vec<Fate>,
    pub(super) aliases: Vec<Fate>,
}

/// The names of the destination's global values (a module's names are unique).
pub(super) struct Names(HashMap<String, GlobalRef>);

impl Names {
    /// The names of `m`.
    pub(super) fn of(m: &Module) -> Self {
        let mut names = HashMap::new();
        let refs = (0..m.functions.len() as u32)
            .map(|i| GlobalRef::Function(FuncId(i)))
            .chain((0..m.globals.len() as u32).map(|i| GlobalRef::Global(GlobalId(i))))
            .chain((0..m.aliases.len() as u32).map(|i| GlobalRef::Alias(AliasId(i))));
        for r in refs {
            let name = &m.props(r).name;
            if !name.is_empty() {
                names.entry(name.clone()).or_insert(r);
            }
        }
        Names(names)
    }

    /// The symbol called `name`, if any.
    pub(super) fn get(&self, name: &str) -> Option<GlobalRef> {
        self.0.get(name).copied()
    }

    /// Records that `r` is called `name`.
    pub(super) fn insert(&mut self, name: String, r: GlobalRef) {
        self.0.insert(name, r);
    }

    /// `base.N` with the first `N` from 1 that no symbol has.
    pub(super) fn fresh(&self, base: &str) -> String {
        (1u64..).map(|k| format!("{base}.{k}")).find(|n| !self.0.contains_key(n)).expect("a free name")
    }
}

/// A global value as the resolution rules see it.
struct Candidate<'a> {
    r: GlobalRef,
    props: &'a GlobalProps,
    declaration: bool,
    /// Bytes of a variable's value (for common symbols).
    size: u64,
}

fn candidate(m: &Module, r: GlobalRef) -> Candidate<'_> {
    let (declaration, size) = match r {
        GlobalRef::Function(f) => (m.functions[f.0 as usize].is_declaration(), 0),
        GlobalRef::Global(g) => {
            let g = &m.globals[g.0 as usize];
            (g.init.is_none(), m.types.alloc_size(g.value_ty).unwrap_or(0))
        }
        GlobalRef::Alias(_) => (false, 0),
    };
    Candidate { r, props: m.props(r), declaration, size }
}

/// `isWeakForLinker`: a definition another may replace, or a weak reference.
fn weak_for_linker(l: Linkage) -> bool {
    matches!(
        l,
        Linkage::WeakAny
            | Linkage::WeakOdr
            | Linkage::LinkOnceAny
            | Linkage::LinkOnceOdr
            | Linkage::Common
            | Linkage::ExternalWeak
    )
}

/// `isDeclarationForLinker`: a declaration, or a body kept only for inlining.
fn declaration_for_linker(c: &Candidate<'_>) -> bool {
    c.declaration || c.props.linkage == Linkage::AvailableExternally
}

fn kind(r: GlobalRef) -> &'static str {
    match r {
        GlobalRef::Function(_) => "a function",
        GlobalRef::Global(_) => "a variable",
        GlobalRef::Alias(_) => "an alias",
    }
}

/// The fate of `src`'s global value `s` against the destination's `d` of the same name.
fn decide(d: &Candidate<'_>, s: &Candidate<'_>) -> Result<Fate, LinkError> {
    let name = &s.props.name;
    let (dl, sl) = (d.props.linkage, s.props.linkage);
    if dl == Linkage::Appending || sl == Linkage::Appending {
        return match (d.r, s.r) {
            (GlobalRef::Global(g), GlobalRef::Global(_)) if dl == sl && !d.declaration && !s.declaration => {
                Ok(Fate::Appends(g))
            }
            _ => Err(LinkError(format!("@{name} is an appending array in one module and not in another"))),
        };
    }
    let variable_and_function = matches!(
        (d.r, s.r),
        (GlobalRef::Function(_), GlobalRef::Global(_)) | (GlobalRef::Global(_), GlobalRef::Function(_))
    );
    if variable_and_function {
        return Err(LinkError(format!("@{name} is {} in one module and {} in another", kind(s.r), kind(d.r))));
    }
    let from_src = if declaration_for_linker(s) {
        // A declaration adds nothing, unless it makes a weak reference strong or brings a
        // body for inlining to a bare declaration.
        dl == Linkage::ExternalWeak || (!s.declaration && d.declaration)
    } else if declaration_for_linker(d) {
        true
    } else if sl == Linkage::Common {
        match dl {
            Linkage::LinkOnceAny | Linkage::LinkOnceOdr | Linkage::WeakAny | Linkage::WeakOdr => true,
            Linkage::Common => s.size > d.size,
            _ => false,
        }
    } else if weak_for_linker(sl) {
        matches!(dl, Linkage::LinkOnceAny | Linkage::LinkOnceOdr) && matches!(sl, Linkage::WeakAny | Linkage::WeakOdr)
    } else if weak_for_linker(dl) {
        true
    } else {
        return Err(LinkError(format!("@{name} is defined twice")));
    };
    Ok(if from_src { Fate::Replaces(d.r) } else { Fate::Existing(d.r) })
}

/// The fate of every global value of `src`, linked into `dst` whose names are `names`.
pub(super) fn resolve(dst: &Module, src: &Module, names: &Names) -> Result<Plan, LinkError> {
    let fate = |r: GlobalRef| -> Result<Fate, LinkError> {
        let props = src.props(r);
        if props.linkage.is_local() || props.name.is_empty() {
            return Ok(Fate::New);
        }
        match names.get(&props.name) {
            Some(d) if !dst.props(d).linkage.is_local() => decide(&candidate(dst, d), &candidate(src, r)),
            _ => Ok(Fate::New),
        }
    };
    Ok(Plan {
        functions: (0..src.functions.len() as u32)
            .map(|i| fate(GlobalRef::Function(FuncId(i))))
            .collect::<Result<_, _>>()?,
        globals: (0..src.globals.len() as u32)
            .map(|i| fate(GlobalRef::Global(GlobalId(i))))
            .collect::<Result<_, _>>()?,
        aliases: (0..src.aliases.len() as u32).map(|i| fate(GlobalRef::Alias(AliasId(i)))).collect::<Result<_, _>>()?,
    })
}

/// The more restrictive of two visibilities (LLVM's `getMinVisibility`).
fn min_visibility(a: Visibility, b: Visibility) -> Visibility {
    match (a, b) {
        (Visibility::Hidden, _) | (_, Visibility::Hidden) => Visibility::Hidden,
        (Visibility::Protected, _) | (_, Visibility::Protected) => Visibility::Protected,
        _ => Visibility::Default,
    }
}

/// The weaker of two `unnamed_addr` promises (LLVM's `getMinUnnamedAddr`).
fn min_unnamed_addr(a: UnnamedAddr, b: UnnamedAddr) -> UnnamedAddr {
    match (a, b) {
        (UnnamedAddr::None, _) | (_, UnnamedAddr::None) => UnnamedAddr::None,
        (UnnamedAddr::Local, _) | (_, UnnamedAddr::Local) => UnnamedAddr::Local,
        _ => UnnamedAddr::Global,
    }
}

/// The properties of the symbol two linked ones become: the winner's, with the more
/// restrictive visibility, the weaker `unnamed_addr`, and the larger alignment (LLVM takes
/// the larger only for two common symbols; a larger one is never wrong, and code compiled
/// against a declaration may rely on the alignment it states).
pub(super) fn merged_props(winner: &GlobalProps, other: &GlobalProps) -> GlobalProps {
    GlobalProps {
        visibility: min_visibility(winner.visibility, other.visibility),
        unnamed_addr: min_unnamed_addr(winner.unnamed_addr, other.unnamed_addr),
        align: winner.align.max(other.align),
        ..winner.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(linkage: Linkage, align: u32) -> GlobalProps {
        GlobalProps { name: "x".into(), linkage, align, ..Default::default() }
    }

    /// The fate of a source variable (`src`: linkage, declaration, size) against the
    /// destination's.
    fn fate(dst: (Linkage, bool, u64), src: (Linkage, bool, u64)) -> Result<Fate, LinkError> {
        let (dp, sp) = (props(dst.0, 0), props(src.0, 0));
        let d = Candidate { r: GlobalRef::Global(GlobalId(0)), props: &dp, declaration: dst.1, size: dst.2 };
        let s = Candidate { r: GlobalRef::Global(GlobalId(1)), props: &sp, declaration: src.1, size: src.2 };
        decide(&d, &s)
    }

    #[test]
    fn resolution_follows_llvm() {
        use Linkage::*;
        let existing = Ok(Fate::Existing(GlobalRef::Global(GlobalId(0))));
        let replaces = Ok(Fate::Replaces(GlobalRef::Global(GlobalId(0))));
        // A definition over a declaration, either way round.
        assert_eq!(fate((External, true, 0), (External, false, 4)), replaces);
        assert_eq!(fate((External, false, 4), (External, true, 0)), existing);
        // A strong definition over a weak or common one, either way round.
        assert_eq!(fate((WeakAny, false, 4), (External, false, 4)), replaces);
        assert_eq!(fate((External, false, 4), (WeakAny, false, 4)), existing);
        assert_eq!(fate((Common, false, 64), (External, false, 4)), replaces);
        assert_eq!(fate((External, false, 4), (Common, false, 64)), existing);
        // Of two weak definitions the first stays, except a weak one over a linkonce one.
        assert_eq!(fate((WeakAny, false, 4), (WeakAny, false, 4)), existing);
        assert_eq!(fate((LinkOnceOdr, false, 4), (WeakOdr, false, 4)), replaces);
        // Of two common symbols the larger, the first if equal.
        assert_eq!(fate((Common, false, 16), (Common, false, 64)), replaces);
        assert_eq!(fate((Common, false, 64), (Common, false, 16)), existing);
        assert_eq!(fate((Common, false, 16), (Common, false, 16)), existing);
        // A weak reference made strong by a declaration; a body for inlining over a declaration.
        assert_eq!(fate((ExternalWeak, true, 0), (External, true, 0)), replaces);
        assert_eq!(fate((External, true, 0), (ExternalWeak, true, 0)), existing);
        assert_eq!(fate((External, true, 0), (AvailableExternally, false, 4)), replaces);
        assert_eq!(fate((AvailableExternally, false, 4), (External, false, 4)), replaces);
        // Two strong definitions; an appending array against another array.
        assert!(fate((External, false, 4), (External, false, 4)).is_err());
        assert!(fate((Appending, false, 4), (External, false, 4)).is_err());
        assert_eq!(fate((Appending, false, 4), (Appending, false, 4)), Ok(Fate::Appends(GlobalId(0))));
    }

    #[test]
    fn merged_properties_keep_the_larger_alignment_and_stricter_visibility() {
        let mut winner = props(Linkage::External, 4);
        winner.visibility = Visibility::Default;
        winner.unnamed_addr = UnnamedAddr::Global;
        let mut other = props(Linkage::External, 32);
        other.visibility = Visibility::Hidden;
        other.unnamed_addr = UnnamedAddr::None;
        let m = merged_props(&winner, &other);
        assert_eq!((m.align, m.visibility, m.unnamed_addr), (32, Visibility::Hidden, UnnamedAddr::None));
        assert_eq!(m.linkage, Linkage::External);
    }
}
