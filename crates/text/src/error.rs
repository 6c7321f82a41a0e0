//! Errors in text input, located by file, line and column.

use std::fmt;

/// A location in a text file (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// Line number, from 1.
    pub line: u32,
    /// Column number (in characters), from 1.
    pub col: u32,
}

/// An error in text input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// Where.
    pub loc: Location,
    /// What is wrong.
    pub message: String,
    /// The source line, for display.
    pub source_line: String,
}

impl TextError {
    /// Renders the error as `FILE:LINE:COL: message`, the source line and a caret.
    pub fn render(&self, file: &str) -> String {
        let mut s = format!("{file}:{}:{}: {}\n", self.loc.line, self.loc.col, self.message);
        if !self.source_line.is_empty() || self.loc.col > 0 {
            s.push_str(&self.source_line);
            s.push('\n');
            let pad: String = self
                .source_line
                .chars()
                .take(self.loc.col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            s.push_str(&pad);
            s.push('^');
        }
        s
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.loc.line, self.loc.col, self.message)
    }
}

impl std::error::Error for TextError {}

/// Maps byte offsets of a text to line and column, and extracts lines.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The 0-based line containing byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// Line `n` (0-based), without its newline.
    pub fn line(&self, n: usize) -> &'a str {
        let start = self.starts.get(n).copied().unwrap_or(self.text.len());
        let end = self.starts.get(n + 1).map_or(self.text.len(), |e| e - 1);
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    /// Location (1-based) of byte `offset`.
    pub fn location(&self, offset: usize) -> Location {
        let line = self.line_of(offset);
        let col = self.text[self.starts[line]..offset.min(self.text.len())].chars().count();
        Location { line: line as u32 + 1, col: col as u32 + 1 }
    }

    /// An error at byte `offset`.
    pub fn error(&self, offset: usize, message: impl Into<String>) -> TextError {
        let loc = self.location(offset);
        TextError { loc, message: message.into(), source_line: self.line(loc.line as usize - 1).to_string() }
    }
}
