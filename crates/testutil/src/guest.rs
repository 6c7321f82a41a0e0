//! Guest programs for `pnacl run` tests, written in PNaClAsm.
//!
//! A [`Case`] is a function under test (`@f0`: its signature, constants and body) and a
//! table of inputs. [`Case::module`] wraps it in a module whose `_start` calls it once per
//! input row and writes every result to standard output, in 16-byte slots, through the
//! IRT; [`Case::run`] runs that module with `pnacl run` and returns the results, which the
//! test compares with values it computes itself.
//!
//! The module's fixed parts:
//! - functions: `@f0` the function under test, `@f1` `_start`, then [`Case::functions`]
//!   (`@f2`, `@f3`, ...: intrinsic declarations and helpers the body may call);
//! - globals: `@g0`..`@g6` the driver's (IRT names and tables, inputs, outputs), `@g7` a
//!   zeroed 64 KiB scratch area (16-aligned) the body may use, then [`Case::globals`].
//!   The driver queries `nacl-irt-fdio-0.1` into `@g2` and `nacl-irt-basic-0.1` into
//!   `@g3` before calling `@f0`, and stores the IRT query function itself at `@g4 + 4`, so
//!   the body can query other interfaces.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Output;

/// The types a test function may take and return (the ABI's parameter types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// `<4 x i32>`.
    V4I32,
    /// `<8 x i16>`.
    V8I16,
    /// `<16 x i8>`.
    V16I8,
    /// `<4 x float>`.
    V4F32,
}

impl Ty {
    /// The PNaClAsm spelling.
    pub fn name(self) -> &'static str {
        match self {
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::F32 => "float",
            Ty::F64 => "double",
            Ty::V4I32 => "<4 x i32>",
            Ty::V8I16 => "<8 x i16>",
            Ty::V16I8 => "<16 x i8>",
            Ty::V4F32 => "<4 x float>",
        }
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            Ty::I32 | Ty::F32 => 4,
            Ty::I64 | Ty::F64 => 8,
            _ => 16,
        }
    }

    /// The alignment its loads and stores state (the largest the ABI allows).
    fn align(self) -> u32 {
        match self {
            Ty::I32 | Ty::I64 => 1,
            Ty::F32 | Ty::V4I32 | Ty::V4F32 => 4,
            Ty::F64 => 8,
            Ty::V8I16 => 2,
            Ty::V16I8 => 1,
        }
    }

    /// Float lanes (for NaN-aware comparison): lane size if the type holds floats.
    fn float_lane(self) -> Option<usize> {
        match self {
            Ty::F32 | Ty::V4F32 => Some(4),
            Ty::F64 => Some(8),
            _ => None,
        }
    }
}

/// A value of one of the [`Ty`] types, as bytes in memory (little-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Val {
    /// Its type.
    pub ty: Ty,
    /// Its bytes (the first `ty.size()`).
    pub bytes: [u8; 16],
}

impl Val {
    fn new(ty: Ty, b: &[u8]) -> Val {
        let mut bytes = [0; 16];
        bytes[..b.len()].copy_from_slice(b);
        Val { ty, bytes }
    }

    /// An `i32`.
    pub fn i32(v: u32) -> Val {
        Val::new(Ty::I32, &v.to_le_bytes())
    }

    /// An `i64`.
    pub fn i64(v: u64) -> Val {
        Val::new(Ty::I64, &v.to_le_bytes())
    }

    /// A `float`.
    pub fn f32(v: f32) -> Val {
        Val::new(Ty::F32, &v.to_bits().to_le_bytes())
    }

    /// A `double`.
    pub fn f64(v: f64) -> Val {
        Val::new(Ty::F64, &v.to_bits().to_le_bytes())
    }

    /// A `<4 x i32>`.
    pub fn v4i32(v: [u32; 4]) -> Val {
        Val::new(Ty::V4I32, &v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
    }

    /// A `<8 x i16>`.
    pub fn v8i16(v: [u16; 8]) -> Val {
        Val::new(Ty::V8I16, &v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
    }

    /// A `<16 x i8>`.
    pub fn v16i8(v: [u8; 16]) -> Val {
        Val::new(Ty::V16I8, &v)
    }

    /// A `<4 x float>`.
    pub fn v4f32(v: [f32; 4]) -> Val {
        Val::new(Ty::V4F32, &v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect::<Vec<_>>())
    }

    /// The value's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.ty.size()]
    }

    /// Equal, taking any two NaNs in the same float lane as equal (their payloads are the
    /// hardware's business).
    pub fn same(&self, other: &Val) -> bool {
        if self.ty != other.ty {
            return false;
        }
        match self.ty.float_lane() {
            None => self.as_bytes() == other.as_bytes(),
            Some(lane) => self.as_bytes().chunks(lane).zip(other.as_bytes().chunks(lane)).all(|(a, b)| {
                let nan = |x: &[u8]| {
                    if lane == 4 {
                        f32::from_le_bytes(x.try_into().unwrap()).is_nan()
                    } else {
                        f64::from_le_bytes(x.try_into().unwrap()).is_nan()
                    }
                };
                a == b || (nan(a) && nan(b))
            }),
        }
    }
}

/// A function declared or defined besides `@f0` and `_start`.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name in the symbol table (intrinsics need theirs).
    pub name: Option<String>,
    /// The declaration line's type part, e.g. `i32 (i32)` is written `ret: "i32"`,
    /// `params: ["i32"]`.
    pub ret: String,
    /// Parameter types.
    pub params: Vec<String>,
    /// The whole `function ... { ... }` text, for a defined function; `None` declares it.
    pub body: Option<String>,
}

impl Function {
    /// An intrinsic declaration, e.g. `Function::intrinsic("llvm.bswap.i32", "i32", &["i32"])`.
    pub fn intrinsic(name: &str, ret: &str, params: &[&str]) -> Function {
        Function {
            name: Some(name.into()),
            ret: ret.into(),
            params: params.iter().map(|p| p.to_string()).collect(),
            body: None,
        }
    }

    /// An internal helper function with a body (`function RET @fN(...) { ... }`).
    pub fn helper(ret: &str, params: &[&str], body: &str) -> Function {
        Function {
            name: None,
            ret: ret.into(),
            params: params.iter().map(|p| p.to_string()).collect(),
            body: Some(body.into()),
        }
    }
}

/// A test: the function under test and its inputs.
#[derive(Clone, Debug)]
pub struct Case {
    /// Parameter types of `@f0`.
    pub params: Vec<Ty>,
    /// Its return type.
    pub ret: Ty,
    /// Its constants, in `%c` order: (type, value), e.g. `("i8", "-1")`.
    pub constants: Vec<(String, String)>,
    /// Its body: PNaClAsm lines from `%b0:` on, using `%p`, `%c` and `%v` names.
    pub body: String,
    /// Other functions (`@f2` on).
    pub functions: Vec<Function>,
    /// Other globals (`@g8` on), as PNaClAsm global definitions.
    pub globals: Vec<String>,
    /// Input rows: one value per parameter.
    pub inputs: Vec<Vec<Val>>,
}

/// The types every module declares (a function type is added for each signature used).
const VALUE_TYPES: &[&str] = &[
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "float",
    "double",
    "void",
    "<4 x i1>",
    "<8 x i1>",
    "<16 x i1>",
    "<4 x i32>",
    "<8 x i16>",
    "<16 x i8>",
    "<4 x float>",
];

fn c_string(s: &str) -> String {
    let bytes: Vec<String> = s.bytes().chain([0]).map(|b| b.to_string()).collect();
    format!("{{ {} }}", bytes.join(", "))
}

/// Numbers `i32` constants for the driver.
#[derive(Default)]
struct Consts(Vec<u32>);

impl Consts {
    fn get(&mut self, v: u32) -> String {
        let i = self.0.iter().position(|&x| x == v).unwrap_or_else(|| {
            self.0.push(v);
            self.0.len() - 1
        });
        format!("%c{i}")
    }
}

impl Case {
    /// A case with no extra functions or globals.
    pub fn new(params: &[Ty], ret: Ty, constants: &[(&str, &str)], body: &str) -> Case {
        Case {
            params: params.to_vec(),
            ret,
            constants: constants.iter().map(|(t, v)| (t.to_string(), v.to_string())).collect(),
            body: body.into(),
            functions: Vec::new(),
            globals: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// The input rows to run.
    pub fn inputs(mut self, rows: Vec<Vec<Val>>) -> Case {
        self.inputs = rows;
        self
    }

    /// Adds functions `@f2`, `@f3`, ...
    pub fn functions(mut self, f: Vec<Function>) -> Case {
        self.functions = f;
        self
    }

    /// Adds globals `@g8`, `@g9`, ...
    pub fn globals(mut self, g: Vec<String>) -> Case {
        self.globals = g;
        self
    }

    fn signature(ret: &str, params: &[String]) -> String {
        format!("{ret} ({})", params.join(", "))
    }

    /// The whole module, in PNaClAsm.
    pub fn module(&self) -> String {
        assert!(!self.inputs.is_empty(), "a case needs inputs");
        let params: Vec<String> = self.params.iter().map(|t| t.name().to_string()).collect();
        let mut sigs = vec![Self::signature(self.ret.name(), &params), "void (i32)".to_string()];
        for f in &self.functions {
            sigs.push(Self::signature(&f.ret, &f.params));
        }
        let mut types: Vec<String> = VALUE_TYPES.iter().map(|t| t.to_string()).collect();
        for s in &sigs {
            if !types.contains(s) {
                types.push(s.clone());
            }
        }
        let mut m = String::from("module {\n  version 1;\n  types {\n");
        let _ = writeln!(m, "    count {};", types.len());
        for (i, t) in types.iter().enumerate() {
            let _ = writeln!(m, "    @t{i} = {t};");
        }
        m.push_str("  }\n");
        let _ = writeln!(m, "  define internal {} @f0({});", self.ret.name(), params.join(", "));
        m.push_str("  define external void @f1(i32);\n");
        for (i, f) in self.functions.iter().enumerate() {
            let kind = if f.body.is_some() { "define internal" } else { "declare external" };
            let _ = writeln!(m, "  {kind} {} @f{}({});", f.ret, i + 2, f.params.join(", "));
        }
        // Globals.
        let row = 16 * self.params.len().max(1);
        let input_bytes: Vec<String> = self
            .inputs
            .iter()
            .flat_map(|r| {
                assert_eq!(r.len(), self.params.len(), "an input row has one value per parameter");
                let mut bytes = vec![0u8; row];
                for (k, v) in r.iter().enumerate() {
                    assert_eq!(v.ty, self.params[k], "input type");
                    bytes[16 * k..16 * k + 16].copy_from_slice(&v.bytes);
                }
                bytes
            })
            .map(|b| b.to_string())
            .collect();
        let n = self.inputs.len();
        let _ = writeln!(m, "  globals {{\n    count {};", 8 + self.globals.len());
        let _ = writeln!(m, "    const @g0, align 1, {}", c_string("nacl-irt-fdio-0.1"));
        let _ = writeln!(m, "    const @g1, align 1, {}", c_string("nacl-irt-basic-0.1"));
        m.push_str("    var @g2, align 4, zerofill 32;\n    var @g3, align 4, zerofill 24;\n");
        m.push_str("    var @g4, align 4, zerofill 8;\n");
        let _ = writeln!(m, "    const @g5, align 16, {{ {} }}", input_bytes.join(", "));
        let _ = writeln!(m, "    var @g6, align 16, zerofill {};", 16 * n);
        m.push_str("    var @g7, align 16, zerofill 65536;\n");
        for g in &self.globals {
            let _ = writeln!(m, "    {g}");
        }
        m.push_str("  }\n  valuesymtab {\n    @f1 : \"_start\";\n");
        for (i, f) in self.functions.iter().enumerate() {
            if let Some(name) = &f.name {
                let _ = writeln!(m, "    @f{} : \"{name}\";", i + 2);
            }
        }
        m.push_str("  }\n");
        // The function under test.
        let _ = write!(m, "  function {} @f0(", self.ret.name());
        let ps: Vec<String> = params.iter().enumerate().map(|(i, t)| format!("{t} %p{i}")).collect();
        let _ = writeln!(m, "{}) {{", ps.join(", "));
        let blocks =
            self.body.lines().filter(|l| l.trim_start().starts_with("%b") && l.trim_end().ends_with(':')).count();
        let _ = writeln!(m, "    blocks {};", blocks.max(1));
        if !self.constants.is_empty() {
            m.push_str("    constants {\n");
            let mut last = "";
            for (i, (t, v)) in self.constants.iter().enumerate() {
                if t != last {
                    let _ = writeln!(m, "      {t}:");
                    last = t;
                }
                let _ = writeln!(m, "        %c{i} = {t} {v};");
            }
            m.push_str("    }\n");
        }
        m.push_str(&self.body);
        m.push_str("\n  }\n");
        m.push_str(&self.driver(n, row));
        for f in &self.functions {
            if let Some(body) = &f.body {
                m.push_str(body);
                m.push('\n');
            }
        }
        m.push_str("}\n");
        m
    }

    /// `_start`: finds the IRT, calls `@f0` on every input row, writes the results and
    /// exits with status 0.
    fn driver(&self, n: usize, row: usize) -> String {
        let mut c = Consts::default();
        let mut b = String::new();
        let mut values = 0usize;
        let mut next = || {
            values += 1;
            format!("%v{}", values - 1)
        };
        // %b0: auxv = startup + 4 * (argc + envc + 5).
        let (envc_at, envc, argc_at, argc, sum, words, shift, auxv) =
            (next(), next(), next(), next(), next(), next(), next(), next());
        let _ = writeln!(b, "  %b0:\n    {envc_at} = add i32 %p0, {};", c.get(4));
        let _ = writeln!(b, "    {envc} = load i32* {envc_at}, align 1;");
        let _ = writeln!(b, "    {argc_at} = add i32 %p0, {};", c.get(8));
        let _ = writeln!(b, "    {argc} = load i32* {argc_at}, align 1;");
        let _ = writeln!(b, "    {sum} = add i32 {envc}, {argc};");
        let _ = writeln!(b, "    {words} = add i32 {sum}, {};", c.get(5));
        let _ = writeln!(b, "    {shift} = shl i32 {words}, {};", c.get(2));
        let _ = writeln!(b, "    {auxv} = add i32 %p0, {shift};\n    br label %b1;");
        // %b1/%b2: find AT_SYSINFO.
        let (entry, key, found, step) = (next(), next(), next(), next());
        let _ = writeln!(b, "  %b1:\n    declare i32 {step};");
        let _ = writeln!(b, "    {entry} = phi i32 [{auxv}, %b0], [{step}, %b2];");
        let _ = writeln!(b, "    {key} = load i32* {entry}, align 1;");
        let _ = writeln!(b, "    {found} = icmp eq i32 {key}, {};", c.get(32));
        let _ = writeln!(b, "    br i1 {found}, label %b3, label %b2;");
        let _ = writeln!(b, "  %b2:\n    {step} = add i32 {entry}, {};\n    br label %b1;", c.get(8));
        // %b3: query the interfaces.
        let (qa, query, keep, q1, q2) = (next(), next(), next(), next(), next());
        let _ = writeln!(b, "  %b3:\n    {qa} = add i32 {entry}, {};", c.get(4));
        let _ = writeln!(b, "    {query} = load i32* {qa}, align 1;");
        let _ = writeln!(b, "    {keep} = add i32 @g4, {};", c.get(4));
        let _ = writeln!(b, "    store i32 {query}, i32* {keep}, align 1;");
        let _ = writeln!(b, "    {q1} = call i32 {query}(i32 @g0, i32 @g2, i32 {});", c.get(32));
        let _ = writeln!(b, "    {q2} = call i32 {query}(i32 @g1, i32 @g3, i32 {});", c.get(24));
        let _ = writeln!(b, "    br label %b4;");
        // %b4: the loop over the inputs.
        let i = next();
        // The loop counter's next value is defined after the 4 addresses, 2 values per
        // parameter and the call.
        let i_index: usize = i[2..].parse().expect("a value name");
        let i_next_name = format!("%v{}", i_index + 1 + 4 + 2 * self.params.len() + 1);
        let _ = writeln!(b, "  %b4:\n    declare i32 {i_next_name};");
        let _ = writeln!(b, "    {i} = phi i32 [{}, %b3], [{i_next_name}, %b4];", c.get(0));
        let (in_off, in_at, out_off, out_at) = (next(), next(), next(), next());
        let _ = writeln!(b, "    {in_off} = mul i32 {i}, {};", c.get(row as u32));
        let _ = writeln!(b, "    {in_at} = add i32 @g5, {in_off};");
        let _ = writeln!(b, "    {out_off} = mul i32 {i}, {};", c.get(16));
        let _ = writeln!(b, "    {out_at} = add i32 @g6, {out_off};");
        let mut args = Vec::new();
        for (k, t) in self.params.iter().enumerate() {
            let (at, val) = (next(), next());
            let _ = writeln!(b, "    {at} = add i32 {in_at}, {};", c.get(16 * k as u32));
            let _ = writeln!(b, "    {val} = load {}* {at}, align {};", t.name(), t.align());
            args.push(format!("{} {val}", t.name()));
        }
        let r = next();
        let _ = writeln!(b, "    {r} = call {} @f0({});", self.ret.name(), args.join(", "));
        let _ = writeln!(
            b,
            "    store {} {r}, {}* {out_at}, align {};",
            self.ret.name(),
            self.ret.name(),
            self.ret.align()
        );
        let (i_next, done) = (next(), next());
        assert_eq!(i_next, i_next_name, "driver value numbering");
        let _ = writeln!(b, "    {i_next} = add i32 {i}, {};", c.get(1));
        let _ = writeln!(b, "    {done} = icmp eq i32 {i_next}, {};", c.get(n as u32));
        let _ = writeln!(b, "    br i1 {done}, label %b5, label %b4;");
        // %b5: write the results, exit(0).
        let (wa, write, w, exit) = (next(), next(), next(), next());
        let _ = writeln!(b, "  %b5:\n    {wa} = add i32 @g2, {};", c.get(16));
        let _ = writeln!(b, "    {write} = load i32* {wa}, align 1;");
        let _ = writeln!(
            b,
            "    {w} = call i32 {write}(i32 {}, i32 @g6, i32 {}, i32 @g4);",
            c.get(1),
            c.get(16 * n as u32)
        );
        let _ = writeln!(b, "    {exit} = load i32* @g3, align 1;");
        let _ = writeln!(b, "    call void {exit}(i32 {});\n    unreachable;", c.get(0));
        let mut f = String::from("  function void @f1(i32 %p0) {\n    blocks 6;\n    constants {\n      i32:\n");
        for (k, x) in c.0.iter().enumerate() {
            let _ = writeln!(f, "        %c{k} = i32 {x};");
        }
        f.push_str("    }\n");
        f.push_str(&b);
        f.push_str("  }\n");
        f
    }

    /// Runs the module (written to a file in `dir`) with `pnacl run` and returns the
    /// process output.
    pub fn run_in(&self, dir: &Path, name: &str) -> Output {
        run_text(&self.module(), dir, name, &[])
    }

    /// Runs the module and returns the results, one per input row; panics with the
    /// program's stderr if it does not exit with status 0.
    pub fn results(&self, dir: &Path, name: &str) -> Vec<Val> {
        let out = self.run_in(dir, name);
        assert!(
            out.status.code() == Some(0),
            "{name}: exit status {:?}\nstderr: {}\nmodule:\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr),
            self.module()
        );
        assert_eq!(out.stdout.len(), 16 * self.inputs.len(), "{name}: output size");
        out.stdout.chunks(16).map(|c| Val::new(self.ret, &c[..self.ret.size()])).collect()
    }

    /// Runs the module and checks each result against `expected(row)`.
    pub fn check(&self, dir: &Path, name: &str, expected: impl Fn(&[Val]) -> Val) {
        let got = self.results(dir, name);
        let mut bad = Vec::new();
        for (row, g) in self.inputs.iter().zip(&got) {
            let want = expected(row);
            if !want.same(g) {
                bad.push(format!(
                    "  inputs {row:?}\n    want {:02x?}\n    got  {:02x?}",
                    want.as_bytes(),
                    g.as_bytes()
                ));
            }
        }
        assert!(bad.is_empty(), "{name}: {} of {} results differ:\n{}", bad.len(), got.len(), bad.join("\n"));
    }
}

/// `pnacl run`'s standard error without the backtrace it prints after a trap message (the
/// wasm host names the trapping function only: a listed difference, crates/wasm/js/README.md).
pub fn without_backtrace(stderr: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(stderr);
    let mut out = String::new();
    let mut in_backtrace = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("pnacl: backtrace (innermost first):") {
            in_backtrace = true;
            continue;
        }
        if in_backtrace && (line.starts_with("  #") || line.starts_with("  ... ")) {
            continue;
        }
        in_backtrace = false;
        out.push_str(line);
    }
    out.into_bytes()
}

/// Writes PNaClAsm `text` to `dir/name.pnaclasm` and runs it with `pnacl run`, with
/// guest arguments `args`.
pub fn run_text(text: &str, dir: &Path, name: &str, args: &[&str]) -> Output {
    let path = dir.join(format!("{name}.pnaclasm"));
    std::fs::write(&path, text).expect("write the test module");
    let native = crate::pnacl_command().arg("run").arg(&path).arg("--").args(args).output().expect("run pnacl");
    if crate::wasm::both_ways() && !crate::wasm::KNOWN_DIFFERENCES.iter().any(|(n, _)| *n == name) {
        // The same program through `pnacl wasm --checked` and Node: the same status and
        // messages as `pnacl run`; its output goes to the suite's own checks (which
        // compare NaNs as NaNs: their bits are not the same under both). A program with
        // atomics runs twice: alone on its memory they are plain accesses, on a shared
        // memory (as a program with threads has) wasm atomics; both must agree with `run`.
        let wasm = crate::wasm::run_file(&path, dir, name, args);
        if text.contains("llvm.nacl.atomic") {
            let shared = crate::wasm::run_file_with(&path, dir, name, args, &["--shared-memory"]);
            assert!(
                (shared.status.code(), &shared.stdout, &shared.stderr)
                    == (wasm.status.code(), &wasm.stdout, &wasm.stderr),
                "{name}: pnacl wasm with and without --shared-memory differ:\n  status {:?} / {:?}{}",
                wasm.status.code(),
                shared.status.code(),
                first_difference(&wasm.stdout, &shared.stdout),
            );
        }
        assert!(
            wasm.status.code() == native.status.code() && wasm.stderr == without_backtrace(&native.stderr),
            "{name}: pnacl run and pnacl wasm + node differ:\n  status {:?} / {:?}\n  stderr {:?} / {:?}\n  \
             stdout {} bytes / {} bytes{}",
            native.status.code(),
            wasm.status.code(),
            String::from_utf8_lossy(&native.stderr),
            String::from_utf8_lossy(&wasm.stderr),
            native.stdout.len(),
            wasm.stdout.len(),
            first_difference(&native.stdout, &wasm.stdout),
        );
        return wasm;
    }
    native
}

/// Where two outputs first differ, for messages.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(k) => {
            let row = k / 16 * 16;
            let end = |s: &[u8]| s.len().min(row + 16);
            format!(
                "; first difference at byte {k}:\n    run  {:02x?}\n    wasm {:02x?}",
                &a[row..end(a)],
                &b[row..end(b)]
            )
        }
        None => String::new(),
    }
}
