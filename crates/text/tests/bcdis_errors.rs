//! `pnacl dis` on the malformed inputs of Google's test suites, against the pnacl-bcdis
//! output that `tools-facts.md` §7.4 documents for them.
//!
//! The inputs are the suites' textual records (`tests/data/bcdis_errors/NAME.tbc`), turned
//! into bitcode by `pnacl asm --records`'s library function. The expectations are read from
//! the §7.4 table at test time: for each case whose last column says pnacl-bcdis is
//! checked, its backquoted `Error(B:b): ...` lines must appear verbatim, its bare messages
//! as the message of an error line, and a case documented as clean must list without
//! error. Backquoted assembly lines (`call void @f0(i8 %c1);`) are the faulty record's
//! PNaClAsm, which pnacl-bcdis prints before the error, going on after it; when such a case
//! has no message of its own in the bcdis column, the translator's message (third column)
//! is the one pnacl-bcdis prints too.

use std::path::PathBuf;

struct Case {
    name: String,
    translator_message: String,
    bcdis: String,
}

/// The rows of the §7.4 table that check pnacl-bcdis.
fn cases() -> Vec<Case> {
    let path = pnacl_testutil::design_dir().join("tools-facts.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let section = text.split("### 7.4").nth(1).expect("tools-facts has §7.4");
    let section = section.split("\n### ").next().unwrap_or(section);
    let mut out = Vec::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        if cells.len() < 4 || !cells[3].starts_with("yes") {
            continue;
        }
        out.push(Case {
            name: cells[0].trim_end_matches(".test").to_string(),
            translator_message: quoted(cells[2]).into_iter().next().unwrap_or_default(),
            bcdis: cells[3].to_string(),
        });
    }
    out
}

/// The backquoted strings of a table cell.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

fn input(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/bcdis_errors").join(format!("{name}.tbc"))
}

#[test]
fn malformed_inputs_give_the_documented_errors() {
    let cases = cases();
    assert_eq!(cases.len(), 9, "§7.4 lists nine cases checked with pnacl-bcdis");
    let mut report = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(input(&case.name)).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let bytes = pnacl_text::tbc::records_to_bitcode(&text).unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
        let mut out = Vec::new();
        let error = pnacl_text::dis::disassemble(&bytes, &Default::default(), &mut out).expect("in-memory output");
        let listing = String::from_utf8(out).expect("ASCII listing");
        let lines: Vec<&str> = listing.lines().collect();
        let error_lines: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("Error(")).collect();

        if case.bcdis.contains("without error") || case.bcdis.contains("no bcdis error") {
            assert!(error.is_none() && error_lines.is_empty(), "{}: expected a clean listing:\n{listing}", case.name);
            report.push(format!("{}: clean", case.name));
            continue;
        }
        let mut messages = Vec::new();
        let mut exact = Vec::new();
        let mut refused_asm = Vec::new();
        for q in quoted(&case.bcdis) {
            if let Some(m) = q.strip_prefix("Error(…): ") {
                // The position is elided in the notes: check the message.
                messages.push(m.to_string());
            } else if q.starts_with("Error(") {
                exact.push(q);
            } else if q.ends_with(';') {
                refused_asm.push(q);
            } else {
                messages.push(q);
            }
        }
        if exact.is_empty() && messages.is_empty() {
            messages.push(case.translator_message.clone());
        }
        assert!(error.is_some(), "{}: expected an error:\n{listing}", case.name);
        assert_eq!(error_lines.len(), 1, "{}: one error line:\n{listing}", case.name);
        let got = error_lines[0];
        for e in &exact {
            assert_eq!(got, e, "{}", case.name);
        }
        for m in &messages {
            let message = got.split_once("): ").map(|(_, m)| m);
            assert_eq!(message, Some(m.as_str()), "{}: {got}", case.name);
        }
        // The faulty record's assembly is on the line just before the error.
        let at = lines.iter().position(|l| *l == got).expect("error line");
        for asm in &refused_asm {
            assert!(lines[at - 1].ends_with(asm.as_str()), "{}: {asm} before the error:\n{listing}", case.name);
        }
        report.push(format!("{}: {got}", case.name));
    }
    println!("{}", report.join("\n"));
}

/// The error line follows the faulty record's lines, and the listing goes on to the end.
#[test]
fn the_faulty_record_is_listed_before_the_error() {
    let text = std::fs::read_to_string(input("call-fcn-bad-param-type")).expect("input");
    let bytes = pnacl_text::tbc::records_to_bitcode(&text).expect("records");
    let mut out = Vec::new();
    pnacl_text::dis::disassemble(&bytes, &Default::default(), &mut out).expect("in-memory output");
    let listing = String::from_utf8(out).expect("ASCII");
    let lines: Vec<&str> = listing.lines().collect();
    let at = lines.iter().position(|l| *l == "Error(136:0): Parameter 1 mismatch: i8 and i32").expect("error");
    assert!(lines[at - 1].starts_with("     136:0|    3: <34, 0, 5, 2>"), "{}", lines[at - 1]);
    assert!(lines[at - 1].ends_with("|    call void @f0(i8 %c1);"), "{}", lines[at - 1]);
    assert!(lines[at - 2].ends_with("|    %v0 = add i8 %c1, %c1;"), "{}", lines[at - 2]);
    assert_eq!(lines.last(), Some(&"     144:0|0: <65534>                   |}"));
}
