//! Shared by the `freeze_*` suites (issue 17's acceptance tests): running `pnacl` and the
//! LLVM tools on files, and comparing two pexes exactly or up to the order of the module
//! symbol table.
#![allow(dead_code)]

use pnacl_bitcode::{Abbrevs, Module, ReadOptions};
use pnacl_testutil::pnacl_command;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `pnacl ARGS`.
pub fn pnacl<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    pnacl_command().args(args).output().expect("run pnacl")
}

/// Runs `command` and returns an error naming `what` unless it exits with status 0.
pub fn run_ok(what: &str, command: &mut Command) -> Result<Output, String> {
    let out = command.output().map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!(
            "{what}: {:?} {:?} failed ({}):\n{}",
            command.get_program(),
            command.get_args().collect::<Vec<_>>(),
            out.status,
            tail(&String::from_utf8_lossy(&out.stderr), 30)
        ))
    }
}

/// Runs `pnacl ARGS` and returns an error naming `what` unless it succeeds.
pub fn pnacl_ok<I, S>(what: &str, args: I) -> Result<Output, String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut c = pnacl_command();
    c.args(args);
    run_ok(what, &mut c)
}

/// The last `n` lines of `text` (long tool messages stay readable).
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A file name for corpus path `file` (`cli/fact.pexe` → `cli_fact`).
pub fn stem(file: &str) -> String {
    file.trim_end_matches(".pexe").replace('/', "_")
}

/// How two pexes compare.
#[derive(Debug, PartialEq, Eq)]
pub enum Same {
    /// Byte for byte.
    Identical,
    /// Both files are exactly what the PNaCl writer makes (standard abbreviations) of a
    /// module; the two modules are equal once their module symbol tables' entries are put in
    /// one order, and they hold the same entries. So the files can differ only in the order
    /// of the module symbol table's records.
    VstOrderOnly,
    /// Any other difference: what it is.
    Differs(String),
}

fn read(what: &str, bytes: &[u8]) -> Result<Module, String> {
    let options = ReadOptions { defer_abi: true, no_layout: true, ..ReadOptions::default() };
    pnacl_bitcode::read_parallel(bytes, options).map_err(|e| format!("{what}: the PNaCl reader refuses it: {e}"))
}

/// Compares `got` with `want`: identical, different only in the order of the module
/// symbol table's entries (proved as [`Same::VstOrderOnly`] says), or different.
pub fn compare(got: &[u8], want: &[u8]) -> Same {
    if got == want {
        return Same::Identical;
    }
    match compare_modules(got, want) {
        Ok(()) => Same::VstOrderOnly,
        Err(e) => Same::Differs(e),
    }
}

fn compare_modules(got: &[u8], want: &[u8]) -> Result<(), String> {
    let mut g = read("the output", got)?;
    let mut w = read("the expected pexe", want)?;
    // Each file must be the writer's exact encoding of its module, so that equal modules
    // mean equal bytes, and a different symbol-table order the only possible difference.
    for (what, m, bytes) in [("the output", &g, got), ("the expected pexe", &w, want)] {
        let again = pnacl_bitcode::write(m, Abbrevs::Standard).map_err(|e| format!("{what}: cannot write: {e}"))?;
        if again != bytes {
            return Err(format!(
                "{what} is not the standard-abbreviation encoding of its own module (first differing byte {}), \
                 so the comparison cannot be confined to the symbol table",
                first_difference(&again, bytes)
            ));
        }
    }
    let gs = g.symtab.take().unwrap_or_default();
    let ws = w.symtab.take().unwrap_or_default();
    if g != w {
        return Err(describe_difference(&g, &w));
    }
    let canon = |s: &[pnacl_bitcode::ir::Symbol]| {
        let mut v: Vec<(u32, Vec<u8>)> = s.iter().map(|e| (e.value.0, e.name.clone())).collect();
        v.sort();
        v
    };
    let (gc, wc) = (canon(&gs), canon(&ws));
    if gc != wc {
        let only_got: Vec<String> = gc.iter().filter(|e| !wc.contains(e)).map(entry).collect();
        let only_want: Vec<String> = wc.iter().filter(|e| !gc.contains(e)).map(entry).collect();
        return Err(format!(
            "the module symbol tables hold different entries: only in the output {only_got:?}, only expected \
             {only_want:?}"
        ));
    }
    // Belt and braces: with the symbol tables in one order, the files are identical.
    let sorted = |m: &mut Module, s: &[pnacl_bitcode::ir::Symbol]| {
        let mut s = s.to_vec();
        s.sort_by(|a, b| (a.value.0, &a.name).cmp(&(b.value.0, &b.name)));
        m.symtab = (!s.is_empty()).then_some(s);
        pnacl_bitcode::write(m, Abbrevs::Standard).expect("write")
    };
    if sorted(&mut g, &gs) != sorted(&mut w, &ws) {
        return Err("equal modules with sorted symbol tables write different bytes".into());
    }
    Ok(())
}

fn entry(e: &(u32, Vec<u8>)) -> String {
    format!("{} = {}", e.0, String::from_utf8_lossy(&e.1))
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!("at byte {i}"),
        None => format!("none in the common length; lengths {} and {}", a.len(), b.len()),
    }
}

/// Where two modules (symbol tables aside) differ, briefly.
fn describe_difference(g: &Module, w: &Module) -> String {
    if g.header != w.header {
        return format!("headers differ: {:?} vs {:?}", g.header, w.header);
    }
    if g.types != w.types {
        let i = g.types.iter().zip(&w.types).position(|(a, b)| a != b).unwrap_or(g.types.len().min(w.types.len()));
        return format!(
            "type tables differ ({} vs {} types), first at @t{i}: {:?} vs {:?}",
            g.types.len(),
            w.types.len(),
            g.types.get(i),
            w.types.get(i)
        );
    }
    if g.globals != w.globals {
        let i = g.globals.iter().zip(&w.globals).position(|(a, b)| a != b).unwrap_or(0);
        return format!("globals differ ({} vs {}), first at @g{i}", g.globals.len(), w.globals.len());
    }
    if g.functions.len() != w.functions.len() {
        return format!("{} functions, expected {}", g.functions.len(), w.functions.len());
    }
    for (i, (a, b)) in g.functions.iter().zip(&w.functions).enumerate() {
        if a != b {
            let what = match (&a.body, &b.body) {
                (Some(x), Some(y)) if x.constants != y.constants => "its constants",
                (Some(_), Some(_)) => "its body",
                _ => "its declaration",
            };
            return format!("function @f{i} differs: {what}");
        }
    }
    "the modules differ (version or another module-level field)".into()
}

/// Assembles LLVM IR text `ll` into bitcode `bc` with `llvm_as`.
pub fn assemble(llvm_as: &Path, ll: &Path, bc: &Path) -> Result<(), String> {
    run_ok("llvm-as", Command::new(llvm_as).arg(ll).arg("-o").arg(bc)).map(drop)
}

/// Runs `opt -passes=verify` (version as given by the path) on `input`.
pub fn verify(opt: &Path, input: &Path) -> Result<(), String> {
    run_ok("opt -passes=verify", Command::new(opt).arg("-passes=verify").arg("-disable-output").arg(input)).map(drop)
}
