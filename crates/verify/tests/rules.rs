//! One or more negative tests per rule, each a small module written in PNaClAsm (or, where
//! PNaClAsm cannot say it, in textual records) and assembled by `pnacl asm`'s library, and
//! a clean module that breaks none.

use pnacl_bitcode::{Module, ReadOptions, read_with};
use pnacl_text::{asm, tbc};
use pnacl_verify::{Diagnostic, Location, Rule, verify};
use std::collections::BTreeSet;

fn read(bytes: &[u8]) -> Module {
    let options = ReadOptions { defer_abi: true, positions: true, ..ReadOptions::default() };
    read_with(bytes, options, &mut pnacl_bitcode::NoListener).expect("the test module reads")
}

/// A module with `_start` (`@f0`, `void (i32)`) whose body is `start` (after `blocks 1;`
/// and `%b0:`), more types (`@t3` on; `@t0` is i32, `@t1` void, `@t2` void (i32)), more
/// function declarations (`@f1` on), globals, symbols and function blocks.
struct Pexe<'a> {
    types: &'a [&'a str],
    functions: &'a [&'a str],
    globals: &'a [&'a str],
    symbols: &'a [&'a str],
    constants: &'a [&'a str],
    start: &'a [&'a str],
    bodies: &'a str,
}

const CLEAN: Pexe<'static> =
    Pexe { types: &[], functions: &[], globals: &[], symbols: &[], constants: &[], start: &[], bodies: "" };

impl Pexe<'_> {
    fn text(&self) -> String {
        // Types are unique in a types block: extras already there are left out.
        let mut types = vec!["i32".to_string(), "void".to_string(), "void (i32)".to_string()];
        // In topological order: scalars, then vectors, then function types.
        let mut extra: Vec<&str> = self.types.to_vec();
        extra.sort_by_key(|t| {
            if t.contains('(') {
                2
            } else if t.starts_with('<') {
                1
            } else {
                0
            }
        });
        for ty in extra {
            let ty = ty.replace("(", " (").replace("  (", " (");
            if !types.contains(&ty) {
                types.push(ty);
            }
        }
        let mut t = String::from("module {\n  version 1;\n  types {\n");
        t += &format!("    count {};\n", types.len());
        for (i, ty) in types.iter().enumerate() {
            t += &format!("    @t{i} = {ty};\n");
        }
        t += "  }\n  define external void @f0(i32);\n";
        for f in self.functions {
            t += &format!("  {f}\n");
        }
        t += &format!(
            "  globals {{\n    count {};\n",
            self.globals.iter().filter(|g| g.starts_with("var") || g.starts_with("const")).count()
        );
        for g in self.globals {
            t += &format!("    {g}\n");
        }
        t += "  }\n  valuesymtab {\n    @f0 : \"_start\";\n";
        for s in self.symbols {
            t += &format!("    {s}\n");
        }
        t += "  }\n  function void @f0(i32 %p0) {\n    blocks 1;\n";
        if !self.constants.is_empty() {
            t += "    constants {\n";
            for c in self.constants {
                t += &format!("      {c}\n");
            }
            t += "    }\n";
        }
        t += "  %b0:\n";
        for i in self.start {
            t += &format!("    {i}\n");
        }
        t += "    ret void;\n  }\n";
        t += self.bodies;
        t += "}\n";
        t
    }

    fn check(&self) -> (Module, Vec<Diagnostic>) {
        let text = self.text();
        let bytes = asm::assemble(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render("test")));
        let m = read(&bytes);
        let d = verify(&m);
        (m, d)
    }
}

/// Asserts that exactly the `rules` are broken (each at least once).
#[track_caller]
fn expect(p: &Pexe<'_>, rules: &[Rule]) -> Vec<Diagnostic> {
    let (_, d) = p.check();
    let got: BTreeSet<Rule> = d.iter().map(|d| d.rule).collect();
    let want: BTreeSet<Rule> = rules.iter().copied().collect();
    assert_eq!(got, want, "{:#?}\n{}", d, p.text());
    d
}

fn records(text: &str) -> Vec<Diagnostic> {
    verify(&read(&tbc::records_to_bitcode(text).expect("records")))
}

#[test]
fn a_clean_module_breaks_nothing() {
    expect(&CLEAN, &[]);
}

#[test]
fn vararg_function_types() {
    let d = expect(&Pexe { types: &["void (i32, ...)"], ..CLEAN }, &[Rule::Vararg]);
    assert_eq!(d[0].location, Location::Type(3));
}

#[test]
fn calling_convention() {
    // `define external void @f0(i32)` with calling convention 1: PNaClAsm has no spelling
    // for it.
    let text = "65535,8,2;\n1,1;\n65535,17,2;\n1,3;\n7,32;\n2;\n21,0,1,0;\n65534;\n8,2,1,0,0;\n\
                65535,19,2;\n5,0;\n65534;\n65535,14,2;\n1,0,95,115,116,97,114,116;\n65534;\n\
                65535,12,2;\n1,1;\n10;\n65534;\n65534;\n";
    let d = records(text);
    assert_eq!(d.iter().map(|d| d.rule).collect::<Vec<_>>(), [Rule::CallingConv], "{d:#?}");
}

#[test]
fn signatures_of_ordinary_functions() {
    for (ty, component) in [("i8 (i32)", "i8"), ("void (i16)", "i16"), ("i1 ()", "i1"), ("void (i32, i1)", "i1")] {
        let decl = format!(
            "define internal {} @f1({});",
            &ty[..ty.find(' ').unwrap()],
            &ty[ty.find('(').unwrap() + 1..ty.len() - 1]
        );
        let sig = ty;
        let params: Vec<&str> =
            sig[sig.find('(').unwrap() + 1..sig.len() - 1].split(", ").filter(|p| !p.is_empty()).collect();
        let ret = &sig[..sig.find(' ').unwrap()];
        let named: Vec<String> = params.iter().enumerate().map(|(i, p)| format!("{p} %p{i}")).collect();
        let body = match ret {
            "void" => "ret void;".to_string(),
            r => format!("ret {r} %c0;"),
        };
        let constants = if ret == "void" {
            String::new()
        } else {
            format!("    constants {{\n      {ret}:\n        %c0 = {ret} 0;\n    }}\n")
        };
        let bodies = format!(
            "  function {ret} @f1({}) {{\n    blocks 1;\n{constants}  %b0:\n    {body}\n  }}\n",
            named.join(", ")
        );
        let d = expect(
            &Pexe { types: &[component, sig], functions: &[&decl], bodies: &bodies, ..CLEAN },
            &[Rule::Signature],
        );
        assert!(d[0].message.contains("has disallowed type"), "{}", d[0].message);
    }
}

#[test]
fn intrinsics_are_whitelisted_with_their_types() {
    let d = expect(
        &Pexe {
            types: &["void ()"],
            functions: &["declare external void @f1();"],
            symbols: &["@f1 : \"llvm.foo\";"],
            ..CLEAN
        },
        &[Rule::Intrinsic],
    );
    assert_eq!(d[0].message, "Function llvm.foo is a disallowed LLVM intrinsic");
    let d = expect(
        &Pexe {
            types: &["double", "i32 (double)"],
            functions: &["declare external i32 @f1(double);"],
            symbols: &["@f1 : \"llvm.nacl.setjmp\";"],
            ..CLEAN
        },
        &[Rule::Intrinsic],
    );
    assert_eq!(d[0].message, "Intrinsic llvm.nacl.setjmp expects i8* for argument 1. Found: double");
}

#[test]
fn intrinsics_have_no_body() {
    expect(
        &Pexe {
            types: &["void ()"],
            functions: &["define external void @f1();"],
            symbols: &["@f1 : \"llvm.trap\";"],
            bodies: "  function void @f1() {\n    blocks 1;\n  %b0:\n    ret void;\n  }\n",
            ..CLEAN
        },
        &[Rule::IntrinsicDefined],
    );
}

#[test]
fn intrinsic_addresses_are_not_values() {
    let trap = Pexe {
        types: &["void ()"],
        functions: &["declare external void @f1();"],
        symbols: &["@f1 : \"llvm.trap\";"],
        start: &["store i32 @f1, i32* %p0, align 1;"],
        ..CLEAN
    };
    expect(&trap, &[Rule::IntrinsicAddress]);
    let reloc = Pexe { globals: &["var @g0, align 4,", "  reloc @f1;"], start: &[], ..trap };
    let d = expect(&reloc, &[Rule::IntrinsicAddress]);
    assert_eq!(d[0].location, Location::Global(0));
}

#[test]
fn only_start_is_external() {
    let d = expect(
        &Pexe {
            types: &["void ()"],
            functions: &["define external void @f1();"],
            symbols: &["@f1 : \"helper\";"],
            bodies: "  function void @f1() {\n    blocks 1;\n  %b0:\n    ret void;\n  }\n",
            ..CLEAN
        },
        &[Rule::External],
    );
    assert_eq!(d[0].message, "helper is not a valid external symbol");
}

#[test]
fn one_entry_point() {
    // No symbol table entry for _start: no entry point.
    let text = CLEAN.text().replace("    @f0 : \"_start\";\n", "");
    let d = verify(&read(&asm::assemble(&text).unwrap()));
    assert_eq!(d.iter().map(|d| d.rule).collect::<Vec<_>>(), [Rule::External, Rule::EntryPoint], "{d:#?}");
    // _start and a shared-object root: two entry points.
    let two =
        Pexe { globals: &["var @g0, align 4,", "  zerofill 4;"], symbols: &["@g0 : \"__pnacl_pso_root\";"], ..CLEAN };
    let d = expect(&two, &[Rule::EntryPoint]);
    assert_eq!(d[0].message, "Module has multiple entry points");
}

#[test]
fn functions_are_defined() {
    expect(
        &Pexe {
            types: &["void ()"],
            functions: &["declare external void @f1();"],
            symbols: &["@f1 : \"puts\";"],
            ..CLEAN
        },
        &[Rule::UndefinedFunction],
    );
}

#[test]
fn calls_reach_defined_functions() {
    let d = expect(
        &Pexe {
            types: &["void ()"],
            functions: &["declare external void @f1();"],
            symbols: &["@f1 : \"puts\";"],
            start: &["call void @f1();"],
            ..CLEAN
        },
        &[Rule::UndefinedFunction, Rule::CallUndefined],
    );
    let call = d.iter().find(|d| d.rule == Rule::CallUndefined).unwrap();
    assert!(matches!(call.location, Location::Instruction { function: 0, block: 0, value: None, .. }));
}

#[test]
fn names_are_unique() {
    let two = Pexe {
        types: &["void ()"],
        functions: &["define internal void @f1();", "define internal void @f2();"],
        symbols: &["@f1 : \"f\";", "@f2 : \"f\";"],
        bodies: "  function void @f1() {\n    blocks 1;\n  %b0:\n    ret void;\n  }\n  function void @f2() {\n    blocks 1;\n  %b0:\n    ret void;\n  }\n",
        ..CLEAN
    };
    let d = expect(&two, &[Rule::DuplicateName]);
    assert_eq!(d[0].message, "Module valuesymtab defines duplicate value name: 'f'");
}

#[test]
fn compound_initializers_have_two_elements() {
    expect(
        &Pexe { globals: &["var @g0, align 4,", "  initializers 1 {", "    zerofill 4;", "  }"], ..CLEAN },
        &[Rule::GlobalInitializer],
    );
    expect(
        &Pexe {
            globals: &["var @g0, align 4,", "  initializers 2 {", "    zerofill 4;", "    zerofill 4;", "  }"],
            ..CLEAN
        },
        &[],
    );
}

#[test]
fn no_integer_arithmetic_on_i1() {
    let p = Pexe { types: &["i1"], constants: &["i1:", "  %c0 = i1 1;"], start: &["%v0 = add i1 %c0, %c0;"], ..CLEAN };
    let d = expect(&p, &[Rule::BinopI1]);
    assert_eq!(d[0].message, "add: Invalid integer arithmetic type: i1");
    assert!(matches!(d[0].location, Location::Instruction { value: Some(0), .. }));
    // Logical operators are allowed on i1.
    expect(&Pexe { start: &["%v0 = and i1 %c0, %c0;"], ..p }, &[]);
    // And so is... not icmp: it too needs an integer arithmetic type.
    expect(&Pexe { start: &["%v0 = icmp eq i1 %c0, %c0;"], ..p }, &[Rule::BinopI1]);
}

#[test]
fn no_optimisation_flags() {
    // `%v0 = add i32 %p0, %p0` with flags 1 (nuw): PNaClAsm has no spelling for flags.
    let text = "65535,8,2;\n1,1;\n65535,17,2;\n1,3;\n7,32;\n2;\n21,0,1,0;\n65534;\n8,2,0,0,0;\n\
                65535,19,2;\n5,0;\n65534;\n65535,14,2;\n1,0,95,115,116,97,114,116;\n65534;\n\
                65535,12,2;\n1,1;\n2,1,1,0,1;\n10;\n65534;\n65534;\n";
    let d = records(text);
    assert_eq!(d.iter().map(|d| d.rule).collect::<Vec<_>>(), [Rule::BinopFlags], "{d:#?}");
    assert_eq!(d[0].message, "add has \"nuw\" attribute");
}

#[test]
fn switches_are_not_on_i1() {
    let p = Pexe {
        types: &["i1"],
        constants: &["i1:", "  %c0 = i1 1;"],
        start: &["switch i1 %c0 {", "  default: br label %b1;", "}"],
        ..CLEAN
    };
    let text =
        p.text().replace("blocks 1;", "blocks 2;").replace("    ret void;\n  }\n}", "  %b1:\n    ret void;\n  }\n}");
    let d = verify(&read(&asm::assemble(&text).unwrap_or_else(|e| panic!("{}", e.render("t")))));
    assert_eq!(d.iter().map(|d| d.rule).collect::<Vec<_>>(), [Rule::SwitchType], "{d:#?}");
}

#[test]
fn alloca_sizes_are_i32() {
    expect(
        &Pexe {
            types: &["i64"],
            constants: &["i64:", "  %c0 = i64 8;"],
            start: &["%v0 = alloca i8, i64 %c0, align 4;"],
            ..CLEAN
        },
        &[Rule::Alloca],
    );
}

#[test]
fn loads_and_stores() {
    let d = expect(&Pexe { types: &["i1"], start: &["%v0 = load i1* %p0, align 1;"], ..CLEAN }, &[Rule::MemoryType]);
    assert_eq!(d[0].message, "load: Not allowed for type: i1");
    expect(
        &Pexe { types: &["i1", "<4 x i1>"], start: &["%v0 = load <4 x i1>* %p0, align 1;"], ..CLEAN },
        &[Rule::MemoryType],
    );
    let d = expect(&Pexe { start: &["%v0 = load i32* %p0, align 4;"], ..CLEAN }, &[Rule::MemoryAlign]);
    assert_eq!(d[0].message, "load: Illegal alignment for i32. Expects: 1");
    let d = expect(
        &Pexe {
            types: &["double"],
            constants: &["double:", "  %c0 = double 1;"],
            start: &["store double %c0, double* %p0, align 4;"],
            ..CLEAN
        },
        &[Rule::MemoryAlign],
    );
    assert_eq!(d[0].message, "store: Illegal alignment for double. Expects: 1 or 8");
    expect(&Pexe { types: &["i16", "<8 x i16>"], start: &["%v0 = load <8 x i16>* %p0, align 2;"], ..CLEAN }, &[]);
    expect(&Pexe { types: &["float"], start: &["%v0 = load float* %p0, align 4;"], ..CLEAN }, &[]);
}

#[test]
fn vector_indices_are_constants_in_range() {
    let p = Pexe {
        types: &["<4 x i32>"],
        constants: &["i32:", "  %c0 = i32 4;", "  %c1 = i32 3;"],
        start: &["%v0 = load <4 x i32>* %p0, align 4;", "%v1  =  extractelement <4 x i32> %v0, i32 %c0;"],
        ..CLEAN
    };
    let d = expect(&p, &[Rule::VectorIndex]);
    assert_eq!(d[0].message, "extractelement: Vector index 4 out of range for 4 elements");
    expect(
        &Pexe {
            start: &["%v0 = load <4 x i32>* %p0, align 4;", "%v1  =  extractelement <4 x i32> %v0, i32 %c1;"],
            ..p
        },
        &[],
    );
    let d = expect(
        &Pexe {
            start: &["%v0 = load <4 x i32>* %p0, align 4;", "%v1  =  insertelement <4 x i32> %v0, i32 %p0, i32 %p0;"],
            ..p
        },
        &[Rule::VectorIndex],
    );
    assert_eq!(d[0].message, "insertelement: Vector index not constant: %p0");
}

#[test]
fn call_argument_and_result_types() {
    let p = Pexe { types: &["i8"], constants: &["i8:", "  %c0 = i8 1;"], start: &["call void %p0(i8 %c0);"], ..CLEAN };
    let d = expect(&p, &[Rule::CallTypes]);
    assert_eq!(d[0].message, "Argument 1 of indirect call has invalid type: i8");
    expect(&Pexe { types: &["i16"], constants: &[], start: &["%v0 = call i16 %p0();"], ..CLEAN }, &[Rule::CallTypes]);
}

/// A call through a function's own address with another argument count (how the PNaCl
/// writer wrote `_start`'s call of a `main` without parameters) is legal: a warning, with
/// its position, and no violation.
#[test]
fn calls_through_a_functions_address_with_another_argument_count_warn() {
    let callee = "  function i32 @f1() {\n    blocks 1;\n    constants {\n      i32:\n        %c0 = i32 7;\n    }\n  %b0:\n    ret i32 %c0;\n  }\n";
    let call = |args: &str, ret: &str| {
        let start: &'static str = Box::leak(format!("%v0 = call {ret} @f1({args});").into_boxed_str());
        let start: &'static [&'static str] = Box::leak(vec![start].into_boxed_slice());
        Pexe { types: &["i32 ()", "float"], functions: &["define internal i32 @f1();"], start, bodies: callee, ..CLEAN }
    };
    for (args, ret, outcome) in [
        ("i32 %p0, i32 %p0, i32 %p0", "i32", "pnacl run drops the extra arguments"),
        ("i32 %p0", "float", "pnacl run traps on it"),
    ] {
        let p = call(args, ret);
        let (m, violations) = p.check();
        assert!(violations.is_empty(), "{violations:#?}");
        let w = pnacl_verify::check(&m);
        assert_eq!(rules(&w), vec![Rule::CallArgumentCount]);
        assert!(w[0].rule.is_warning());
        assert!(w[0].pos.is_some(), "a warning has its position");
        let n = args.split(',').count();
        assert_eq!(
            w[0].message,
            format!(
                "Call to @f1, which takes 0 arguments, with {n}: written as an indirect call because the argument \
                 count differs; {outcome}"
            )
        );
    }
    // The same count through the address, or a direct call: nothing to say.
    let p = call("", "i32");
    let (m, _) = p.check();
    assert!(pnacl_verify::check(&m).is_empty());
}

fn atomic(intrinsic: &str, ty: &str, call: &str, constants: &[&str]) -> Vec<Diagnostic> {
    let decl = format!("declare external {ty};");
    let sym = format!("@f1 : \"{intrinsic}\";");
    let sig = ty.replace(" @f1", "");
    let p = Pexe {
        types: &[&sig, "i64", "i1", "i8"],
        functions: &[&decl],
        symbols: &[&sym],
        constants,
        start: &[call],
        ..CLEAN
    };
    p.check().1
}

const ORDERS: &[&str] = &[
    "i32:",
    "  %c0 = i32 0;",
    "  %c1 = i32 1;",
    "  %c2 = i32 2;",
    "  %c3 = i32 3;",
    "  %c4 = i32 4;",
    "  %c5 = i32 5;",
    "  %c6 = i32 6;",
    "  %c7 = i32 7;",
];

fn rules(d: &[Diagnostic]) -> Vec<Rule> {
    d.iter().map(|d| d.rule).collect()
}

#[test]
fn atomic_memory_orders() {
    let load = |order: &str| {
        atomic(
            "llvm.nacl.atomic.load.i32",
            "i32 @f1(i32, i32)",
            &format!("%v0 = call i32 @f1(i32 %p0, i32 {order});"),
            ORDERS,
        )
    };
    for (c, ok) in [
        ("%c1", true),
        ("%c2", true),
        ("%c3", true),
        ("%c4", false),
        ("%c5", false),
        ("%c6", true),
        ("%c0", false),
        ("%c7", false),
        ("%p0", false),
    ] {
        let d = load(c);
        assert_eq!(rules(&d), if ok { vec![] } else { vec![Rule::AtomicOrder] }, "load {c}: {d:#?}");
    }
    let store = |order: &str| {
        atomic(
            "llvm.nacl.atomic.store.i32",
            "void @f1(i32, i32, i32)",
            &format!("call void @f1(i32 %p0, i32 %p0, i32 {order});"),
            ORDERS,
        )
    };
    for (c, ok) in [("%c1", true), ("%c2", false), ("%c3", false), ("%c4", true), ("%c5", false), ("%c6", true)] {
        assert_eq!(rules(&store(c)), if ok { vec![] } else { vec![Rule::AtomicOrder] }, "store {c}");
    }
    let cmpxchg = |s: &str, f: &str| {
        atomic(
            "llvm.nacl.atomic.cmpxchg.i32",
            "i32 @f1(i32, i32, i32, i32, i32)",
            &format!("%v0 = call i32 @f1(i32 %p0, i32 %p0, i32 %p0, i32 {s}, i32 {f});"),
            ORDERS,
        )
    };
    for (s, f, ok) in [
        ("%c6", "%c6", true),
        ("%c6", "%c1", true),
        ("%c3", "%c6", false),
        ("%c4", "%c1", true),
        ("%c4", "%c3", false),
        ("%c6", "%c4", false),
        ("%c5", "%c2", true),
    ] {
        assert_eq!(rules(&cmpxchg(s, f)), if ok { vec![] } else { vec![Rule::AtomicOrder] }, "cmpxchg {s} {f}");
    }
    let fence = |order: &str| {
        atomic("llvm.nacl.atomic.fence", "void @f1(i32)", &format!("call void @f1(i32 {order});"), ORDERS)
    };
    assert_eq!(rules(&fence("%c6")), []);
    assert_eq!(rules(&fence("%c7")), [Rule::AtomicOrder]);
}

#[test]
fn atomic_rmw_operations() {
    let rmw = |op: &str| {
        atomic(
            "llvm.nacl.atomic.rmw.i32",
            "i32 @f1(i32, i32, i32, i32)",
            &format!("%v0 = call i32 @f1(i32 {op}, i32 %p0, i32 %p0, i32 %c6);"),
            ORDERS,
        )
    };
    for (op, ok) in [("%c1", true), ("%c6", true), ("%c0", false), ("%c7", false), ("%p0", false)] {
        assert_eq!(rules(&rmw(op)), if ok { vec![] } else { vec![Rule::AtomicRmwOp] }, "rmw {op}");
    }
}

#[test]
fn lock_free_sizes() {
    let sizes = &["i32:", "  %c0 = i32 1;", "  %c1 = i32 3;", "  %c2 = i32 8;", "  %c3 = i32 16;"];
    let is_lock_free = |size: &str| {
        atomic(
            "llvm.nacl.atomic.is.lock.free",
            "i1 @f1(i32, i32)",
            &format!("%v0 = call i1 @f1(i32 {size}, i32 %p0);"),
            sizes,
        )
    };
    assert_eq!(rules(&is_lock_free("%c0")), []);
    assert_eq!(rules(&is_lock_free("%c2")), []);
    assert_eq!(rules(&is_lock_free("%c1")), [Rule::AtomicLockFreeSize]);
    assert_eq!(rules(&is_lock_free("%c3")), [Rule::AtomicLockFreeSize]);
    assert_eq!(rules(&is_lock_free("%p0")), [Rule::AtomicLockFreeSize]);
}

#[test]
fn memory_intrinsics() {
    let c = &["i32:", "  %c0 = i32 1;", "  %c1 = i32 4;", "i1:", "  %c2 = i1 0;"];
    let memcpy = |align: &str, volatile: &str| {
        atomic(
            "llvm.memcpy.p0i8.p0i8.i32",
            "void @f1(i32, i32, i32, i32, i1)",
            &format!("call void @f1(i32 %p0, i32 %p0, i32 %p0, i32 {align}, i1 {volatile});"),
            c,
        )
    };
    assert_eq!(rules(&memcpy("%c0", "%c2")), []);
    assert_eq!(rules(&memcpy("%c1", "%c2")), [Rule::MemIntrinsic]);
    assert_eq!(rules(&memcpy("%p0", "%c2")), [Rule::MemIntrinsic]);
}

#[test]
fn uses_not_dominated_by_their_definition() {
    // %v2 is defined in %b2; %b1 and %b2 are the two arms of a branch.
    let body = |in_b1: &str, in_b3: &str| {
        format!(
            "  function void @f1(i32 %p0) {{
    blocks 4;
    constants {{
      i32:
        %c0 = i32 0;
    }}
  %b0:
    %v0 = icmp eq i32 %p0, %c0;
    br i1 %v0, label %b1, label %b2;
  %b1:
    declare i32 %v2;
    %v1 = {in_b1};
    br label %b3;
  %b2:
    %v2 = add i32 %p0, %p0;
    br label %b3;
  %b3:
    {in_b3}
    ret void;
  }}
"
        )
    };
    let check = |in_b1: &str, in_b3: &str| {
        let bodies = body(in_b1, in_b3);
        let p = Pexe { functions: &["define internal void @f1(i32);"], bodies: &bodies, ..CLEAN };
        let (_, d) = p.check();
        d
    };
    assert_eq!(check("add i32 %p0, %p0", "%v3 = phi i32 [%v1, %b1], [%v2, %b2];"), []);
    let d = check("add i32 %v2, %p0", "");
    assert_eq!(d.iter().map(|d| d.rule).collect::<Vec<_>>(), [Rule::Dominance], "{d:#?}");
    assert_eq!(d[0].message, "%v2 is used in %b1 where its definition (in %b2) does not dominate the use");
    // A phi sees its incoming value at the end of the incoming block.
    let d = check("add i32 %p0, %p0", "%v3 = phi i32 [%v2, %b1], [%v2, %b2];");
    assert_eq!(d.iter().map(|d| d.rule).collect::<Vec<_>>(), [Rule::Dominance], "{d:#?}");
    // %b3's predecessors are %b1 and %b2: one value from each, and only from them.
    let phi = |incoming: &str| {
        let d = check("add i32 %p0, %p0", &format!("%v3 = phi i32 {incoming};"));
        (d.iter().map(|d| d.rule).collect::<Vec<_>>(), d.first().map(|d| d.message.clone()).unwrap_or_default())
    };
    assert_eq!(phi("[%v1, %b1], [%v2, %b2], [%v2, %b2]"), (vec![], String::new()));
    assert_eq!(phi("[%v1, %b1]"), (vec![Rule::Phi], "phi in %b3 has no incoming value for its predecessor %b2".into()));
    assert_eq!(
        phi("[%v1, %b1], [%v2, %b2], [%p0, %b0]"),
        (vec![Rule::Phi], "phi in %b3 has an incoming value for %b0, which does not branch to %b3".into())
    );
    assert_eq!(
        phi("[%v1, %b1], [%v2, %b2], [%p0, %b2]"),
        (vec![Rule::Phi], "phi in %b3 has different incoming values for %b2".into())
    );
}

/// Every rule has a negative test above.
#[test]
fn every_rule_is_tested() {
    let source = include_str!("rules.rs");
    for r in Rule::ALL {
        let name = format!("{r:?}");
        assert!(
            source.contains(&format!("Rule::{name}]")) || source.contains(&format!("Rule::{name}, ")),
            "no test for {name}"
        );
    }
}
