//! `pnacl check`: exit statuses, the report line, JSON and quiet output, and the warning on
//! a call written as an indirect call because its argument count differs.

use std::path::Path;
use std::process::{Command, Output};

fn pnacl(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnacl")).args(args).output().unwrap()
}

/// `_start` adds two i1 values: one violation, at `%v0`.
const BAD: &str = "module {
  version 1;
  types {
    count 4;
    @t0 = i32;
    @t1 = void;
    @t2 = void (i32);
    @t3 = i1;
  }
  define external void @f0(i32);
  globals {
    count 0;
  }
  valuesymtab {
    @f0 : \"_start\";
  }
  function void @f0(i32 %p0) {
    blocks 1;
    constants {
      i1:
        %c0 = i1 1;
    }
  %b0:
    %v0 = add i1 %c0, %c0;
    ret void;
  }
}
";

fn bad_pexe(dir: &Path) -> std::path::PathBuf {
    let bytes = pnacl_text_assemble(BAD);
    let path = dir.join("bad.pexe");
    std::fs::write(&path, bytes).unwrap();
    path
}

fn pnacl_text_assemble(text: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.pnaclasm");
    let out = dir.path().join("bad.pexe");
    std::fs::write(&src, text).unwrap();
    let o = pnacl(&[std::ffi::OsStr::new("asm"), src.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

#[test]
fn the_corpus_is_clean_with_warnings_only_on_calls_with_extra_arguments() {
    let corpus = pnacl_testutil::corpus_dir();
    let files: Vec<std::path::PathBuf> = pnacl_testutil::pexes().iter().map(|p| p.path()).collect();
    let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    let o = pnacl(&args);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(o.stderr.is_empty());
    // No violation; only warnings, on the browser pexes whose calls through a function's
    // address pass another number of arguments (each with its record's position).
    let stdout = String::from_utf8(o.stdout).unwrap();
    for line in stdout.lines() {
        assert!(line.contains("/ppapi/") && line.contains(": warning: "), "{line}");
        assert!(line.contains("(record at bit ") && line.ends_with(" [abi.call-argument-count]"), "{line}");
    }
    for pexe in ["astar", "dsn_live", "supernet_api"] {
        let start = format!("ppapi/{pexe}.pexe: warning: function _start");
        assert!(
            stdout.lines().any(|l| l.contains(&start) && l.contains("with 3: ") && l.contains("drops the extra")),
            "no warning on the call of main in {pexe}:\n{stdout}"
        );
    }
    assert!(corpus.is_dir());
}

#[test]
fn a_violation_is_one_line_and_exit_status_3() {
    let dir = tempfile::tempdir().unwrap();
    let bad = bad_pexe(dir.path());
    let o = pnacl(&["check".as_ref(), bad.as_os_str()]);
    assert_eq!(o.status.code(), Some(3));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        out,
        format!(
            "{}: function _start (@f0): block %b0: instruction %v0: add: Invalid integer arithmetic type: i1 [abi.int-arith-i1]\n",
            bad.display()
        )
    );
}

#[test]
fn json_and_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let bad = bad_pexe(dir.path());
    let o = pnacl(&["check".as_ref(), "--format".as_ref(), "json".as_ref(), bad.as_os_str()]);
    assert_eq!(o.status.code(), Some(3));
    // `--json`, the option every subcommand has, says the same.
    let global = pnacl(&["check".as_ref(), "--json".as_ref(), bad.as_os_str()]);
    assert_eq!((global.status.code(), &global.stdout), (Some(3), &o.stdout));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &v[0];
    assert_eq!(d["rule"], "abi.int-arith-i1");
    assert_eq!(d["function"]["name"], "_start");
    assert_eq!(d["function"]["id"], "@f0");
    assert_eq!(d["block"], "%b0");
    assert_eq!(d["instruction"]["value"], "%v0");
    assert!(d["bit"].as_u64().is_some_and(|b| b > 128), "{d}");
    let o = pnacl(&["check".as_ref(), "--quiet".as_ref(), bad.as_os_str()]);
    assert_eq!(o.status.code(), Some(3));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

#[test]
fn unreadable_input_is_exit_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = bad_pexe(dir.path());
    let bytes = std::fs::read(&bad).unwrap();
    let cut = dir.path().join("cut.pexe");
    std::fs::write(&cut, &bytes[..bytes.len() - 8]).unwrap();
    let o = pnacl(&["check".as_ref(), cut.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with(&format!("pnacl check: {}: Error(", cut.display())), "{err}");
    // A clean file, an unreadable one and one with violations: the unreadable one decides.
    let clean = pnacl_testutil::corpus_dir().join("tiny/start.pexe");
    let o = pnacl(&["check".as_ref(), clean.as_os_str(), cut.as_os_str(), bad.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
}

/// `examples/main_without_parameters.pnaclasm`: `_start` calls a `main` without parameters
/// with three arguments, which the writer could only write as an indirect call through
/// main's address. `check` accepts it with a warning naming the rule and the record's
/// position, which is the call record (code 44, an indirect call) in the listing; `run` runs
/// it.
#[test]
fn a_call_with_extra_arguments_is_a_warning_at_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/main_without_parameters.pnaclasm");
    let pexe = dir.path().join("m.pexe");
    let o = pnacl(&["asm".as_ref(), src.as_os_str(), "-o".as_ref(), pexe.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = pnacl(&["check".as_ref(), pexe.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "a warning is no violation");
    let out = String::from_utf8(o.stdout).unwrap();
    let prefix = format!("{}: warning: function _start (@f1): ", pexe.display());
    assert!(out.starts_with(&prefix) && out.ends_with(" [abi.call-argument-count]\n"), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let at = out.split("(record at bit ").nth(1).and_then(|s| s.split(')').next()).expect(&out);
    let o = pnacl(&["dis".as_ref(), pexe.as_os_str()]);
    let listing = String::from_utf8(o.stdout).unwrap();
    let line = listing.lines().find(|l| l.split('|').next().is_some_and(|a| a.trim() == at)).expect(at);
    let record = line.split('|').nth(1).unwrap();
    assert!(record.trim_start().split_once('<').is_some_and(|(_, r)| r.starts_with("44,")), "{line}");
    let o = pnacl_testutil::pnacl_command().arg("run").arg(&pexe).output().unwrap();
    assert_eq!(o.status.code(), Some(42), "{}", String::from_utf8_lossy(&o.stderr));
}
