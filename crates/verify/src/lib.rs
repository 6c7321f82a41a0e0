//! The PNaCl ABI verifier.
//!
//! `pnacl-abi-stability.txt` makes the ABI verifier "the ultimate source of truth for what
//! is and what isn't part of the bitcode ABI". [`verify`] checks a [`Module`] read by
//! `pnacl-bitcode` (with [`ReadOptions::defer_abi`](pnacl_bitcode::ReadOptions), so that
//! the reader leaves the ABI rules to it) against every rule that can be seen in a pexe:
//! types and signatures, linkage and the entry point, the intrinsic whitelist, instruction
//! operand types and alignments, atomics' constant operands, call signatures. It returns
//! every violation, in a deterministic order, with its [`Rule`] and where it is; [`check`]
//! also returns the warnings (calls the module makes that are legal, but that `pnacl run`
//! has to treat specially).
//!
//! Function bodies are checked in parallel (rayon), one task per function; module-level
//! rules first, then functions in order, instructions in order within each.

mod function;
mod module;
mod rule;

pub use rule::Rule;

use pnacl_bitcode::Module;
use pnacl_bitcode::abi::{self, Intrinsic};
use pnacl_bitcode::ir::SsaCheck;
use pnacl_bitstream::BitPos;
use rayon::prelude::*;
use std::fmt;

/// Where a violation is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The module as a whole.
    Module,
    /// Type `@tN` of the types block.
    Type(u32),
    /// Global `@gN`.
    Global(u32),
    /// Function `@fN` (its declaration).
    Function(u32),
    /// An instruction of a function body.
    Instruction {
        /// The function, `@fN`.
        function: u32,
        /// Its basic block, `%bK`.
        block: u32,
        /// Its index among the body's instruction records.
        index: u32,
        /// The value it defines, `%vJ`, if it defines one.
        value: Option<u32>,
        /// Its opcode, for instructions that define no value.
        opcode: &'static str,
    },
}

/// One violation of a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule broken.
    pub rule: Rule,
    /// Where.
    pub location: Location,
    /// Bit position of the record at fault, when the module was read with positions.
    pub pos: Option<BitPos>,
    /// What is wrong, in the original tools' wording where they have one.
    pub message: String,
}

/// Checks a module; returns every violation (none for an ABI-clean module). Warnings are
/// left out: [`check`] returns them too.
pub fn verify(m: &Module) -> Vec<Diagnostic> {
    let mut d = check(m);
    d.retain(|d| !d.rule.is_warning());
    d
}

/// Checks a module; returns every violation and every warning ([`Rule::is_warning`]), in
/// one deterministic order.
pub fn check(m: &Module) -> Vec<Diagnostic> {
    let cx = Context::new(m);
    let mut out = module::check(&cx);
    let per_function: Vec<Vec<Diagnostic>> = m
        .functions
        .par_iter()
        .enumerate()
        .filter(|(_, func)| func.body.is_some())
        .map_init(SsaCheck::default, |ssa, (f, func)| {
            function::check(&cx, f as u32, func.body.as_ref().expect("filtered"), ssa)
        })
        .collect();
    out.extend(per_function.into_iter().flatten());
    out
}

/// Module facts every check needs.
pub(crate) struct Context<'m> {
    pub m: &'m Module,
    /// The whitelisted intrinsic each function's name designates, if any.
    pub intrinsics: Vec<Option<&'static Intrinsic>>,
    /// The function's name from the symbol table, if any.
    pub names: Vec<Option<&'m [u8]>>,
}

impl<'m> Context<'m> {
    fn new(m: &'m Module) -> Self {
        let table = m.names();
        let names: Vec<Option<&[u8]>> =
            (0..m.functions.len() as u32).map(|f| table.get(pnacl_bitcode::ir::ValueId(f))).collect();
        let intrinsics = names.iter().map(|n| n.and_then(abi::intrinsic)).collect();
        Context { m, intrinsics, names }
    }

    /// A function's name for messages: its symbol name, or `@fN`.
    pub fn function_name(&self, f: u32) -> String {
        match self.names.get(f as usize).copied().flatten() {
            Some(n) => String::from_utf8_lossy(n).into_owned(),
            None => format!("@f{f}"),
        }
    }

    /// True if `f` is named like an intrinsic (`llvm.*`), whitelisted or not.
    pub fn is_intrinsic_name(&self, f: u32) -> bool {
        self.names.get(f as usize).copied().flatten().is_some_and(abi::is_intrinsic_name)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Module => f.write_str("module"),
            Location::Type(t) => write!(f, "type @t{t}"),
            Location::Global(g) => write!(f, "global @g{g}"),
            Location::Function(n) => write!(f, "function @f{n}"),
            Location::Instruction { function, block, index, value, opcode } => match value {
                Some(v) => write!(f, "function @f{function}: block %b{block}: instruction %v{v}"),
                None => write!(f, "function @f{function}: block %b{block}: instruction #{index} ({opcode})"),
            },
        }
    }
}

impl Diagnostic {
    /// The diagnostic as one line, `function NAME (@fN): block %bK: instruction %vJ:
    /// message`, with names from the module's symbol table where it has them.
    pub fn describe(&self, m: &Module) -> String {
        let names = m.names();
        let function = |n: u32| match names.function(n) {
            Some(name) => format!("function {name} (@f{n})"),
            None => format!("function @f{n}"),
        };
        let global = |g: u32| {
            let id = pnacl_bitcode::ir::ValueId(m.functions.len() as u32 + g);
            match names.get(id) {
                Some(name) => format!("global {} (@g{g})", String::from_utf8_lossy(name)),
                None => format!("global @g{g}"),
            }
        };
        let place = match &self.location {
            Location::Module => "module".to_string(),
            Location::Type(t) => format!("type @t{t}"),
            Location::Global(g) => global(*g),
            Location::Function(n) => function(*n),
            Location::Instruction { function: n, block, index, value, opcode } => {
                let inst = match value {
                    Some(v) => format!("%v{v}"),
                    None => format!("#{index} ({opcode})"),
                };
                format!("{}: block %b{block}: instruction {inst}", function(*n))
            }
        };
        format!("{place}: {}", self.message)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.location, self.message, self.rule)
    }
}
