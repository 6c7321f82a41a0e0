//! `pnacl dis` lists function blocks ahead on other threads, from the module-level state it
//! expects (for the first of them, the state it predicts the globals block and the module
//! symbol table will leave). Whatever the input, the listing must be the one a single
//! thread makes: these cases break the predictions, or put errors in function blocks listed
//! ahead, on corpus pexes (edited as textual records), and compare the listing made on four
//! threads with the one made on one.

use pnacl_text::{dis, tbc};

const GLOBALS_ENTER: &str = "65535,19,";
const FUNCTION_ENTER: &str = "65535,12,";
const SYMTAB_ENTER: &str = "65535,14,";
const BLOCK_EXIT: &str = "65534;";

/// The listing of `bytes` (and its error summary) made on `threads` threads.
fn listing_on(threads: usize, bytes: &[u8]) -> String {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
    pool.install(|| {
        let mut out = Vec::new();
        let errors = dis::disassemble(bytes, &dis::Options::default(), &mut out).expect("in-memory output");
        format!("{}\n{errors:?}", String::from_utf8(out).expect("listings are ASCII"))
    })
}

/// The line index of the globals block's enter record and of its exit record.
fn globals_block(lines: &[String]) -> (usize, usize) {
    let enter = lines.iter().position(|l| l.starts_with(GLOBALS_ENTER)).expect("a globals block");
    let exit = enter + lines[enter..].iter().position(|l| l == BLOCK_EXIT).expect("its end");
    (enter, exit)
}

/// The line indices of the function blocks' enter records.
fn function_blocks(lines: &[String]) -> Vec<usize> {
    lines.iter().enumerate().filter(|(_, l)| l.starts_with(FUNCTION_ENTER)).map(|(i, _)| i).collect()
}

/// `lines` with an unknown record (an error the listing goes on after) as the first record
/// of each function block whose index `pick` selects, out of how many there are.
fn unknown_record_in(lines: &[String], pick: impl Fn(usize, usize) -> bool) -> Option<Vec<String>> {
    let blocks = function_blocks(lines);
    let mut out = lines.to_vec();
    let mut edited = false;
    for (k, &at) in blocks.iter().enumerate().rev() {
        if pick(k, blocks.len()) {
            out.insert(at + 1, "99,1;".into());
            edited = true;
        }
    }
    edited.then_some(out)
}

/// `lines` with `line` inserted at index `at`.
fn inserted(lines: &[String], at: usize, line: &str) -> Vec<String> {
    let mut out = lines.to_vec();
    out.insert(at, line.to_string());
    out
}

/// The edits that break a prediction, by name: each returns the edited records, or `None`
/// if the file has nothing to edit.
type Edit = fn(&[String]) -> Option<Vec<String>>;

const EDITS: &[(&str, Edit)] = &[
    ("a second count record, with two operands", |lines| {
        let (enter, _) = globals_block(lines);
        Some(inserted(lines, enter + 2, "5,1,2;"))
    }),
    ("a variable record with three operands", |lines| {
        let (_, exit) = globals_block(lines);
        Some(inserted(lines, exit, "0,1,0,7;"))
    }),
    ("a count too large for 32 bits", |lines| {
        let (enter, exit) = globals_block(lines);
        let count = enter + lines[enter..exit].iter().position(|l| l.starts_with("5,"))?;
        let mut out = lines.to_vec();
        out[count] = "5,4294967297;".into();
        Some(out)
    }),
    ("a module-level record after the globals block", |lines| {
        let (_, exit) = globals_block(lines);
        Some(inserted(lines, exit + 1, "1,1;"))
    }),
    ("the module symbol table without its first entry", |lines| {
        let (_, exit) = globals_block(lines);
        let symtab = exit + lines[exit..].iter().position(|l| l.starts_with(SYMTAB_ENTER))?;
        let first = symtab + 1 + lines[symtab + 1..].iter().position(|l| l.starts_with("1,"))?;
        let mut out = lines.to_vec();
        out.remove(first);
        Some(out)
    }),
    ("an error in a function block in the middle of the run", |lines| {
        unknown_record_in(lines, |k, n| n >= 3 && k == n / 2)
    }),
    ("errors in the last function block", |lines| unknown_record_in(lines, |k, n| k + 1 == n)),
    ("errors in every other function block, past the 20-error limit", |lines| {
        unknown_record_in(lines, |k, _| k % 2 == 1)
    }),
];

#[test]
fn listings_made_ahead_are_the_single_threaded_listings() {
    let mut edited = 0;
    for p in pnacl_testutil::pexes() {
        let bytes = std::fs::read(p.path()).expect("corpus file");
        if bytes.len() > 100_000 {
            continue;
        }
        let mut records = String::new();
        tbc::bitcode_to_records(&bytes, &mut records).expect("readable bitstream");
        let lines: Vec<String> = records.lines().map(str::to_string).collect();
        if !lines.iter().any(|l| l.starts_with(GLOBALS_ENTER)) {
            continue;
        }
        assert_eq!(listing_on(1, &bytes), listing_on(4, &bytes), "{}", p.file);
        for (name, edit) in EDITS {
            let Some(lines) = edit(&lines) else { continue };
            let bytes = tbc::records_to_bitcode(&(lines.join("\n") + "\n"))
                .unwrap_or_else(|e| panic!("{}, {name}: {}", p.file, e.message));
            let (one, four) = (listing_on(1, &bytes), listing_on(4, &bytes));
            assert!(one == four, "{}, {name}: the listing depends on the number of threads", p.file);
            edited += 1;
        }
    }
    // Every edit but the symbol-table one applies to every file with a globals block.
    assert!(edited >= 4 * 10, "only {edited} edited files");
}
