//! Modules the translator refuses (with an error, never a panic or invalid code), even
//! when nothing checked them first.

use pnacl_bitcode::{ReadOptions, read_parallel};

fn translate(text: &str) -> Result<pnacl_codegen::Translation, String> {
    let bytes = pnacl_text::asm::assemble(text).map_err(|e| e.render("test"))?;
    let m =
        read_parallel(&bytes, ReadOptions { defer_abi: true, ..ReadOptions::default() }).map_err(|e| e.to_string())?;
    pnacl_codegen::translate(&m, &pnacl_codegen::Config::unplaced(&m, true), &[])
}

/// `_start`'s body: `%v2` (defined in `%b2`) is used in `%b1`, which `%b2` does not
/// dominate. The reader accepts it (a forward declaration makes the use legal to encode);
/// it is not SSA form.
const NOT_SSA: &str = "module {
  version 1;
  types {
    count 4;
    @t0 = i32;
    @t1 = i1;
    @t2 = void;
    @t3 = void (i32);
  }
  define external void @f0(i32);
  globals {
    count 0;
  }
  valuesymtab {
    @f0 : \"_start\";
  }
  function void @f0(i32 %p0) {
    blocks 4;
    constants {
      i32:
        %c0 = i32 0;
    }
  %b0:
    %v0 = icmp eq i32 %p0, %c0;
    br i1 %v0, label %b1, label %b2;
  %b1:
    declare i32 %v2;
    %v1 = add i32 %v2, %p0;
    br label %b3;
  %b2:
    %v2 = add i32 %p0, %p0;
    br label %b3;
  %b3:
    ret void;
  }
}";

#[test]
fn a_use_its_definition_does_not_dominate_is_refused() {
    let error = translate(NOT_SSA).err().expect("refused");
    assert_eq!(error, "@f0: %v2 is used in %b1 where its definition (in %b2) does not dominate the use");
    // The same function with the use moved below the definition translates.
    let fixed = NOT_SSA.replace("%v1 = add i32 %v2, %p0;", "%v1 = add i32 %p0, %p0;");
    assert!(translate(&fixed).is_ok());
}

/// A module of many functions that fail to translate (a vector index that is not a
/// constant: only the verifier would have refused it): every failure leaves the per-thread
/// translation state ready for the next function.
#[test]
fn failed_functions_do_not_break_the_next_ones() {
    let n = 64;
    let mut text = String::from(
        "module {\n  version 1;\n  types {\n    count 5;\n    @t0 = i32;\n    @t1 = <4 x i32>;\n    @t2 = void;\n    @t3 = void (i32);\n    @t4 = i32 (<4 x i32>, i32);\n  }\n  define external void @f0(i32);\n",
    );
    for f in 1..=n {
        text += &format!("  define internal i32 @f{f}(<4 x i32>, i32);\n");
    }
    text += "  globals {\n    count 0;\n  }\n  valuesymtab {\n    @f0 : \"_start\";\n  }\n";
    text += "  function void @f0(i32 %p0) {\n    blocks 1;\n  %b0:\n    ret void;\n  }\n";
    for f in 1..=n {
        text += &format!(
            "  function i32 @f{f}(<4 x i32> %p0, i32 %p1) {{\n    blocks 1;\n  %b0:\n    %v0 = extractelement <4 x i32> %p0, i32 %p1;\n    ret i32 %v0;\n  }}\n"
        );
    }
    text += "}\n";
    let error = translate(&text).err().expect("refused");
    assert!(error.ends_with("vector index not constant"), "{error}");
}
