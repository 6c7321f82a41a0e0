//! Translation of shapes that stress the translator itself: long chains of single-use
//! values (kept on the wasm stack, but not so deep that emitting them recurses without
//! bound) and many blocks in a row.

fn module(body: &str, blocks: usize) -> String {
    format!(
        "module {{\n  version 1;\n  types {{\n    count 3;\n    @t0 = i32;\n    @t1 = i32 (i32);\n    @t2 = void;\n  }}\n  \
         define external i32 @f0(i32);\n  globals {{\n    count 0;\n  }}\n  valuesymtab {{\n    @f0 : \"_start\";\n  }}\n  \
         function i32 @f0(i32 %p0) {{\n    blocks {blocks};\n    constants {{\n      i32:\n        %c0 = i32 3;\n    }}\n{body}  }}\n}}\n"
    )
}

fn translate(text: &str) {
    let bitcode = pnacl_text::asm::assemble(text).expect("assembles");
    let m = pnacl_bitcode::read(&bitcode).expect("reads");
    let out = pnacl_wasm::translate(&m, &pnacl_wasm::Options::default()).expect("translates");
    pnacl_wasm::validate(&out).expect("validates");
}

#[test]
fn a_long_chain_of_single_use_values() {
    let mut body = String::from("  %b0:\n    %v0 = add i32 %p0, %c0;\n");
    for k in 1..20_000 {
        body.push_str(&format!("    %v{k} = mul i32 %v{}, %c0;\n", k - 1));
    }
    body.push_str("    ret i32 %v19999;\n");
    translate(&module(&body, 1));
}

#[test]
fn many_blocks_in_a_row_and_many_merges() {
    let n = 20_000;
    let mut body = String::new();
    for k in 0..n {
        body.push_str(&format!("  %b{k}:\n"));
        if k + 2 < n {
            body.push_str(&format!(
                "    %v{k} = icmp eq i32 %p0, %c0;\n    br i1 %v{k}, label %b{}, label %b{};\n",
                k + 1,
                k + 2
            ));
        } else if k + 1 < n {
            body.push_str(&format!("    br label %b{};\n", k + 1));
        } else {
            body.push_str("    ret i32 %p0;\n");
        }
    }
    translate(&module(&body, n));
}
