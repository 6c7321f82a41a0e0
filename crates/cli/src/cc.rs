//! `pnacl cc`: C source to a pexe. clang compiles each source for `le32-unknown-nacl` to
//! LLVM bitcode (with the flags that keep intrinsics PNaCl cannot express out), the members
//! of pnacl's own C library the program needs are linked in, as a linker takes members of
//! an archive, and `simplify` does the rest.

use crate::{libc, output, producer, simplify};
use pnacl_llvm::Module;
use pnacl_llvm::ir::Linkage;
use pnacl_llvm::print::{PrintOptions, print};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Arguments of `pnacl cc`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every argument pnacl does not know is passed to clang (-O2, -DNAME, -I DIR, -std=c11, ...).\n\n\
                        Examples:\n  pnacl cc hello.c -o hello.pexe && pnacl run hello.pexe\n  \
                        pnacl cc -O2 -DN=100 main.c util.c -o prog.pexe\n  \
                        pnacl cc -O2 prog.c --emit-llvm -o prog.ll\n  \
                        pnacl cc --clang /opt/llvm/bin/clang prog.c -o prog.pexe"
)]
pub struct Args {
    /// The pexe to write (`-` for standard output); with --emit-llvm, LLVM IR text.
    /// (May also come after the sources.)
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The clang to run (default: clang-14 on the PATH, or /usr/lib/llvm-14/bin/clang).
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,
    /// Write the simplified module as LLVM IR text instead of a pexe.
    #[arg(long)]
    pub emit_llvm: bool,
    /// Do not link pnacl's C library (the program brings its own `_start`).
    #[arg(long)]
    pub nostdlib: bool,
    /// Write the pexe even if it breaks the PNaCl ABI.
    #[arg(long)]
    pub no_verify: bool,
    /// C sources (`.c`), LLVM bitcode (`.bc`) and clang options, in any order.
    #[arg(required = true, allow_hyphen_values = true, num_args = 1.., trailing_var_arg = true)]
    pub args: Vec<OsString>,
}

/// clang options whose value is the next argument.
const TAKES_VALUE: &[&str] =
    &["-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-x", "-Xclang", "-mllvm", "-MF", "-MT"];

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    match cc(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pnacl cc: {e}");
            1
        }
    }
}

/// The command line split into inputs and the options passed to clang.
struct CommandLine {
    output: Option<PathBuf>,
    sources: Vec<PathBuf>,
    bitcode: Vec<PathBuf>,
    clang_options: Vec<OsString>,
}

fn split(raw: &[OsString]) -> Result<CommandLine, String> {
    let mut line = CommandLine { output: None, sources: Vec::new(), bitcode: Vec::new(), clang_options: Vec::new() };
    let mut it = raw.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        if s == "-o" {
            line.output = Some(PathBuf::from(it.next().ok_or("`-o` needs a file name")?));
            continue;
        }
        if s == "-c" || s == "-S" || s == "-emit-llvm" {
            return Err(format!("`{s}` is pnacl's to give: pnacl cc always writes a pexe to its -o"));
        }
        if s.starts_with('-') {
            line.clang_options.push(a.clone());
            if TAKES_VALUE.contains(&s.as_ref()) {
                let v = it.next().ok_or_else(|| format!("`{s}` needs a value"))?;
                line.clang_options.push(v.clone());
            }
        } else if s.ends_with(".bc") {
            line.bitcode.push(PathBuf::from(a));
        } else {
            line.sources.push(PathBuf::from(a));
        }
    }
    if line.sources.is_empty() && line.bitcode.is_empty() {
        return Err("no input files".into());
    }
    Ok(line)
}

/// clang-14 on the PATH, or in LLVM 14's directory.
fn find_clang(asked: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = asked {
        return Ok(p.to_path_buf());
    }
    let on_path = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("clang-14"))
        .find(|p| p.is_file());
    on_path.or_else(|| Some(PathBuf::from("/usr/lib/llvm-14/bin/clang")).filter(|p| p.is_file())).ok_or_else(|| {
        "clang-14 is not installed (it still targets le32-unknown-nacl): on Debian or Ubuntu, \
         `apt-get install clang-14`; or name another clang with --clang PATH"
            .to_string()
    })
}

fn cc(args: &Args) -> Result<(), String> {
    let line = split(&args.args)?;
    let output = args.output.clone().or(line.output.clone()).ok_or("no output file: give -o FILE")?;
    let clang = find_clang(args.clang.as_deref())?;
    let lib = if args.nostdlib { None } else { Some(libc::build(&clang)?) };
    let work = tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let mut user = Vec::new();
    for (k, src) in line.sources.iter().enumerate() {
        let out = work.path().join(format!("{k}.bc"));
        compile(&clang, src, &line.clang_options, lib.as_ref().map(|l| l.include.as_path()), &out)?;
        user.push(producer::read_llvm(&out).map_err(|e| format!("{}: {e}", src.display()))?);
    }
    for bc in &line.bitcode {
        user.push(producer::read_llvm(bc).map_err(|e| format!("{}: {e}", bc.display()))?);
    }
    let mut modules = user;
    if let Some(lib) = &lib {
        let members = lib
            .bitcode
            .iter()
            .map(|p| producer::read_llvm(p).map_err(|e| format!("{}: {e}", p.display())))
            .collect::<Result<Vec<_>, _>>()?;
        let needed = archive_members(&modules, &members);
        let mut members: Vec<Option<Module>> = members.into_iter().map(Some).collect();
        modules.extend(needed.into_iter().filter_map(|k| members[k].take()));
    }
    let mut m = pnacl_passes::link::link(modules).map_err(|e| format!("link: {e}"))?;
    let name = line.sources.first().or(line.bitcode.first()).expect("an input").display().to_string();
    simplify::run_passes(&mut m, &pnacl_passes::pipeline::simplify_passes(), &[])
        .map_err(|e| format!("{name}: {e}"))?;
    if args.emit_llvm {
        let text = print(&m, &PrintOptions { opaque_pointers: true });
        return output::write_file(&output, text.as_bytes()).map_err(|e| format!("{}: {e}", output.display()));
    }
    let bytes = simplify::finalize(&mut m, &name, args.no_verify)?;
    output::write_file(&output, &bytes).map_err(|e| format!("{}: {e}", output.display()))
}

/// Compiles one source to bitcode.
fn compile(clang: &Path, src: &Path, options: &[OsString], include: Option<&Path>, out: &Path) -> Result<(), String> {
    let mut cmd = Command::new(clang);
    // The user's options first: a later `-O2` turns the vectorizers back on, so the
    // library's flags (all but its optimisation level) come after them.
    cmd.args(options);
    cmd.args(libc::clang_flags().into_iter().filter(|f| !f.starts_with("-O")));
    if let Some(inc) = include {
        cmd.arg("-isystem").arg(inc);
    }
    cmd.arg(src).arg("-o").arg(out);
    let status = cmd.status().map_err(|e| format!("{}: {e}", clang.display()))?;
    if !status.success() {
        return Err(format!("{}: clang failed ({status})", src.display()));
    }
    Ok(())
}

/// Which library members to link, as a linker takes archive members: `_start`, then
/// every member defining a symbol that what is linked so far uses and nobody defines.
fn archive_members(program: &[Module], members: &[Module]) -> Vec<usize> {
    let mut defined: BTreeSet<String> = BTreeSet::new();
    let mut wanted: BTreeSet<String> = BTreeSet::from(["_start".to_string()]);
    for m in program {
        add_symbols(m, &mut defined, &mut wanted);
    }
    let member_defs: Vec<BTreeSet<String>> = members
        .iter()
        .map(|m| {
            let mut d = BTreeSet::new();
            add_symbols(m, &mut d, &mut BTreeSet::new());
            d
        })
        .collect();
    let mut taken = Vec::new();
    loop {
        let missing: Vec<&String> = wanted.iter().filter(|s| !defined.contains(*s)).collect();
        let next =
            (0..members.len()).find(|k| !taken.contains(k) && missing.iter().any(|s| member_defs[*k].contains(*s)));
        let Some(k) = next else { break };
        taken.push(k);
        add_symbols(&members[k], &mut defined, &mut wanted);
    }
    taken.sort_unstable();
    taken
}

/// Adds the external symbols `m` defines to `defined`, and those it declares to `wanted`.
fn add_symbols(m: &Module, defined: &mut BTreeSet<String>, wanted: &mut BTreeSet<String>) {
    let external = |l: Linkage| !matches!(l, Linkage::Internal | Linkage::Private);
    for f in &m.functions {
        if f.is_intrinsic() || !external(f.props.linkage) {
            continue;
        }
        if f.is_declaration() { &mut *wanted } else { &mut *defined }.insert(f.props.name.clone());
    }
    for g in &m.globals {
        if !external(g.props.linkage) {
            continue;
        }
        if g.init.is_none() { &mut *wanted } else { &mut *defined }.insert(g.props.name.clone());
    }
}
