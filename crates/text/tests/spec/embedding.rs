//! An embedding: a complete module in listing form, each line with where it comes from, and
//! the writer of its lines.

/// Where a line of an embedding comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The listing's line with this index in [`Listing::lines`](super::Listing::lines).
    Fragment(usize),
    /// A synthesized line.
    Synthesized,
    /// A line standing for a record the listing is missing (the erratum's spec line).
    Erratum(usize),
}

/// A line of an embedding.
#[derive(Clone, Debug)]
pub struct OutLine {
    /// The text.
    pub text: String,
    /// Where it comes from.
    pub origin: Origin,
    /// The index of the bitstream entry (enter, exit, abbreviation, record) the line
    /// starts, among all entries of the file, if it starts one.
    pub entry: Option<usize>,
}

/// A complete module in listing form containing a fragment.
#[derive(Clone, Debug)]
pub struct Embedded {
    /// The module text (a listing the assembler accepts).
    pub text: String,
    /// Its lines.
    pub lines: Vec<OutLine>,
}

impl Embedded {
    /// The embedding's line for the listing line with index `line`.
    pub fn line_of(&self, line: usize) -> Option<&OutLine> {
        self.lines.iter().find(|l| l.origin == Origin::Fragment(line))
    }

    /// Number of synthesized lines.
    pub fn synthesized(&self) -> usize {
        self.lines.iter().filter(|l| l.origin == Origin::Synthesized).count()
    }
}

/// The embedding being written.
pub struct Out {
    pub lines: Vec<OutLine>,
    pub entries: usize,
    pub width: usize,
}

impl Out {
    pub fn push(&mut self, text: String, origin: Origin, starts_entry: bool) {
        let entry = starts_entry.then(|| {
            self.entries += 1;
            self.entries - 1
        });
        self.lines.push(OutLine { text, origin, entry });
    }

    pub fn line(&mut self, depth: usize, asm: &str, origin: Origin, starts_entry: bool) {
        let text = format!("{:w$}|{:29}|{}{asm}", "", "", "  ".repeat(depth), w = self.width);
        self.push(text, origin, starts_entry);
    }

    pub fn synth(&mut self, depth: usize, asm: &str, starts_entry: bool) {
        self.line(depth, asm, Origin::Synthesized, starts_entry);
    }
}
