//! Embedding a listing fragment in a complete module.
//!
//! A module block holds, in order: version, abbreviations, types, function addresses,
//! globals, symbol table, function blocks (spec "Module block"). Each part of a fragment
//! (the runs of lines between `...` lines) covers a stretch of that sequence, possibly
//! starting or ending inside a function block. The embedding keeps every line of the
//! fragment verbatim and synthesizes the rest as listing lines with empty address and
//! record columns:
//!
//! - `module {` (the assembler then writes the standard 16-byte header); this line is
//!   written with its address and record, `16:0|1: <65535, 8, 2>|`, because the assembler
//!   reads a text as a listing only if its first line has an address, and takes the lines
//!   after a header record, up to the next address, as part of the header;
//! - `version 1;`, an empty `abbreviations` block (which ends at 40:0);
//! - a types block defining every type the fragment uses, at the indices its records
//!   give them (type ids in function address, set-type, cast, load, switch, phi,
//!   forward-declaration and indirect-call records); like every types block of a module
//!   with functions in the reference, it includes `void`;
//! - function address records for functions the fragment shows or refers to but does not
//!   declare (at least one: the module needs a non-empty sequence of them);
//! - a globals block (`count N;` with the globals the fragment refers to);
//! - function blocks for defined functions the fragment does not show, the header and
//!   `blocks 1;` of a function whose inside alone is shown, the rest of a function whose
//!   beginning alone is shown; closing braces.
//!
//! Synthesized content before an addressed part is then padded, by search, until the part
//! starts at its address: filler types in the types block, extra declared functions or
//! globals, and a module symbol table with names of chosen lengths, in the order
//! [`Plan::search`] describes (no padding first; a symbol table naming `@f0` "f" is what
//! the reference's own examples show). Only if nothing fits, function address records are
//! abbreviated instead ([`Knobs::compact`](model::Knobs::compact)): that is what a globals block at 52:0 needs.
//!
//! Smallest: the addresses fix the size of everything up to the last part, so embeddings
//! that fit differ only after it, where nothing optional is added (no abbreviations block,
//! symbol table, extra type, function or global; declared rather than defined functions;
//! one-block bodies). Before an addressed part, where sizes are equal, the abbreviations
//! block and the `void` type every reference module has are kept.

mod model;
mod plan;
mod render;
mod search;

use super::embedding::Embedded;
use super::listing::Listing;
use model::Plan;

/// Embeds a listing in the smallest complete module that puts each of its records at the
/// address written on it (see the module documentation). A whole module is its own
/// embedding. Fails if no module in the search space fits.
pub fn embed(listing: &Listing) -> Result<Embedded, String> {
    Plan::new(listing)?.search()
}
