//! `pnacl asm` parses the function blocks of a large text on all cores, taking the lines
//! that start with `function` for their starts. Whatever the text, the result must be the
//! one a single thread gets: the same bytes and notes, or the same error at the same place.
//! These cases edit the listing of a corpus pexe large enough to be parsed in parallel and
//! compare the result on four threads with the result on one.

use pnacl_text::{asm, dis};

/// What assembling `text` on `threads` threads gives, rendered.
fn assembled_on(threads: usize, text: &str) -> String {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
    pool.install(|| match asm::assemble_with_notes(text) {
        Ok((bytes, notes)) => {
            let notes: Vec<String> = notes.iter().map(|n| n.render("listing")).collect();
            format!("{} bytes {:x?}\n{}", bytes.len(), blake(&bytes), notes.join("\n"))
        }
        Err(e) => e.render("listing"),
    })
}

/// A digest of `bytes`, to keep failure messages short.
fn blake(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The line indices of the function blocks' first lines (`|  function ...`).
fn function_lines(lines: &[&str]) -> Vec<usize> {
    lines.iter().enumerate().filter(|(_, l)| l.contains("|  function ")).map(|(i, _)| i).collect()
}

type Edit = fn(&[&str]) -> Vec<String>;

const EDITS: &[(&str, Edit)] = &[
    ("a globals count one more than the globals", |lines| {
        let globals = lines.iter().position(|l| l.contains("|  globals {")).expect("a globals block");
        let at = globals + 1;
        let (head, count) = lines[at].rsplit_once("count ").expect("its count record");
        let n: u64 = count.trim_end_matches(';').parse().expect("a count");
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out[at] = format!("{head}count {};", n + 1);
        out
    }),
    ("an unknown value in the last function", |lines| {
        let last = *function_lines(lines).last().expect("functions");
        let at = last + lines[last..].iter().position(|l| l.contains(" %v")).expect("an instruction");
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out[at] = out[at].replacen(" %v", " %v999999", 1);
        out
    }),
    ("a function block without its closing brace", |lines| {
        let f = function_lines(lines);
        let second = f[f.len() / 2];
        let close = second - 1;
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        assert!(out[close].ends_with('}'), "{}", out[close]);
        out[close] = out[close].trim_end_matches('}').to_string();
        out
    }),
    ("a line starting with `function` inside a function block", |lines| {
        let f = function_lines(lines);
        let inside = f[f.len() / 3] + 2;
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out.insert(inside, format!("{:10}|{:29}|  function", "", ""));
        out
    }),
    ("a function block more than the module defines", |lines| {
        let f = function_lines(lines);
        let last = *f.last().expect("functions");
        let end = last + lines[last..].iter().position(|l| l.ends_with("|  }")).expect("its end");
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let copy: Vec<String> = out[last..=end].to_vec();
        out.splice(end + 1..end + 1, copy);
        out
    }),
];

#[test]
fn function_blocks_parsed_in_parallel_give_the_single_threaded_result() {
    let pexe = pnacl_testutil::pexes()
        .into_iter()
        .find(|p| p.file.ends_with("webpenc.pexe"))
        .expect("the corpus's webpenc.pexe");
    let bytes = std::fs::read(pexe.path()).expect("corpus file");
    let mut out = Vec::new();
    dis::disassemble(&bytes, &dis::Options::default(), &mut out).expect("in-memory output");
    let listing = String::from_utf8(out).expect("ASCII listing");
    assert!(listing.len() > 1 << 20, "the listing is too small to be parsed in parallel");
    let one = assembled_on(1, &listing);
    assert_eq!(one, assembled_on(4, &listing));
    assert!(one.starts_with(&format!("{} bytes {:x?}", bytes.len(), blake(&bytes))), "{one}");
    let lines: Vec<&str> = listing.lines().collect();
    for (name, edit) in EDITS {
        let text = edit(&lines).join("\n") + "\n";
        let (one, four) = (assembled_on(1, &text), assembled_on(4, &text));
        assert!(one == four, "{name}: on one thread:\n{one}\non four:\n{four}");
    }
}
