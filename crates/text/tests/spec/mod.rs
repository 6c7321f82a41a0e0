//! The listings of the PNaCl bitcode reference, `pnacl-bitcode-files.txt`: extraction,
//! classification and embedding into complete modules.
//!
//! The reference shows `pnacl-bcdis` output in three columns, `ADDRESS|RECORD|ASSEMBLY`,
//! where ADDRESS is the bit position `byte:bit` of the record in the file (header
//! included). Most listings are fragments of a module. [`listings`] extracts them from the
//! spec file at run time; [`embed`] wraps a fragment in the smallest complete module that
//! puts each of its records at the address written on it; [`check`] assembles an embedding
//! and compares every record of the fragment with what the bitstream cursor reads there.
//!
//! Usage from a test file: `mod spec;` then `spec::listings()`, `spec::embed(&listing)`.

#![allow(dead_code)]

pub mod check;
pub mod embed;
pub mod embedding;
pub mod errata;
pub mod listing;
pub mod types;

#[allow(unused_imports)]
pub use check::{Report, check};
#[allow(unused_imports)]
pub use embed::embed;
#[allow(unused_imports)]
pub use embedding::{Embedded, Origin};
#[allow(unused_imports)]
pub use listing::*;
