//! Where translated code checks the host stack: a function whose entry block calls nothing
//! checks before its calls; if its frame turns out too large to go unchecked, it checks in
//! its prologue as well.

use pnacl_bitcode::{ReadOptions, read_parallel};
use pnacl_codegen::abi::TrapKind;

/// `_start(%p0)`: if `%p0` is not zero, loads `n` words, calls itself, and adds the words
/// up after the call (so that they all live across it, in the frame).
fn module(n: usize) -> String {
    let mut consts = String::new();
    let mut body = String::new();
    for k in 0..n {
        consts.push_str(&format!("        %c{} = i32 {};\n", k + 1, 4 * (k + 1)));
    }
    // %v0: the compare; then n addresses and n loads, the call, n - 1 sums.
    let mut v = 1;
    let mut loads = Vec::new();
    for k in 0..n {
        body.push_str(&format!("    %v{v} = add i32 %p0, %c{};\n", k + 1));
        body.push_str(&format!("    %v{} = load i32* %v{v}, align 1;\n", v + 1));
        loads.push(v + 1);
        v += 2;
    }
    body.push_str(&format!("    %v{v} = call i32 @f0(i32 %c0);\n"));
    let mut sum = v;
    v += 1;
    for l in loads {
        body.push_str(&format!("    %v{v} = add i32 %v{sum}, %v{l};\n"));
        sum = v;
        v += 1;
    }
    format!(
        "module {{
  version 1;
  types {{
    count 3;
    @t0 = i32;
    @t1 = i1;
    @t2 = i32 (i32);
  }}
  define external i32 @f0(i32);
  globals {{
    count 0;
  }}
  valuesymtab {{
    @f0 : \"_start\";
  }}
  function i32 @f0(i32 %p0) {{
    blocks 3;
    constants {{
      i32:
        %c0 = i32 0;
{consts}    }}
  %b0:
    %v0 = icmp eq i32 %p0, %c0;
    br i1 %v0, label %b1, label %b2;
  %b1:
    ret i32 %c0;
  %b2:
{body}    ret i32 %v{sum};
  }}
}}"
    )
}

/// The number of host stack overflow trap sites in `_start`'s code.
fn stack_checks(n: usize) -> usize {
    let bytes = pnacl_text::asm::assemble(&module(n)).map_err(|e| e.render("test")).unwrap();
    let m = read_parallel(&bytes, ReadOptions::default()).unwrap();
    let t = pnacl_codegen::translate(&m, &pnacl_codegen::Config::unplaced(&m, true), &[]).unwrap();
    let f = t.functions[0].expect("translated");
    t.traps.iter().filter(|s| s.kind == TrapKind::StackOverflow && (f.start..f.start + f.len).contains(&s.addr)).count()
}

#[test]
fn a_small_frame_is_checked_only_before_the_call() {
    assert_eq!(stack_checks(4), 1);
}

#[test]
fn a_large_frame_is_checked_in_the_prologue_too() {
    // 1000 words live across the call: more than MAX_UNCHECKED_FRAME bytes of spill slots.
    assert_eq!(stack_checks(1000), 2);
}
