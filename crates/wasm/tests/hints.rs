//! The `compilationHints` section (crates/wasm/src/hints.rs): V8 compiles with TurboFan
//! from the first call exactly the functions whose loops nest two deep, that are called
//! from at most two places, are at most 2 KB of code and are not the entry point; every
//! other function gets the default hint, and the section has one byte per defined
//! function.

/// A function `i32 @fN(i32 %p0)` whose loops nest `depth` deep (0: no loop), each loop
/// counting to `%p0`, followed by `chain` multiplications (to make the body larger).
/// `calls` are the functions it calls once each, before its loops.
fn function(n: usize, depth: usize, chain: usize, calls: &[usize]) -> String {
    let mut b = String::new();
    let mut v = 0;
    let mut block = 0;
    let next_value = |v: &mut usize| {
        *v += 1;
        *v - 1
    };
    b.push_str(&format!("  %b{block}:\n"));
    for &c in calls {
        let k = next_value(&mut v);
        b.push_str(&format!("    %v{k} = call i32 @f{c}(i32 %p0);\n"));
    }
    // Each loop: a header with a counter phi, the inner loops, a latch that counts.
    let mut counters = Vec::new();
    for _ in 0..depth {
        b.push_str(&format!("    br label %b{};\n", block + 1));
        block += 1;
        let k = next_value(&mut v);
        b.push_str(&format!("  %b{block}:\n    %v{k} = phi i32 [%c0, %b{}], [LATCH{k}];\n", block - 1));
        counters.push((k, block));
    }
    let mut last = "%p0".to_string();
    for _ in 0..chain {
        let k = next_value(&mut v);
        b.push_str(&format!("    %v{k} = mul i32 {last}, %c1;\n"));
        last = format!("%v{k}");
    }
    while let Some((counter, header)) = counters.pop() {
        let sum = next_value(&mut v);
        let test = next_value(&mut v);
        b.push_str(&format!(
            "    %v{sum} = add i32 %v{counter}, %c1;\n    %v{test} = icmp slt i32 %v{sum}, %p0;\n    br i1 %v{test}, label %b{header}, label %b{};\n",
            block + 1
        ));
        b = b.replace(&format!("[LATCH{counter}]"), &format!("[%v{sum}, %b{block}]"));
        block += 1;
        b.push_str(&format!("  %b{block}:\n"));
        last = format!("%v{sum}");
    }
    b.push_str(&format!("    ret i32 {last};\n"));
    format!(
        "  function i32 @f{n}(i32 %p0) {{\n    blocks {};\n    constants {{\n      i32:\n        %c0 = i32 0;\n        %c1 = i32 1;\n    }}\n{b}  }}\n",
        block + 1
    )
}

fn module(functions: &[String]) -> String {
    let mut m =
        String::from("module {\n  version 1;\n  types {\n    count 2;\n    @t0 = i32;\n    @t1 = i32 (i32);\n  }\n");
    for k in 0..functions.len() {
        let kind = if k == 0 { "external" } else { "internal" };
        m.push_str(&format!("  define {kind} i32 @f{k}(i32);\n"));
    }
    m.push_str("  globals {\n    count 0;\n  }\n  valuesymtab {\n    @f0 : \"_start\";\n  }\n");
    for f in functions {
        m.push_str(f);
    }
    m.push_str("}\n");
    m
}

/// The hint bytes of the translation of `text`, checked to be one per defined function.
fn hints(text: &str) -> Vec<u8> {
    let bitcode = pnacl_text::asm::assemble(text).unwrap_or_else(|e| panic!("assembles: {e}\n{text}"));
    let m = pnacl_bitcode::read(&bitcode).expect("reads");
    let out = pnacl_wasm::translate(&m, &pnacl_wasm::Options::default()).expect("translates");
    pnacl_wasm::validate(&out).expect("validates");
    let (mut defined, mut hints, mut code_seen) = (None, None, false);
    for payload in wasmparser::Parser::new(0).parse_all(&out.wasm) {
        match payload.expect("parses") {
            wasmparser::Payload::FunctionSection(s) => defined = Some(s.count()),
            wasmparser::Payload::CodeSectionStart { .. } => code_seen = true,
            wasmparser::Payload::CustomSection(s) if s.name() == "compilationHints" => {
                assert!(
                    defined.is_some() && !code_seen,
                    "V8 reads the hints only between the function and code sections"
                );
                hints = Some(s.data().to_vec());
            }
            _ => {}
        }
    }
    let data = hints.expect("a compilationHints section");
    let defined = defined.expect("a function section") as usize;
    // The count is one LEB128 byte for these small modules.
    assert_eq!(data[0] as usize, defined, "one hint per defined function");
    assert_eq!(data.len(), 1 + defined);
    data[1..].to_vec()
}

const OPTIMIZED: u8 = 0x29;

#[test]
fn only_long_running_functions_called_from_few_places_are_optimized_from_the_first_call() {
    let functions = [
        // The entry point: nested loops, but it runs once, over the start-up block.
        function(0, 2, 0, &[1, 2, 3, 3, 3, 4, 5, 6, 6]),
        function(1, 2, 0, &[]),   // nested loops, one call site: optimized
        function(2, 1, 0, &[]),   // one loop
        function(3, 2, 0, &[]),   // nested loops, three call sites
        function(4, 2, 800, &[]), // nested loops, more than 2 KB of code
        function(5, 3, 0, &[]),   // three deep, one call site: optimized
        function(6, 2, 0, &[]),   // nested loops, two call sites: optimized
    ];
    let hints = hints(&module(&functions));
    // The defined functions come first, in order; the translator's helpers follow.
    assert_eq!(&hints[..7], &[0, OPTIMIZED, 0, 0, 0, OPTIMIZED, OPTIMIZED]);
    assert!(hints[7..].iter().all(|&h| h == 0), "helpers get the default: {hints:?}");
}

#[test]
fn a_module_without_loops_has_only_default_hints() {
    let functions = [function(0, 0, 0, &[1]), function(1, 0, 3, &[])];
    assert!(hints(&module(&functions)).iter().all(|&h| h == 0));
}
