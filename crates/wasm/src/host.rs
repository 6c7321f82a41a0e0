//! The JavaScript host, embedded: `pnacl wasm` writes these files beside the module.

/// The host's files: (path relative to the host folder, contents).
pub const HOST_FILES: &[(&str, &str)] = &[];
