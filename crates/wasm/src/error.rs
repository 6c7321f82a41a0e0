//! Why a module is not translated.

use std::fmt;

/// A construct the translator refuses, with the function and the instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The function's name (from the symbol table, or `@fN`); empty for the module.
    pub function: String,
    /// Where in it: the block and the instruction (`%b3: %v12 = extractelement`).
    pub at: String,
    /// What is wrong.
    pub why: String,
}

impl Refusal {
    /// A refusal of the module as a whole.
    pub fn module(why: impl Into<String>) -> Refusal {
        Refusal { function: String::new(), at: String::new(), why: why.into() }
    }

    /// A broken invariant of the translator, in the function being translated.
    pub(crate) fn internal(f: &crate::function::Func<'_, '_>, why: &str) -> Refusal {
        Refusal {
            function: f.env.names[f.f as usize].clone(),
            at: String::new(),
            why: format!("internal error: {why}"),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.function.is_empty(), self.at.is_empty()) {
            (true, _) => f.write_str(&self.why),
            (false, true) => write!(f, "function {}: {}", self.function, self.why),
            (false, false) => write!(f, "function {}: {}: {}", self.function, self.at, self.why),
        }
    }
}

impl std::error::Error for Refusal {}
