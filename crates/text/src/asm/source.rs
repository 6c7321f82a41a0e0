//! Where the parsed text came from, and errors placed in it: plain PNaClAsm, or the assembly
//! column of a listing, whose errors point into the original listing.

use crate::error::{LineIndex, Location, TextError};
use crate::listing::{ListedRecord, Listing};

/// Where the parsed text came from: plain text, or the assembly column of a listing.
pub(super) struct Source<'a> {
    /// The text the parser sees.
    pub(super) text: String,
    /// The original input.
    pub(super) original: &'a str,
    /// For listings: per line of `text`, its original line and the column offset.
    pub(super) listing: Option<Listing>,
    /// Offset of the start of each line of `text` (listings only).
    pub(super) line_starts: Vec<usize>,
}

impl Source<'_> {
    pub(super) fn error(&self, offset: usize, message: impl Into<String>) -> TextError {
        let index = LineIndex::new(&self.text);
        match &self.listing {
            None => index.error(offset, message),
            Some(l) => {
                let line = index.line_of(offset.min(self.text.len()));
                let loc = index.location(offset.min(self.text.len()));
                let (orig_line, col0) = l.origin.get(line).copied().unwrap_or((1, 0));
                let col0 = col0 as usize;
                let orig = LineIndex::new(self.original);
                let source_line = orig.line(orig_line as usize - 1).to_string();
                let col = source_line.get(..col0).map_or(0, |s| s.chars().count()) as u32 + loc.col;
                TextError { loc: Location { line: orig_line, col }, message: message.into(), source_line }
            }
        }
    }

    /// The listing record that starts on the line holding `offset`.
    pub(super) fn record_at(&self, offset: usize) -> Option<ListedRecord<'_>> {
        self.record_on_line(self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1))
    }

    /// The listing record that starts on line `line` (0-based) of `text`.
    pub(super) fn record_on_line(&self, line: usize) -> Option<ListedRecord<'_>> {
        self.listing.as_ref()?.record(line)
    }
}
