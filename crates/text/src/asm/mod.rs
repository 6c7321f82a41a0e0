//! The assembler: PNaClAsm (or a full `pnacl dis` listing) to bitcode.
//!
//! The text is parsed into the IR, with the layout it states: each block's abbreviation-id
//! width, the abbreviations it defines and the one each record uses (`<@aN>`, `<%aN>`).
//! The writer turns that into bits, and the reader then reads them back, so a program is
//! checked by exactly the rules that apply to any bitcode file. A reader error is reported
//! at the text position of the record that caused it.
//!
//! A block's width comes from, in order: an explicit `{ <B>` after the block's opening
//! brace, the enter record of a listing, or the smallest width holding every abbreviation in
//! scope (what pnacl-finalize writes).
//!
//! Modules, top down (each imports only from those below it): `module` (the module block
//! and its module-level blocks) hands function blocks to `function`, which hands each
//! instruction to `instruction`; `operands` holds the function being parsed and the operands
//! instructions name; `parser` the parser's state and the syntax every block shares; `source`
//! the text and where its errors point; `columns` where a listing's record column and
//! assembly column disagree.

mod columns;
mod function;
mod instruction;
mod module;
mod operands;
mod parallel;
mod parser;
mod source;

use crate::error::TextError;
use crate::listing;
use parser::Asm;
use pnacl_bitcode::ir::Module;
use pnacl_bitcode::{Abbrevs, ReadOptions};
use pnacl_bitstream::{BitPos, PexeHeader};
use source::Source;

/// Assembles PNaClAsm text (or a three-column listing) into PNaCl bitcode.
pub fn assemble(text: &str) -> Result<Vec<u8>, TextError> {
    assemble_with_notes(text).map(|(bytes, _)| bytes)
}

/// Assembles PNaClAsm text (or a three-column listing) into PNaCl bitcode; for a listing,
/// also returns one note per record whose record column disagrees with its assembly column
/// (an edited constant, type or operand), located at its line. The assembly column is what
/// is written.
pub fn assemble_with_notes(text: &str) -> Result<(Vec<u8>, Vec<TextError>), TextError> {
    let (module, offsets, src) = parse_source(text)?;
    let mut trace = Vec::new();
    let bytes = pnacl_bitcode::write_traced(&module, Abbrevs::Keep, &mut trace).map_err(|e| src.error(0, e.message))?;
    // Check the result with the reader's rules (the ABI is the verifier's business), and,
    // on another core, compare it with the record column (the notes are dropped if the
    // check fails).
    // Without the layout: the check needs the reader's rules, not a record of the
    // encoding it would then throw away.
    let opts = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    // Both modules are freed beside the comparison too (freeing a large one takes a
    // twentieth of the time).
    let (read, notes) = rayon::join(
        || {
            let read = pnacl_bitcode::read_with(&bytes, opts, &mut pnacl_bitcode::NoListener).map(drop);
            drop(module);
            read
        },
        || columns::disagreements(&bytes, &trace, &offsets, &src),
    );
    if let Err(e) = read {
        let at = offset_of(e.pos, &trace, &offsets);
        return Err(src.error(at, format!("{} [{}]", e.message, e.rule.id())));
    }
    Ok((bytes, notes))
}

/// Parses PNaClAsm text (or a listing) into a module, without writing it.
pub fn parse(text: &str) -> Result<Module, TextError> {
    parse_source(text).map(|(m, _, _)| m)
}

/// The text offset of the entry written at `pos`.
fn offset_of(pos: BitPos, trace: &[BitPos], offsets: &[usize]) -> usize {
    let i = trace.partition_point(|&p| p <= pos).saturating_sub(1);
    offsets.get(i).copied().unwrap_or(0)
}

fn parse_source(text: &str) -> Result<(Module, Vec<usize>, Source<'_>), TextError> {
    let src = if listing::is_listing(text) {
        let l = listing::split(text)?;
        let mut l = l;
        let asm = std::mem::take(&mut l.asm);
        let line_starts = std::mem::take(&mut l.line_starts);
        Source { text: asm, original: text, listing: Some(l), line_starts }
    } else {
        Source { text: text.to_string(), original: text, listing: None, line_starts: Vec::new() }
    };
    let header = match src.listing.as_ref().and_then(|l| l.header.clone()) {
        Some(raw) => PexeHeader::parse(&raw).map_err(|e| src.error(0, e.message.clone()))?,
        None => PexeHeader::standard(),
    };
    let (module, offsets) = {
        let mut a = Asm::new(&src, header);
        a.module()?;
        a.expect_eof()?;
        (a.m, a.offsets)
    };
    Ok((module, offsets, src))
}
