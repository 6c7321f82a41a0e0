//! Why a module cannot be frozen.

use std::fmt;

/// Why one construct has no PNaCl encoding. Messages of pnacl-freeze's own refusals are
/// kept word for word (`NaCl Illegal instruction`, `Invalid linkage`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The reason.
    pub reason: String,
}

impl Refusal {
    /// A refusal with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal { reason: reason.into() }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// A module the PNaCl writer cannot express, with where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FreezeError {
    /// An instruction, an argument or a function header of a function.
    #[error("function @{function}: {what}: {reason}")]
    Function {
        /// The function's name.
        function: String,
        /// The construct: the instruction as LLVM IR, or "the function's signature".
        what: String,
        /// Why.
        reason: String,
    },
    /// A global variable.
    #[error("global @{global}: {reason}")]
    Global {
        /// The global's name.
        global: String,
        /// Why.
        reason: String,
    },
    /// The module as a whole.
    #[error("{0}")]
    Module(String),
}
