//! Names and strings as LLVM's text syntax spells them, and the numbering of unnamed values.

use crate::ir::{Function, InstId, Module, Type, Value};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Writes `name` as an identifier after its sigil: bare when LLVM's lexer allows, quoted
/// with `\XX` escapes otherwise.
pub(super) fn ident(out: &mut String, sigil: char, name: &str) {
    out.push(sigil);
    let bare = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_'));
    if bare {
        out.push_str(name);
    } else {
        quoted(out, name.as_bytes());
    }
}

/// Writes `bytes` as a quoted string, escaping what is not printable, `"` and `\`.
pub(super) fn quoted(out: &mut String, bytes: &[u8]) {
    out.push('"');
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
    out.push('"');
}

/// Numbers for unnamed module-level values: globals, then aliases, then functions (LLVM's
/// slot tracker order).
pub(super) struct ModuleSlots {
    pub globals: Vec<Option<u32>>,
    pub aliases: Vec<Option<u32>>,
    pub functions: Vec<Option<u32>>,
}

impl ModuleSlots {
    pub fn new(m: &Module) -> Self {
        let mut next = 0u32;
        let mut number = |name: &str| {
            name.is_empty().then(|| {
                next += 1;
                next - 1
            })
        };
        let globals = m.globals.iter().map(|g| number(&g.props.name)).collect();
        let aliases = m.aliases.iter().map(|a| number(&a.props.name)).collect();
        let functions = m.functions.iter().map(|f| number(&f.props.name)).collect();
        ModuleSlots { globals, aliases, functions }
    }
}

/// How each local value and block of a function is spelled: its name (made unique), or the
/// next number in LLVM's sequence (arguments, then blocks and instructions in order).
pub(super) struct LocalNames {
    pub params: Vec<String>,
    pub blocks: Vec<String>,
    pub insts: HashMap<InstId, String>,
}

impl LocalNames {
    pub fn new(m: &Module, f: &Function) -> Self {
        let mut next = 0u32;
        let mut used: HashSet<String> = HashSet::new();
        let mut spell = |name: &Option<String>, next: &mut u32| -> String {
            match name.as_deref().filter(|n| !n.is_empty()) {
                Some(n) => {
                    let mut s = String::new();
                    let mut candidate = n.to_string();
                    let mut k = 0;
                    while used.contains(&candidate) || candidate.bytes().all(|c| c.is_ascii_digit()) {
                        k += 1;
                        candidate = format!("{n}.{k}");
                    }
                    used.insert(candidate.clone());
                    ident(&mut s, '%', &candidate);
                    s
                }
                None => {
                    *next += 1;
                    format!("%{}", *next - 1)
                }
            }
        };
        let params = f.params.iter().map(|p| spell(&p.name, &mut next)).collect();
        let mut blocks = Vec::with_capacity(f.blocks.len());
        let mut insts = HashMap::new();
        for b in &f.blocks {
            blocks.push(spell(&b.name, &mut next));
            for &i in &b.insts {
                let inst = f.inst(i);
                if !matches!(m.types.get(inst.ty), Type::Void) {
                    insts.insert(i, spell(&inst.name, &mut next));
                }
            }
        }
        LocalNames { params, blocks, insts }
    }

    /// A local value's spelling.
    pub fn value(&self, v: Value) -> Option<&str> {
        match v {
            Value::Arg(i) => self.params.get(i as usize).map(String::as_str),
            Value::Inst(i) => self.insts.get(&i).map(String::as_str),
            _ => None,
        }
    }
}
