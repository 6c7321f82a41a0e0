//! `pnacl run` on the corpus's run cases (`RUNS.tsv`, role `test`) and on the examples:
//! exact standard output and exit status.

use pnacl_testutil::{corpus_dir, pnacl_command, runs, workspace_root};

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
        failures.extend(case.differences(&out));
        assert!(out.stderr.is_empty(), "{}: unexpected stderr: {}", case.name(), String::from_utf8_lossy(&out.stderr));
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
    // The trap, then the backtrace: divide, called by _start (the example's two functions).
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pnacl: trap: integer divide by zero in function divide\n\
         pnacl: backtrace (innermost first):\n  #0 divide\n  #1 _start\n"
    );
}
