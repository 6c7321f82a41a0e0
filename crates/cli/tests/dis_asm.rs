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

#[test]
fn a_malformed_pexe_lists_up_to_the_fault_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let tbc = dir.path().join("bad.tbc");
    // A function returning i32 whose block returns void.
    std::fs::write(
        &tbc,
        "65535,8,2;\n1,1;\n65535,17,2;\n1,2;\n7,32;\n21,0,0;\n65534;\n8,1,0,0,0;\n65535,19,2;\n5,0;\n65534;\n\
         65535,12,2;\n1,1;\n10;\n65534;\n65534;\n",
    )
    .unwrap();
    let pexe = dir.path().join("bad.pexe");
    let o = pnacl(&[os("asm"), os("--records"), tbc.as_os_str(), os("-o"), pexe.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = pnacl(&[os("dis"), pexe.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    let last: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(last[0].starts_with("Error(") && last[0].contains("ret void"), "{out}");
    assert!(last[1].contains("|    3: <10>"), "the refused record is listed: {out}");
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
