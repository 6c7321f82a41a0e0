//! Where a listing's two columns disagree. The assembler writes what the assembly column
//! says; when the record column beside it says another record (one of the two was edited:
//! a constant, a type, an operand), the record column loses, and the assembler says so.

use super::source::Source;
use crate::error::TextError;
use pnacl_bitstream::{BitPos, Container, Cursor, Step};

/// One note per record written whose listed record (the record column on the line the
/// record's assembly starts on) has other values. `trace[i]` is where entry `i` was written
/// and `offsets[i]` where its text starts.
pub(super) fn disagreements(bytes: &[u8], trace: &[BitPos], offsets: &[usize], src: &Source<'_>) -> Vec<TextError> {
    let mut notes = Vec::new();
    if src.listing.is_none() {
        return notes;
    }
    let Ok(container) = Container::detect(bytes) else { return notes };
    let (stream, start) = container.stream(bytes);
    let Ok(mut cursor) = Cursor::new(stream, start, 2) else { return notes };
    let mut entry = 0;
    while let Ok(step) = cursor.step() {
        match step {
            Step::End => break,
            Step::Record => {
                let r = cursor.record();
                // Entries are traced in the order they are written.
                entry += trace[entry..].partition_point(|&p| p < r.pos);
                if trace.get(entry) != Some(&r.pos) {
                    continue;
                }
                let Some(listed) = offsets.get(entry).and_then(|&at| src.record_at(at).map(|l| (at, l))) else {
                    continue;
                };
                let (at, listed) = listed;
                let same = listed.values.split_first().is_some_and(|(&code, ops)| code == r.code && ops == r.ops);
                if !same {
                    let written: Vec<u64> = std::iter::once(r.code).chain(r.ops.iter().copied()).collect();
                    notes.push(src.error(
                        at,
                        format!(
                            "the record column says {} but the assembly column says {}: the assembly column \
                             wins",
                            angled(listed.values),
                            angled(&written)
                        ),
                    ));
                }
            }
            Step::Enter | Step::Exit | Step::Abbrev => {}
        }
    }
    notes
}

/// Values as the record column prints them: `<4, 2>`.
fn angled(values: &[u64]) -> String {
    let list: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("<{}>", list.join(", "))
}
