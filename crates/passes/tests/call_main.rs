//! `call_main::fit_calls_to_main`: start-up code's `main(argc, argv, envp)` against each
//! `main` C allows, after linking (typed pointers, as clang-14 writes them). The result
//! must be valid IR (`opt-14 -passes=verify`) that runs as the input did under lli-14, with
//! `main` called directly with the arguments it declares; other mismatched calls stay.

mod common;

use pnacl_llvm::ir::{InstKind, Module};
use pnacl_passes::call_main::fit_calls_to_main;

/// Start-up code calling `main` with three arguments, and `main` as `definition` declares
/// it (its body returns `body_result`).
fn program(main_definition: &str) -> String {
    format!(
        r#"target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define i32 @start(i32 %argc, i8** %argv, i8** %envp) {{
  %r = call i32 bitcast ({main_definition} to i32 (i32, i8**, i8**)*)(i32 %argc, i8** %argv, i8** %envp)
  ret i32 %r
}}

define i32 @entry() {{
  %r = call i32 @start(i32 3, i8** null, i8** null)
  ret i32 %r
}}
"#
    )
}

/// Arguments of each call of `main` in `m`: (calls through a cast, direct calls' argument counts).
fn calls_of_main(m: &Module) -> (usize, Vec<usize>) {
    let main = m.function_by_name("main").expect("main");
    let mut through_casts = 0;
    let mut direct = Vec::new();
    for f in &m.functions {
        for (_, id) in f.layout() {
            if let InstKind::Call { callee, args, fn_ty, .. } = &f.inst(id).kind {
                if m.as_function(*callee) == Some(main) && *fn_ty == m.functions[main.0 as usize].ty {
                    direct.push(args.len());
                } else if matches!(callee, pnacl_llvm::ir::Value::Const(_)) && m.as_function(*callee).is_none() {
                    through_casts += 1;
                }
            }
        }
    }
    (through_casts, direct)
}

/// Fits the program with `main` defined as `text` (naming itself with `@main`); checks the
/// result verifies, and that calling through `@entry` (renamed `@main` for lli) gives the
/// same status before and after.
fn fitted(main_text: &str, cast_of: &str) -> Module {
    let text = format!("{}\n{main_text}\n", program(cast_of));
    let mut m = common::load(&text).expect("the input assembles");
    fit_calls_to_main(&mut m);
    let out = common::print_typed(&m);
    common::verify(&out).unwrap_or_else(|e| panic!("invalid IR after fitting: {e}\n{out}"));
    // lli runs @main: rename main to user_main and entry to main to run the program.
    let runnable = |t: &str| t.replace("@main", "@user_main").replace("@entry", "@main");
    let before = common::execute(&runnable(&text)).expect("the input runs");
    let after = common::execute(&runnable(&out)).expect("the output runs");
    assert_eq!(before, after, "the result changed:\n{out}");
    m
}

#[test]
fn main_without_parameters() {
    let m = fitted("define i32 @main() {\n  ret i32 7\n}", "i32 ()* @main");
    assert_eq!(calls_of_main(&m), (0, vec![0]));
}

#[test]
fn main_with_argc_and_argv() {
    let m = fitted("define i32 @main(i32 %argc, i8** %argv) {\n  ret i32 %argc\n}", "i32 (i32, i8**)* @main");
    assert_eq!(calls_of_main(&m), (0, vec![2]));
}

#[test]
fn main_with_all_three_is_left_as_it_is() {
    let text = format!(
        "{}\ndefine i32 @main(i32 %argc, i8** %argv, i8** %envp) {{\n  ret i32 %argc\n}}\n",
        program("i32 (i32, i8**, i8**)* @main")
            .replace("call i32 bitcast (i32 (i32, i8**, i8**)* @main to i32 (i32, i8**, i8**)*)", "call i32 @main")
    );
    let mut m = common::load(&text).expect("the input assembles");
    let before = m.clone();
    fit_calls_to_main(&mut m);
    assert_eq!(m, before);
}

#[test]
fn a_main_of_other_types_is_not_fitted() {
    // A parameter of another type, another return type: the call stays as it was.
    let m = fitted("define i32 @main(float %x) {\n  ret i32 5\n}", "i32 (float)* @main");
    assert_eq!(calls_of_main(&m), (1, vec![]));
    let m = fitted("define void @main() {\n  ret void\n}", "void ()* @main");
    assert_eq!(calls_of_main(&m), (1, vec![]));
}

#[test]
fn other_functions_called_with_extra_arguments_stay() {
    let text = r#"target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define i32 @f() {
  ret i32 1
}

define i32 @main() {
  %r = call i32 bitcast (i32 ()* @f to i32 (i32)*)(i32 4)
  ret i32 %r
}
"#;
    let mut m = common::load(text).expect("the input assembles");
    let before = m.clone();
    fit_calls_to_main(&mut m);
    assert_eq!(m, before);
}
