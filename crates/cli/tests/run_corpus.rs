//! `pnacl run` on the corpus's run cases (`RUNS.tsv`, role `test`) and on the examples:
//! exact standard output and exit status.

use pnacl_testutil::{corpus_dir, pnacl_command, runs, workspace_root};
use std::process::Command;

/// The expected standard output of a run case: a file under `expected/`, or a digest.
fn matches(expected: &str, stdout: &[u8]) -> Result<(), String> {
    if let Some(rest) = expected.strip_prefix("sha256:") {
        let (hash, len) = rest.split_once(':').ok_or("bad sha256 field")?;
        let len: usize = len.parse().map_err(|_| "bad length")?;
        if stdout.len() != len {
            return Err(format!("{} bytes, expected {len}", stdout.len()));
        }
        let got = sha256_hex(stdout);
        return if got == hash { Ok(()) } else { Err(format!("sha256 {got}, expected {hash}")) };
    }
    let want = std::fs::read(corpus_dir().join(expected)).map_err(|e| format!("{expected}: {e}"))?;
    if want == stdout {
        Ok(())
    } else {
        Err(format!(
            "stdout differs from {expected}:\n--- expected\n{}\n--- got\n{}",
            String::from_utf8_lossy(&want),
            String::from_utf8_lossy(stdout)
        ))
    }
}

fn sha256_hex(data: &[u8]) -> String {
    let out = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(data)?;
            child.wait_with_output()
        })
        .expect("sha256sum");
    String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap_or_default().to_string()
}

#[test]
fn every_test_run_case_gives_its_output_and_status() {
    let cases: Vec<_> = runs().into_iter().filter(|r| r.role == "test").collect();
    assert!(cases.len() >= 17, "RUNS.tsv has {} test rows", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        // As the corpus README says: run from the corpus folder, FILE as spelled there.
        let out = pnacl_command()
            .current_dir(corpus_dir())
            .arg("run")
            .arg(&case.file)
            .arg("--")
            .args(&case.args)
            .output()
            .expect("run pnacl");
        let name = format!("{} {}", case.file, case.args.join(" "));
        if out.status.code() != Some(case.expected_exit) {
            failures.push(format!(
                "{name}: exit status {:?}, expected {}; stderr: {}",
                out.status.code(),
                case.expected_exit,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if let Err(e) = matches(&case.expected_stdout, &out.stdout) {
            failures.push(format!("{name}: {e}"));
        }
        assert!(out.stderr.is_empty(), "{name}: unexpected stderr: {}", String::from_utf8_lossy(&out.stderr));
    }
    assert!(failures.is_empty(), "{} of {} run cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

fn run_example(name: &str, args: &[&str]) -> std::process::Output {
    pnacl_command()
        .current_dir(workspace_root())
        .args(["run", &format!("examples/{name}.pnaclasm"), "--"])
        .args(args)
        .output()
        .expect("run pnacl")
}

#[test]
fn hello_world_example_prints_through_the_irt() {
    let out = run_example("hello_world", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "hello, world\n");
}

#[test]
fn factorial_example_exits_with_argc_factorial() {
    // argv[0] counts: argc = 1 + the arguments.
    for (args, argc) in [(vec![], 1u32), (vec!["a"], 2), (vec!["a", "b", "c"], 4), (vec!["a", "b", "c", "d"], 5)] {
        let out = run_example("factorial", &args);
        let want = (1..=argc).product::<u32>() as i32;
        assert_eq!(out.status.code(), Some(want), "argc {argc}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// PNaCl's `_start` calls `main` with three arguments whatever `main` declares: through its
/// address, since the counts differ. The example's `main` declares none.
#[test]
fn main_without_parameters_example_exits_with_mains_result() {
    let out = run_example("main_without_parameters", &["a", "b"]);
    assert_eq!(out.status.code(), Some(42), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty() && out.stdout.is_empty());
}

#[test]
fn divide_example_exits_or_traps() {
    let out = run_example("divide", &["x"]);
    assert_eq!(out.status.code(), Some(100), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run_example("divide", &[]);
    assert_eq!(out.status.code(), Some(134));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "pnacl: trap: integer divide by zero in function divide\n");
}
