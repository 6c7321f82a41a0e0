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
    /// A browser (PPAPI) program: its data names the `nacl-irt-ppapihook` interface, which
    /// only a browser offers (refused before translation).
    Browser,
    /// Anything else: no entry point, translation, the host refusing memory.
    Other(String),
}

impl LoadError {
    /// The exit status `pnacl run` ends with: [`EXIT_UNSUPPORTED`] for a browser program,
    /// [`EXIT_LOAD_ERROR`] otherwise.
    pub fn exit_status(&self) -> i32 {
        match self {
            LoadError::Browser => EXIT_UNSUPPORTED,
            _ => EXIT_LOAD_ERROR,
        }
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotAbiClean(d) => write!(f, "not ABI-clean ({} violations); refusing to run it", d.len()),
            LoadError::Browser => f.write_str(
                "a browser (PPAPI) application: it uses the nacl-irt-ppapihook interface. pnacl runs \
                 command-line pexes only.",
            ),
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
