//! A property over the IR tests: every pass, run alone on every test input, either refuses
//! with an error or leaves IR that `opt-14 -passes=verify` accepts (and no pass panics).

mod common;

use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::Mutex;

#[test]
fn every_pass_leaves_valid_ir_on_every_input() {
    let cases = common::cases();
    let mut jobs = Vec::new();
    for case in &cases {
        for p in pnacl_passes::all() {
            jobs.push((case, *p));
        }
    }
    let seen = Mutex::new(HashSet::new());
    let mut failures: Vec<String> = jobs
        .par_iter()
        .filter_map(|(case, pass)| {
            let mut m = match common::load(&case.text) {
                Ok(m) => m,
                Err(e) => return Some(format!("{}: reading the input: {e}", case.name)),
            };
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| common::run(&mut m, &[*pass])));
            match ran {
                Err(_) => return Some(format!("{} on {}: the pass panicked", pass.name(), case.name)),
                Ok(Err(_refused)) => return None,
                Ok(Ok(())) => {}
            }
            let out = common::print_typed(&m);
            if !seen.lock().unwrap().insert(out.clone()) {
                return None;
            }
            common::verify(&out).err().map(|e| format!("{} on {}: {e}\n--- output ---\n{out}", pass.name(), case.name))
        })
        .collect();
    failures.sort();
    assert!(failures.is_empty(), "{} pass runs left invalid IR:\n\n{}", failures.len(), failures.join("\n\n"));
}
