//! The passes' unit tests: each `tests/ir/*.ll` names the passes to run (`; PASSES: a, b`)
//! and either FileCheck `CHECK` lines for the result, or `; ERROR: text` lines the refusal's
//! message must contain. The input is assembled by llvm-as-14, read into pnacl's model, run
//! through the passes and printed as typed-pointer IR, which must pass FileCheck and
//! `opt-14 -passes=verify`. A test that defines `i32 @main()` is also run with lli-14
//! before and after the passes, which must give the same exit status and output. Every
//! failure is reported by file name. `PNACL_IR_DUMP=DIR` writes each printed result to
//! `DIR/<test>.ll`, for writing new tests.

mod common;

use common::Case;
use std::collections::BTreeMap;

/// Test files expected to fail for now, with the reason. Such a file that starts passing is
/// itself a failure (remove it from this list).
const KNOWN_FAILURES: &[(&str, &str)] = &[];

/// Runs one case; what went wrong, if anything.
fn check(case: &Case) -> Result<(), String> {
    let passes = common::passes(&case.passes)?;
    let mut m = common::load(&case.text).map_err(|e| format!("reading the input: {e}"))?;
    let result = common::run(&mut m, &passes);
    if !case.errors.is_empty() {
        let message = match result {
            Ok(()) => return Err(format!("the passes accepted the input; expected a refusal: {:?}", case.errors)),
            Err(e) => e,
        };
        return match case.errors.iter().find(|want| !message.contains(want.as_str())) {
            Some(want) => Err(format!("the refusal `{message}` does not contain `{want}`")),
            None => Ok(()),
        };
    }
    result.map_err(|e| format!("the passes refused: {e}"))?;
    let out = common::print_typed(&m);
    if let Some(dir) = std::env::var_os("PNACL_IR_DUMP") {
        std::fs::write(std::path::Path::new(&dir).join(&case.name), &out).expect("writable dump directory");
    }
    let dump = || format!("\n--- output ---\n{out}");
    common::filecheck(&case.path, &out).map_err(|e| format!("{e}{}", dump()))?;
    common::verify(&out).map_err(|e| format!("the output is not valid IR: {e}{}", dump()))?;
    // A test with a `main` also runs, before and after the passes, with the same result.
    if case.text.contains("define i32 @main(") {
        let before = common::execute(&case.text).map_err(|e| format!("running the input: {e}"))?;
        let after = common::execute(&out).map_err(|e| format!("running the output: {e}{}", dump()))?;
        if before != after {
            return Err(format!("main's result changed: {before:?} before the passes, {after:?} after{}", dump()));
        }
    }
    Ok(())
}

#[test]
fn ir_cases() {
    let cases = common::cases();
    assert!(!cases.is_empty(), "no test inputs in {}", common::ir_dir().display());
    let known: BTreeMap<&str, &str> = KNOWN_FAILURES.iter().copied().collect();
    for name in known.keys() {
        assert!(cases.iter().any(|c| c.name == *name), "known failure {name} names no test file");
    }
    let mut failures = Vec::new();
    for case in &cases {
        match (check(case), known.get(case.name.as_str())) {
            (Ok(()), None) => {}
            (Err(e), None) => failures.push(format!("FAIL {}: {e}", case.name)),
            (Ok(()), Some(_)) => {
                failures.push(format!("FAIL {}: passes now; remove it from KNOWN_FAILURES", case.name))
            }
            (Err(e), Some(why)) => eprintln!("known failure {} ({why}): {}", case.name, e.lines().next().unwrap_or("")),
        }
    }
    assert!(failures.is_empty(), "{} of {} IR tests failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

/// Every pass has at least one test of its own (a file whose first pass it is); prints the
/// count per pass.
#[test]
fn every_pass_is_tested() {
    let cases = common::cases();
    let mut untested = Vec::new();
    for p in pnacl_passes::all() {
        let n = cases.iter().filter(|c| c.passes[0] == p.name()).count();
        eprintln!("{:40} {n}", p.name());
        if n == 0 {
            untested.push(p.name());
        }
    }
    assert!(untested.is_empty(), "passes without a test in tests/ir: {untested:?}");
}
