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
    let (mut entry, mut lines) = (0, 0);
    while let Ok(step) = cursor.step() {
        match step {
            Step::End => break,
            Step::Record => {
                let r = cursor.record();
                // Entries are traced in the order they are written.
                entry = partition_from(trace, entry, |&p| p < r.pos);
                if trace.get(entry) != Some(&r.pos) {
                    continue;
                }
                let Some(&at) = offsets.get(entry) else { continue };
                // The text of successive records is (almost always) in order too.
                lines = partition_from(&src.line_starts, lines, |&s| s <= at);
                let Some(listed) = src.record_on_line(lines.saturating_sub(1)) else { continue };
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

/// The partition point of `sorted` for `pred` (true before it, false from it on), looked
/// for from `from` on, where it is expected to be: a gallop forward, a few steps when it is
/// near, where a bisection of the whole costs a cache miss a step on millions of entries.
/// Anywhere else (`pred` false before `from`), a bisection of the whole.
fn partition_from<T>(sorted: &[T], from: usize, pred: impl Fn(&T) -> bool) -> usize {
    if from > sorted.len() || (from > 0 && !pred(&sorted[from - 1])) {
        return sorted.partition_point(pred);
    }
    let (mut lo, mut step) = (from, 1);
    loop {
        let hi = (lo + step).min(sorted.len());
        if hi == sorted.len() || !pred(&sorted[hi]) {
            return lo + sorted[lo..hi].partition_point(&pred);
        }
        lo = hi + 1;
        step *= 2;
    }
}

/// Values as the record column prints them: `<4, 2>`.
fn angled(values: &[u64]) -> String {
    let list: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("<{}>", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::partition_from;

    #[test]
    fn partition_from_agrees_with_a_bisection_from_anywhere() {
        let sorted: Vec<u32> = (0..200).map(|i| i / 3 * 2).collect();
        for x in 0..140 {
            let want = sorted.partition_point(|&v| v < x);
            for from in 0..=sorted.len() + 1 {
                assert_eq!(partition_from(&sorted, from, |&v| v < x), want, "x {x} from {from}");
            }
        }
        assert_eq!(partition_from::<u32>(&[], 0, |_| true), 0);
    }
}
