//! `pnacl dis` and `pnacl asm` as commands: exit statuses, error reports, output files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pnacl(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnacl")).args(args).output().unwrap()
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

#[test]
fn examples_assemble_and_round_trip_through_the_listing() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["factorial.pnaclasm", "hello_world.pnaclasm"] {
        let pexe = dir.path().join("a.pexe");
        let o = pnacl(&[os("asm"), example(name).as_os_str(), os("-o"), pexe.as_os_str()]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let listing = dir.path().join("a.lst");
        let o = pnacl(&[os("dis"), pexe.as_os_str(), os("-o"), listing.as_os_str()]);
        assert!(o.status.success(), "{name}");
        let again = dir.path().join("b.pexe");
        assert!(pnacl(&[os("asm"), listing.as_os_str(), os("-o"), again.as_os_str()]).status.success());
        assert_eq!(std::fs::read(&pexe).unwrap(), std::fs::read(&again).unwrap(), "{name}");
    }
}

/// Writes textual records and assembles them into a pexe; returns its path.
fn pexe_of_records(dir: &Path, records: &str) -> PathBuf {
    let tbc = dir.join("bad.tbc");
    std::fs::write(&tbc, records).unwrap();
    let pexe = dir.join("bad.pexe");
    let o = pnacl(&[os("asm"), os("--records"), tbc.as_os_str(), os("-o"), pexe.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    pexe
}

/// A function whose `ret` names a value beyond those defined (relative id 5 with one value
/// before it), then a second `ret` of the function's own address.
const BAD_RET: &str = "65535,8,2;\n1,1;\n65535,17,2;\n1,2;\n7,32;\n21,0,0;\n65534;\n8,1,0,0,0;\n65535,19,2;\n5,0;\n\
                       65534;\n65535,12,2;\n1,2;\n10,5;\n10,1;\n65534;\n65534;\n";

#[test]
fn a_malformed_pexe_is_listed_in_full_with_its_errors_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = pexe_of_records(dir.path(), BAD_RET);
    let o = pnacl(&[os("dis"), pexe.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("Error(")).expect("an error line");
    // pnacl-bcdis recovers with the id it can name: the function's own address.
    assert!(lines[at - 1].contains("|    3: <10, 5>") && lines[at - 1].ends_with("|    ret i32 @f0;"), "{out}");
    assert!(lines[at].ends_with("): Invalid relative value id: 5 (Must be <= 1)"), "{out}");
    assert!(lines[at + 2].ends_with("|    ret i32 @f0;"), "the listing goes on: {out}");
    assert!(out.ends_with("|}\n"), "{out}");
    // One line on stderr, so that a redirected listing is never silently wrong.
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err, format!("pnacl dis: {}: 1 error; first: {}\n", pexe.display(), lines[at]));
}

#[test]
fn textual_records_of_a_malformed_pexe_end_with_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = pexe_of_records(dir.path(), BAD_RET);
    // Make the function block's length word run past the end of the module: its enter
    // record (abbreviation id, block id and width: 14 bits) is followed, 32-bit aligned,
    // by the length.
    let listing = String::from_utf8(pnacl(&[os("dis"), pexe.as_os_str()]).stdout).unwrap();
    let enter = listing.lines().find(|l| l.contains("1: <65535, 12, 2>")).expect("function block");
    let (byte, bit) = enter[..10].trim().split_once(':').unwrap();
    let start = byte.parse::<usize>().unwrap() * 8 + bit.parse::<usize>().unwrap() + 14;
    let word = start.div_ceil(32) * 4;
    let mut bytes = std::fs::read(&pexe).unwrap();
    bytes[word..word + 4].copy_from_slice(&0xffff_0000u32.to_le_bytes());
    std::fs::write(&pexe, &bytes).unwrap();
    let o = pnacl(&[os("dis"), os("--format"), os("tbc"), pexe.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let last = out.lines().last().unwrap_or_default();
    assert!(out.starts_with("65535,8,2;\n1,1;\n") && last.starts_with("Error("), "{out}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err, format!("pnacl dis: {}: 1 error; first: {last}\n", pexe.display()));
}

#[test]
fn an_assembly_error_points_at_the_text_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.pnaclasm");
    std::fs::write(&src, "module {\n  version 1;\n  types {\n    count 1;\n    @t0 = i33;\n  }\n}\n").unwrap();
    let out = dir.path().join("out.pexe");
    let o = pnacl(&[os("asm"), src.as_os_str(), os("-o"), out.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    let mut lines = err.lines();
    let first = lines.next().unwrap();
    assert!(first.starts_with(&format!("pnacl asm: {}:5:", src.display())), "{err}");
    assert_eq!(lines.next(), Some("    @t0 = i33;"), "{err}");
    assert!(lines.next().is_some_and(|l| l.trim_end().ends_with('^')), "{err}");
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
}

/// Writing to a device or a pipe writes through it: it is not replaced by a file.
#[test]
fn output_to_a_fifo_writes_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let pexe = pnacl_testutil::corpus_dir().join("tiny/start.pexe");
    let o = pnacl(&[os("dis"), pexe.as_os_str(), os("-o"), fifo.as_os_str()]);
    assert!(o.status.success());
    let got = reader.join().unwrap();
    assert!(String::from_utf8(got).unwrap().contains("module {"));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn records_format_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = pnacl_testutil::corpus_dir().join("cli/fact.pexe");
    let tbc = dir.path().join("fact.tbc");
    assert!(
        pnacl(&[os("dis"), os("--format"), os("tbc"), pexe.as_os_str(), os("-o"), tbc.as_os_str()]).status.success()
    );
    let back = dir.path().join("fact.pexe");
    assert!(pnacl(&[os("asm"), os("--records"), tbc.as_os_str(), os("-o"), back.as_os_str()]).status.success());
    let tbc2 = dir.path().join("again.tbc");
    assert!(
        pnacl(&[os("dis"), os("--format"), os("tbc"), back.as_os_str(), os("-o"), tbc2.as_os_str()]).status.success()
    );
    assert_eq!(std::fs::read(&tbc).unwrap(), std::fs::read(&tbc2).unwrap());
}

/// Runs pnacl in `dir` (so that messages name files as given).
fn pnacl_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnacl")).args(args).current_dir(dir).output().unwrap()
}

/// The record column of the listing line whose assembly column ends with `asm`: its line
/// number (1-based), the line, and the record (`<...>`).
fn listed(listing: &str, asm: &str) -> (usize, String, String) {
    let lines: Vec<&str> = listing.lines().collect();
    let n = lines.iter().position(|l| l.trim_end().ends_with(asm)).expect(asm);
    // A long record goes on over the next lines, whose address column is blank.
    let mut record = String::new();
    for (i, l) in lines[n..].iter().enumerate() {
        let (address, rest) = l.split_once('|').unwrap();
        if i > 0 && !address.trim().is_empty() {
            break;
        }
        record.push_str(rest.split('|').next().unwrap().trim());
    }
    let record = &record[record.find('<').unwrap()..=record.rfind('>').unwrap()];
    (n + 1, lines[n].to_string(), record.replace(",", ", ").replace(",  ", ", "))
}

/// `asm` of a listing whose assembly column was edited (a constant, an operand, an
/// alignment) writes what the assembly column says, and says so on standard error for each
/// record, with the line: the record column beside it no longer holds.
#[test]
fn an_edited_listing_is_assembled_from_its_assembly_column_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = example("factorial.pnaclasm");
    assert!(
        pnacl_in(d, &[os("asm"), src.as_os_str(), os("-o"), os("f.pexe")].map(|s| s.to_str().unwrap()))
            .status
            .success()
    );
    assert!(pnacl_in(d, &["dis", "f.pexe", "-o", "f.lst"]).status.success());
    let listing = std::fs::read_to_string(d.join("f.lst")).unwrap();
    // Each edit, and the record it makes, by the encoding rules of the bitcode spec:
    // constants are sign-rotated (2 is 4); operands are relative to the instruction's own
    // value (the multiplication's first operand, `%p0`, says how far `%p0` is); an
    // alignment is log2 + 1 (4 is 3).
    let (c_line, _, c_record) = listed(&listing, "%c0 = i32 1;");
    let (m_line, _, m_record) = listed(&listing, "%v3 = mul i32 %p0, %v2;");
    let (a_line, _, a_record) = listed(&listing, "%v1 = load i32* %v0, align 1;");
    let fields = |r: &str| -> Vec<String> { r[1..r.len() - 1].split(", ").map(str::to_string).collect() };
    let m = fields(&m_record);
    let a = fields(&a_record);
    let edits = [
        (c_line, "%c0 = i32 1;", "%c0 = i32 2;", c_record, "<4, 4>".to_string()),
        (
            m_line,
            "%v3 = mul i32 %p0, %v2;",
            "%v3 = mul i32 %p0, %p0;",
            m_record,
            format!("<{}, {}, {}, {}>", m[0], m[1], m[1], m[3]),
        ),
        (
            a_line,
            "%v1 = load i32* %v0, align 1;",
            "%v1 = load i32* %v0, align 4;",
            a_record,
            format!("<{}, {}, 3, {}>", a[0], a[1], a[3]),
        ),
    ];
    let mut edited = listing.clone();
    let mut expected = String::new();
    for (line_no, from, to, was, now) in &edits {
        let line = edited.lines().nth(line_no - 1).unwrap().to_string();
        let new_line = line.replace(from, to);
        edited = edited.replacen(&line, &new_line, 1);
        let col = new_line[..new_line.find('%').unwrap()].chars().count();
        expected.push_str(&format!(
            "pnacl asm: e.lst:{line_no}:{}: warning: the record column says {was} but the assembly column says {now}: \
             the assembly column wins\n{new_line}\n{}^\n",
            col + 1,
            " ".repeat(col)
        ));
    }
    std::fs::write(d.join("e.lst"), &edited).unwrap();
    let o = pnacl_in(d, &["asm", "e.lst", "-o", "e.pexe"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stderr), expected);
    // What is written is what the assembly column alone, edited alike, assembles into.
    assert!(pnacl_in(d, &["dis", "--no-records", "f.pexe", "-o", "f.pnaclasm"]).status.success());
    let mut asm = std::fs::read_to_string(d.join("f.pnaclasm")).unwrap();
    for (_, from, to, _, _) in &edits {
        asm = asm.replacen(from, to, 1);
    }
    std::fs::write(d.join("e.pnaclasm"), asm).unwrap();
    let o = pnacl_in(d, &["asm", "e.pnaclasm", "-o", "e2.pexe"]);
    assert!(o.status.success() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(d.join("e.pexe")).unwrap(), std::fs::read(d.join("e2.pexe")).unwrap());
}

/// Floats: the listing prints `%g`, which loses bits, so its record column supplies the
/// exact bits as long as they print as the assembly column says; an edited float is the
/// edited value.
#[test]
fn a_listing_keeps_exact_floats_unless_the_assembly_column_was_edited() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let nbody = pnacl_testutil::corpus_dir().join("cli/nbody.pexe");
    let o = pnacl_in(d, &["dis", nbody.to_str().unwrap(), "-o", "n.lst"]);
    assert!(o.status.success());
    let o = pnacl_in(d, &["asm", "n.lst", "-o", "n.pexe"]);
    assert!(o.status.success() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&nbody).unwrap(), std::fs::read(d.join("n.pexe")).unwrap());
    // 4π², printed 39.4784, edited to 39.5.
    let listing = std::fs::read_to_string(d.join("n.lst")).unwrap();
    let (line_no, line, _) = listed(&listing, "= double 39.4784; <@a3>");
    let edited = listing.replacen(&line, &line.replace("39.4784", "39.5"), 1);
    std::fs::write(d.join("e.lst"), edited).unwrap();
    let o = pnacl_in(d, &["asm", "e.lst", "-o", "e.pexe"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    let bits = 39.5f64.to_bits();
    assert!(first.starts_with(&format!("pnacl asm: e.lst:{line_no}:")), "{stderr}");
    assert!(first.ends_with(&format!("the assembly column says <6, {bits}>: the assembly column wins")), "{stderr}");
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
}
