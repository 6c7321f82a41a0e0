//! How a run ends when it does not end with the guest's own status: the exit statuses
//! pnacl uses, and why a module could not be started.

/// Exit status when the guest traps.
pub const EXIT_TRAP: i32 = 134;
/// Exit status when the module cannot be loaded (unreadable, not ABI-clean, no `_start`).
pub const EXIT_LOAD_ERROR: i32 = 125;
/// Exit status when the pexe is a browser (PPAPI) application.
pub const EXIT_UNSUPPORTED: i32 = 126;

/// Why a module could not be started.
#[derive(Debug)]
pub enum LoadError {
    /// The ABI verifier found violations (the module is refused before translation).
    NotAbiClean(Vec<pnacl_verify::Diagnostic>),
    /// Anything else: no entry point, translation, the host refusing memory.
    Other(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotAbiClean(d) => write!(f, "not ABI-clean ({} violations); refusing to run it", d.len()),
            LoadError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<String> for LoadError {
    fn from(m: String) -> Self {
        LoadError::Other(m)
    }
}
