//! Known errata of the reference's listings, each with the reasoning that proves it.
//!
//! An erratum names the spec line it concerns and the text expected there, so a change of
//! the spec file shows up as a failure rather than as a silently misplaced correction.

/// A correction to a listing.
#[derive(Clone, Copy, Debug)]
pub struct Erratum {
    /// The spec line (1-based) the erratum is about.
    pub line: usize,
    /// The record column expected on that line (trimmed), as a guard.
    pub shows: &'static str,
    /// The correction.
    pub fix: Fix,
    /// Why the listing is wrong there.
    pub proof: &'static str,
}

/// What an erratum corrects.
#[derive(Clone, Copy, Debug)]
pub enum Fix {
    /// The record was written with abbreviation index `actual`, not the `shown` one.
    AbbrevIndex {
        /// The index the listing prints.
        shown: u32,
        /// The index the record really has.
        actual: u32,
    },
    /// A record is missing right after the line: `asm` is its assembly, `values` its record
    /// (code first; it is unabbreviated).
    Missing {
        /// The missing assembly line.
        asm: &'static str,
        /// Its record.
        values: &'static [u64],
    },
}

/// SETBID records are unabbreviated. In the abbreviations block of the listing, which has
/// no abbreviations for block 0, a SETBID record takes 2 bits of abbreviation id and 6 bits
/// each for the code 1, the operand count 1 and the block id (all below 32): 20 bits. Each
/// SETBID line is followed by the next entry exactly 20 bits later (36:0 -> 38:4,
/// 56:2 -> 58:6, 71:2 -> 73:6, 106:5 -> 109:1), so it is a record and not a block enter
/// (abbreviation id 1 would be followed by a block id, a width, alignment to 32 bits and a
/// 32-bit length word). A record with no abbreviation has index 3 (UNABBREV_RECORD), which
/// is what `pnacl-bcdis` prints (tools-facts §1.8); the listing's `1:` is wrong.
const SETBID_PROOF: &str = "SETBID is a 20-bit unabbreviated record (next entry 20 bits later): index 3, not 1";

/// The errata of `pnacl-bitcode-files.txt`.
pub const ERRATA: &[Erratum] = &[
    Erratum { line: 532, shows: "1: <1, 14>", fix: Fix::AbbrevIndex { shown: 1, actual: 3 }, proof: SETBID_PROOF },
    Erratum { line: 541, shows: "1: <1, 11>", fix: Fix::AbbrevIndex { shown: 1, actual: 3 }, proof: SETBID_PROOF },
    Erratum { line: 549, shows: "1: <1, 12>", fix: Fix::AbbrevIndex { shown: 1, actual: 3 }, proof: SETBID_PROOF },
    Erratum { line: 566, shows: "1: <1, 19>", fix: Fix::AbbrevIndex { shown: 1, actual: 3 }, proof: SETBID_PROOF },
    // The void type example prints the types block of the two listings before it (count 4,
    // @t0 = i32 at 50:4, @t1 = float at 53:6, @t2 = void at 55:4, exit at 62:0) without its
    // last type. `@t2 = void` is `3: <2>`, 2 + 6 + 6 = 14 bits, so the next entry is at
    // 57:2; the exit is shown 38 bits later still, at 62:0. 38 bits is exactly
    // `3: <21, 0, 2, 0, 1>` (2 + 6 + 6 + 4 * 6), the `@t3 = void (i32, float);` those two
    // listings show at 57:2, and `count 4` needs a fourth type.
    Erratum {
        line: 720,
        shows: "3: <2>",
        fix: Fix::Missing { asm: "@t3 = void (i32, float);", values: &[21, 0, 2, 0, 1] },
        proof: "count 4, and 38 bits (one `3: <21, 0, 2, 0, 1>`) between 57:2 (after `@t2 = void`) and the exit at 62:0",
    },
];

/// The errata concerning the lines `first..=last` of the spec.
pub fn within(first: usize, last: usize) -> Vec<&'static Erratum> {
    ERRATA.iter().filter(|e| (first..=last).contains(&e.line)).collect()
}
